import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTROL_FIELDS, DEFAULT_POLICY, FIXED_POLICIES, POLICY_RANGES, policyControls } from '@mosaic/policy-schema';
import { STOP_MIN_COMPLETENESS, STOP_THRESHOLDS } from '@mosaic/stage-utils/internal';
import { createMosaic, type AskResult, type Mosaic } from '@mosaic/pipeline';
import { AbortedError, ApiCallError, InvalidArgumentError } from '@mosaic/spec';
import type { Analyzer, CorpusIndex, Generator, PolicyControls } from '@mosaic/spec';
import { CLIENT_SCRIPT, EXPLORER_CSS, EXPLORER_HTML } from './explorer-page.js';
import { ExplorerRequestError } from './explorer-request-error.js';
import { exploreRetrieval } from './explore-retrieval.js';
import type { CorporaResponse, ExplorerErrorBody, PolicyDefaultsResponse } from './explorer-types.js';
import { DEFAULT_MAX_QUESTION_CHARS, parseAskRequest } from './parse-ask-request.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';

/** A pipeline and the index it reads (its graph is drawn, its chunks highlighted). */
export interface ExplorerCorpus {
  mosaic: Mosaic;
  index: Pick<CorpusIndex, 'graph' | 'chunks'>;
}

export interface ExplorerServerOptions {
  /** One index to explore (served under its manifest's corpus name). Give this or `mosaicFor`. */
  index?: CorpusIndex;
  /** With `index`: the analyzer (default: the pipeline's offline analyzer). */
  analyzer?: Analyzer;
  /** With `index`: the generator (default: the pipeline's extractive generator). */
  generator?: Generator;
  /** With `index`: windows handed to the generator (default: the pipeline's 15). */
  windows?: number;
  /** The pipeline of a corpus, opened on first use (the caller caches). Give this or `index`. */
  mosaicFor?: (corpus: string) => Promise<ExplorerCorpus>;
  /** With `mosaicFor`: the corpus names offered. */
  corpora?: readonly string[];
  /** Corpus used when a request names none (default: the first). */
  defaultCorpus?: string;
  /** Example questions per corpus, offered as buttons. */
  examples?: Readonly<Record<string, readonly string[]>>;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** Largest request body (default 4096 bytes). */
  maxBodyBytes?: number;
  /** Longest question (default 1000 characters). */
  maxQuestionChars?: number;
  /** Questions answered at once; more get 503 (default 4). */
  maxConcurrentAsks?: number;
  /** Folder holding the bundled client (explorer-client.js); default: dist/explorer next to the built CLI. */
  assetsDir?: string;
}

export interface ExplorerServer {
  /** e.g. http://127.0.0.1:43123/ */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Where the bundled client lives: `dist/explorer/` beside the built CLI (dist/cli.js), or, when this
 * module runs from source (tests, tsx), apps/demo/dist/explorer/.
 */
export function defaultAssetsDir(): string {
  const candidates = [new URL('./explorer/', import.meta.url), new URL('../../dist/explorer/', import.meta.url)].map((u) => fileURLToPath(u));
  return candidates.find((dir) => existsSync(join(dir, CLIENT_SCRIPT))) ?? candidates[0]!;
}

function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0]!.toLowerCase();
}

function errorBody(error: unknown): ExplorerErrorBody {
  if (ExplorerRequestError.isInstance(error)) {
    return { name: error.name, code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}), status: error.status };
  }
  if (InvalidArgumentError.isInstance(error)) {
    return { name: error.name, code: 'invalid-field', message: error.message, field: error.argument, status: 400 };
  }
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return { name, code: 'internal', message, status: 500 };
}

/** A readable account of a stage failure (e.g. the analyzer's or generator's API call). */
function stageFailure(stage: 'retrieval' | 'generator' | 'index', error: unknown): ExplorerErrorBody {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const what =
    stage === 'generator'
      ? 'The generator failed while writing the answer'
      : stage === 'index'
        ? 'The corpus index could not be opened'
        : 'Retrieval failed (analyzer, query encoder or index)';
  const external = ApiCallError.isInstance(error);
  return { name, code: 'stage-failed', stage, message: `${what}: ${message}`, status: external ? 502 : 500 };
}

