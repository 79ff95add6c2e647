import { createMosaicServer, isLoopback } from '@mosaic/server';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { CliError } from '../cli-error.js';
import { cliVersion } from '../main.js';
import { ENGINE_FLAGS, engineHelp, openEngine } from '../serve-engine.js';

export const SERVE_HELP = `mosaic serve --index DIR [options]
       mosaic serve --store URL --database NAME [options]

Loads the index once and serves the Mosaic HTTP API (JSON):
  POST /v1/retrieve   ranked windows        {"question": "...", "windows"?: N, "policy"?: "adaptive|narrow|medium|wide", "graph"?: bool}
  POST /v1/ask        an answer with citations (Accept: text/event-stream streams policy, seeds, stop, windows, answer)
  POST /v1/policy     the analyzer's policy for a question
  GET  /v1/documents[/ID], /healthz, /readyz, /metrics (Prometheus), /openapi.json
Logs one JSON line per request on stderr. SIGTERM or SIGINT: stops accepting, answers the requests in
flight, exits 0.

  --host ADDR           address to bind (default 127.0.0.1); any other needs a token
  --port N              port (default 8787; 0 picks a free one, printed)
  --token SECRET        bearer token required by every route but /healthz and /readyz
                        (default $MOSAIC_API_TOKEN; at least 16 characters)
  --timeout MS          per-request timeout; the pipeline is aborted, the client gets 504 (default 30000)
  --body-limit BYTES    largest request body (default 65536)
  --grace MS            on SIGTERM, how long to wait for requests in flight (default 30000)
${engineHelp()}`;

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('serve', argv, {
    ...ENGINE_FLAGS,
    host: { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string' },
    timeout: { type: 'string' },
    'body-limit': { type: 'string' },
    grace: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(SERVE_HELP);
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const token = (values.token as string | undefined) ?? (process.env.MOSAIC_API_TOKEN || undefined);
  if (!isLoopback(host) && !token)
    throw new CliError(`--host ${host} is not loopback: give --token SECRET (or $MOSAIC_API_TOKEN); refusing to serve the index to the network without one`);
  if (token !== undefined && token.length < 16) throw new CliError('--token must be at least 16 characters');
  const port = values.port === '0' ? 0 : positiveInteger('port', values.port, 8787);
  const timeoutMs = positiveInteger('timeout', values.timeout, 30_000);
  const bodyLimitBytes = positiveInteger('body-limit', values['body-limit'], 65_536);
  const graceMs = positiveInteger('grace', values.grace, 30_000);
  const opened = await openEngine('serve', values);
  const server = createMosaicServer({
    engine: opened.engine,
    ready: opened.ready,
    token,
    timeoutMs,
    bodyLimitBytes,
    info: { corpus: opened.corpus, version: cliVersion() },
  });
  let stopped: (signal: string) => void = () => undefined;
  const stop = new Promise<string>((resolve) => {
    stopped = resolve;
  });
  const onSignal = (signal: string) => () => stopped(signal);
  const handlers = { SIGTERM: onSignal('SIGTERM'), SIGINT: onSignal('SIGINT') };
  process.once('SIGTERM', handlers.SIGTERM);
  process.once('SIGINT', handlers.SIGINT);
  try {
    const { url } = await server.listen({ host, port });
    try {
      await opened.ready;
    } catch (error) {
      throw new CliError(`cannot open the index: ${(error as Error).message}`);
    }
    process.stderr.write(`mosaic serve: ${opened.corpus} on ${url} (${opened.workers} worker${opened.workers === 1 ? '' : 's'}); SIGTERM or Ctrl-C stops\n`);
    const signal = await stop;
    process.stderr.write(`mosaic serve: ${signal}: draining ${server.inFlight} request(s) in flight\n`);
    await server.close({ graceMs });
  } finally {
    process.off('SIGTERM', handlers.SIGTERM);
    process.off('SIGINT', handlers.SIGINT);
    if (server.server.listening) await server.close({ graceMs: 0 });
    await opened.close();
  }
}
