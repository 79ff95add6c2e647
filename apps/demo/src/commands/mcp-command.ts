import { serveMcpStdio, startMcpHttpServer } from '@mosaic/mcp';
import { deferEngine, isLoopback } from '@mosaic/server';
import { parseCommandArgs, positiveInteger } from '../args.js';
import { CliError } from '../cli-error.js';
import { locateIndexes } from '../index-locator.js';
import { cliVersion } from '../main.js';
import { ENGINE_FLAGS, engineHelp, openEngine } from '../serve-engine.js';

export const MCP_HELP = `mosaic mcp --index DIR [options]
       mosaic mcp --index DIR --http [--port N] [options]

A Model Context Protocol server over a loaded index: tools 'search' (ranked source windows with their
documents and offsets) and 'ask' (an answer with citations), and every indexed document as a resource
(mosaic://documents/ID). Over stdio by default (what an agent spawns: stdout carries the protocol,
everything else goes to stderr), or over Streamable HTTP with --http.

  --http                serve Streamable HTTP (stateless) instead of stdio
  --host ADDR           with --http: address to bind (default 127.0.0.1); any other needs a token
  --port N              with --http: port (default 8788; 0 picks a free one, printed)
  --path PATH           with --http: the endpoint (default /mcp)
  --token SECRET        with --http: bearer token the endpoint requires (default $MOSAIC_API_TOKEN)
${engineHelp('1')}`;

export async function mcpCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('mcp', argv, {
    ...ENGINE_FLAGS,
    http: { type: 'boolean' },
    host: { type: 'string' },
    port: { type: 'string' },
    path: { type: 'string' },
    token: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(MCP_HELP);
  const http = values.http === true;
  if (!http && (values.host ?? values.port ?? values.path ?? values.token) !== undefined)
    throw new CliError('--host, --port, --path and --token need --http (see mosaic mcp --help)');
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const token = (values.token as string | undefined) ?? (process.env.MOSAIC_API_TOKEN || undefined);
  if (http && !isLoopback(host) && !token) throw new CliError(`--host ${host} is not loopback: give --token SECRET (or $MOSAIC_API_TOKEN)`);
  const port = values.port === '0' ? 0 : positiveInteger('port', values.port, 8788);
  // The protocol starts at once (a client's handshake has a timeout); tool calls wait for the index.
  const opening = openEngine('mcp', values, 1);
  const corpus = await peekCorpus(opening, values);
  const engine = deferEngine(
    opening.then(async (opened) => {
      await opened.ready;
      return opened.engine;
    }),
  );
  opening.catch((error: unknown) => process.stderr.write(`mosaic mcp: cannot open the index: ${(error as Error)?.message ?? String(error)}\n`));
  try {
    const options = { engine, corpus, version: cliVersion() };
    if (!http) {
      const stdio = await serveMcpStdio(options);
      process.stderr.write(`mosaic mcp: ${corpus} over stdio\n`);
      await Promise.race([stdio.closed, signalled()]);
      await stdio.close();
      return;
    }
    const served = await startMcpHttpServer({ ...options, host, port, path: values.path as string | undefined, token });
    process.stderr.write(`mosaic mcp: ${corpus} on ${served.url} (Streamable HTTP); SIGTERM or Ctrl-C stops\n`);
    await signalled();
    await served.close();
  } finally {
    await engine.close();
  }
}

/** The corpus name for the tool descriptions, without waiting for the index: the --corpus or --database flag, else the manifest's. */
async function peekCorpus(opening: Promise<{ corpus: string }>, values: Record<string, unknown>): Promise<string | undefined> {
  const named = (values.corpus ?? values.database) as string | undefined;
  if (named) return named;
  if (typeof values.index === 'string') {
    const located = [...locateIndexes(values.index).values()];
    if (located.length === 1) return located[0]!.manifest.corpus;
  }
  return (await opening).corpus;
}

/** Resolves on the first SIGTERM or SIGINT. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGTERM', done);
      process.off('SIGINT', done);
      resolve();
    };
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
}