/**
 * Serve the explorer over node:http: the page (GET /), its bundled client, GET /api/corpora,
 * GET /api/policy-defaults and POST /api/ask {question, policy?, corpus?} → the retrieval and the
 * explored subgraph (ExplorerAskResponse). Binds 127.0.0.1 by default; on a loopback address only
 * requests whose Host is a loopback name are served (no DNS rebinding). Every request is checked:
 * bad input gets a 4xx JSON `{ error: { name, code, message, field?, status } }`; a failing analyzer,
 * encoder or generator gets a 5xx JSON error the page shows as a message.
 */
export async function startExplorerServer(options: ExplorerServerOptions): Promise<ExplorerServer> {
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxQuestionChars = options.maxQuestionChars ?? DEFAULT_MAX_QUESTION_CHARS;
  const maxConcurrentAsks = options.maxConcurrentAsks ?? 4;
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  for (const [name, value, min] of [
    ['maxBodyBytes', maxBodyBytes, 64],
    ['maxQuestionChars', maxQuestionChars, 1],
    ['maxConcurrentAsks', maxConcurrentAsks, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min) throw new InvalidArgumentError({ argument: name, message: `must be an integer ≥ ${min}, got ${value}` });
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError({ argument: 'port', message: `must be an integer in [0, 65535], got ${port}` });

  let corpora: readonly string[];
  let open: (corpus: string) => Promise<ExplorerCorpus>;
  if (options.index && options.mosaicFor) throw new InvalidArgumentError({ argument: 'index', message: 'give either index or mosaicFor, not both' });
  if (options.index) {
    const index = options.index;
    const corpus: ExplorerCorpus = {
      mosaic: createMosaic({ index, analyzer: options.analyzer, generator: options.generator, windows: options.windows }),
      index,
    };
    corpora = [index.manifest.corpus];
    open = async () => corpus;
  } else if (options.mosaicFor) {
    corpora = options.corpora ?? [];
    if (corpora.length === 0) throw new InvalidArgumentError({ argument: 'corpora', message: 'mosaicFor needs the corpus names it serves' });
    open = options.mosaicFor;
  } else {
    throw new InvalidArgumentError({ argument: 'index', message: 'an index or a mosaicFor function is required' });
  }
  const defaultCorpus = options.defaultCorpus ?? corpora[0]!;
  if (!corpora.includes(defaultCorpus))
    throw new InvalidArgumentError({ argument: 'defaultCorpus', message: `'${defaultCorpus}' is not one of ${corpora.join(', ')}` });

  const controls = [...CONTROL_FIELDS] as (keyof PolicyControls)[];
  const policyDefaults: PolicyDefaultsResponse = {
    controls,
    defaults: policyControls(DEFAULT_POLICY),
    ranges: POLICY_RANGES,
    fixed: { narrow: policyControls(FIXED_POLICIES.narrow), medium: policyControls(FIXED_POLICIES.medium), wide: policyControls(FIXED_POLICIES.wide) },
    stopThresholds: { ...STOP_THRESHOLDS },
    minCompleteness: STOP_MIN_COMPLETENESS,
  };
  const corporaBody: CorporaResponse = {
    corpora: corpora.map((name) => ({ name, examples: [...(options.examples?.[name] ?? [])] })),
    defaultCorpus,
    limits: { maxBodyBytes, maxQuestionChars },
  };

  let asking = 0;
  const checkHost = LOOPBACK.has(host);

  function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
    if (response.headersSent || response.destroyed) return;
    response.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'content-length': String(Buffer.byteLength(body)) });
    response.end(body);
  }
  function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    send(response, status, JSON.stringify(value), { ...JSON_HEADERS, ...headers });
  }
  function sendError(response: ServerResponse, body: ExplorerErrorBody, headers: Record<string, string> = {}): void {
    sendJson(response, body.status, { error: body }, headers);
  }

  async function ask(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parsed = parseAskRequest(await readJsonBody(request, { maxBytes: maxBodyBytes }), { maxQuestionChars });
    const corpus = parsed.corpus ?? defaultCorpus;
    if (!corpora.includes(corpus)) {
      throw new ExplorerRequestError({
        status: 400,
        code: 'unknown-corpus',
        field: 'corpus',
        message: `corpus: '${corpus}' is not served here (${corpora.join(', ')})`,
      });
    }
    if (asking >= maxConcurrentAsks) {
      response.setHeader('retry-after', '1');
      throw new ExplorerRequestError({ status: 503, code: 'busy', message: `already answering ${asking} questions; try again shortly` });
    }
    asking++;
    const controller = new AbortController();
    const onClose = () => {
      if (!response.writableFinished) controller.abort();
    };
    response.on('close', onClose);
    try {
      let target: ExplorerCorpus;
      try {
        target = await open(corpus);
      } catch (error) {
        return sendError(response, stageFailure('index', error));
      }
      const started = performance.now();
      const policy = parsed.policy === 'adaptive' ? undefined : parsed.policy;
      let result: AskResult;
      let retrieval: Awaited<ReturnType<typeof target.mosaic.retrieve>>;
      try {
        retrieval = await target.mosaic.retrieve({ question: parsed.question, policy, abortSignal: controller.signal });
      } catch (error) {
        if (AbortedError.isInstance(error) && controller.signal.aborted) return;
        if (InvalidArgumentError.isInstance(error)) throw error;
        return sendError(response, stageFailure('retrieval', error));
      }
      try {
        const generateStarted = performance.now();
        const answer = await target.mosaic.stages.generator.generate({
          question: retrieval.question,
          windows: retrieval.windows,
          abortSignal: controller.signal,
        });
        const timings = { ...retrieval.timings, generate: performance.now() - generateStarted, total: performance.now() - started };
        result = { ...retrieval, timings, trace: { ...retrieval.trace, timings }, answer };
      } catch (error) {
        if (controller.signal.aborted) return;
        return sendError(response, stageFailure('generator', error));
      }
      const body = await exploreRetrieval({ result, graph: target.index.graph, chunks: target.index.chunks, corpus, policyRequest: parsed.policy });
      sendJson(response, 200, body);
    } finally {
      asking--;
      response.off('close', onClose);
    }
  }

  async function serveClient(response: ServerResponse, name: string): Promise<void> {
    try {
      const body = await readFile(join(assetsDir, name));
      send(response, 200, body, { 'content-type': name.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
    } catch {
      sendError(response, {
        name: 'MosaicExplorerRequestError',
        code: 'not-found',
        message: `${name} is not built (looked in ${assetsDir}); run pnpm --filter @mosaic/cli build`,
        status: 404,
      });
    }
  }

  const routes: Record<string, Partial<Record<'GET' | 'POST', (request: IncomingMessage, response: ServerResponse) => Promise<void> | void>>> = {
    '/': {
      GET: (_q, r) => send(r, 200, EXPLORER_HTML, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-cache' }),
    },
    '/explorer.css': { GET: (_q, r) => send(r, 200, EXPLORER_CSS, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' }) },
    [`/${CLIENT_SCRIPT}`]: { GET: (_q, r) => serveClient(r, CLIENT_SCRIPT) },
    [`/${CLIENT_SCRIPT}.map`]: { GET: (_q, r) => serveClient(r, `${CLIENT_SCRIPT}.map`) },
    '/api/policy-defaults': { GET: (_q, r) => sendJson(r, 200, policyDefaults) },
    '/api/corpora': { GET: (_q, r) => sendJson(r, 200, corporaBody) },
    '/api/ask': { POST: ask },
  };
  routes['/index.html'] = routes['/']!;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (checkHost && !LOOPBACK.has(hostnameOf(request.headers.host))) {
        throw new ExplorerRequestError({
          status: 403,
          code: 'forbidden-host',
          message: `Host '${request.headers.host ?? ''}' is not served; open the explorer at ${host}`,
        });
      }
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const route = routes[path];
      if (!route) throw new ExplorerRequestError({ status: 404, code: 'not-found', message: `no such page or endpoint: ${path}` });
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const handler = route[method as 'GET' | 'POST'];
      if (!handler) {
        const allowed = Object.keys(route).join(', ');
        response.setHeader('allow', allowed);
        throw new ExplorerRequestError({ status: 405, code: 'method-not-allowed', message: `${request.method} is not allowed on ${path} (use ${allowed})` });
      }
      await handler(request, response);
    } catch (error) {
      const body = errorBody(error);
      // A refused body may be still arriving: answer, then close the connection instead of reading on.
      const close: Record<string, string> = body.status === 413 || body.status === 415 ? { connection: 'close' } : {};
      sendError(response, body, close);
    }
  }

  const server = createServer((request, response) => void handle(request, response));
  server.requestTimeout = 120_000;
  server.headersTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}/`,
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
