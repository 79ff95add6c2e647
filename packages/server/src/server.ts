import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import type { Mosaic } from '@mosaic/pipeline';
import { AbortedError, InvalidArgumentError, type CorpusIndex, type SourceDocument } from '@mosaic/spec';
import type { Registry } from 'prom-client';
import { createLocalEngine, type MosaicEngine, type ProgressEvent } from './engine.js';
import { HttpError } from './http-error.js';
import { createServerMetrics, type ServerMetrics } from './metrics.js';
import { openApiDocument } from './openapi.js';
import { readJsonBody, validate } from './request-body.js';
import { AskRequestSchema, PolicyRequestSchema, RetrieveRequestSchema } from './schemas.js';

/** One line of the server's log (JSON). `event: 'aborted'` is a pipeline stopped because its client went away, it timed out, or the server shut down. */
export interface ServerLogEntry {
  time: string;
  event: 'listening' | 'request' | 'aborted' | 'error' | 'draining' | 'closed';
  method?: string;
  route?: string;
  status?: number;
  ms?: number;
  id?: string;
  reason?: string;
  message?: string;
  url?: string;
  inFlight?: number;
}

export interface MosaicServerOptions {
  /** What answers: `createLocalEngine` (this thread) or `createWorkerPool` (worker threads). Or pass `mosaic` and `index`. */
  engine?: MosaicEngine;
  /** With `index`: served by a local engine over this pipeline. */
  mosaic?: Mosaic;
  index?: CorpusIndex;
  documents?: readonly SourceDocument[];
  /** Bearer token every route but /healthz and /readyz requires. Required to listen on any address but loopback. */
  token?: string;
  /** Largest request body, in bytes (default 64 KiB). */
  bodyLimitBytes?: number;
  /** Per-request timeout (default 30 s): the pipeline is aborted and the client gets 504. */
  timeoutMs?: number;
  /** Until it settles, /readyz and the /v1 routes answer 503 (e.g. a worker pool's `ready`). */
  ready?: Promise<unknown>;
  /** Log lines (default: one JSON line per entry on stderr; `false`: none). */
  log?: ((entry: ServerLogEntry) => void) | false;
  /** Metrics registry (default: a new one with Node's default metrics). */
  registry?: Registry;
  /** Shown by /healthz and in the OpenAPI document. */
  info?: { corpus?: string; version?: string };
}

export interface ListenOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. Any address but loopback needs `token`. */
  host?: string;
}

export interface MosaicServer {
  /** The Node HTTP server (not listening until `listen`). */
  readonly server: Server;
  /** The request handler, to mount in your own server. */
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
  readonly metrics: ServerMetrics;
  /** Requests being answered. */
  readonly inFlight: number;
  listen(options?: ListenOptions): Promise<{ url: string; host: string; port: number }>;
  /**
   * Graceful shutdown: new connections are refused at once; every request accepted (its headers read)
   * is answered, with `Connection: close`, including one that arrives on an open keep-alive connection;
   * idle connections end at the keep-alive timeout (5 s), never cut while a client may be sending on
   * them. Resolves when every connection has ended. After `graceMs` (default 30 s) the rest are cut and
   * their pipelines aborted.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

/** Whether `host` only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

type Route = 'retrieve' | 'ask' | 'policy' | 'documents' | 'document' | 'healthz' | 'readyz' | 'metrics' | 'openapi';

const ROUTES: Array<{ path: RegExp; route: Route; method: 'GET' | 'POST' }> = [
  { path: /^\/v1\/retrieve$/, route: 'retrieve', method: 'POST' },
  { path: /^\/v1\/ask$/, route: 'ask', method: 'POST' },
  { path: /^\/v1\/policy$/, route: 'policy', method: 'POST' },
  { path: /^\/v1\/documents$/, route: 'documents', method: 'GET' },
  { path: /^\/v1\/documents\/(.+)$/, route: 'document', method: 'GET' },
  { path: /^\/healthz$/, route: 'healthz', method: 'GET' },
  { path: /^\/readyz$/, route: 'readyz', method: 'GET' },
  { path: /^\/metrics$/, route: 'metrics', method: 'GET' },
  { path: /^\/openapi\.json$/, route: 'openapi', method: 'GET' },
];

function matchRoute(method: string, pathname: string): { route: Route; param?: string } {
  const matches = ROUTES.filter((entry) => entry.path.test(pathname));
  if (matches.length === 0) throw new HttpError({ status: 404, code: 'not_found', field: 'path', message: `no route ${pathname}; see /openapi.json` });
  const match = matches.find((entry) => entry.method === method || (method === 'HEAD' && entry.method === 'GET'));
  if (!match) {
    throw new HttpError({
      status: 405,
      code: 'method_not_allowed',
      field: 'method',
      message: `${pathname} takes ${matches.map((m) => m.method).join(', ')}, not ${method}`,
    });
  }
  const param = match.path.exec(pathname)?.[1];
  return { route: match.route, ...(param !== undefined ? { param } : {}) };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An engine error as an HTTP error: bad arguments 400 (naming the argument), a timeout 504, the rest 500. */
function engineError(error: unknown, timedOut: boolean): HttpError {
  if (HttpError.isInstance(error)) return error;
  if (timedOut) return new HttpError({ status: 504, code: 'timeout', message: 'the request took longer than the server’s timeout and was aborted' });
  if (InvalidArgumentError.isInstance(error) || (error as Error)?.name === 'MosaicInvalidArgumentError') {
    const argument = (error as { argument?: string }).argument;
    return new HttpError({ status: 400, code: 'invalid_request', message: (error as Error).message, ...(argument ? { field: argument } : {}) });
  }
  if ((error as Error)?.name === 'MosaicWorkerExitedError') return new HttpError({ status: 503, code: 'unavailable', message: (error as Error).message });
  return new HttpError({ status: 500, code: 'internal', message: (error as Error)?.message ?? String(error), cause: error });
}

function defaultLog(entry: ServerLogEntry): void {
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

/** The engine of the options: the one given, or a local engine over `mosaic` and `index`. */
function engineOf(options: MosaicServerOptions): MosaicEngine {
  if (options.engine) return options.engine;
  if (!options.mosaic || !options.index) throw new InvalidArgumentError({ argument: 'engine', message: 'pass an engine, or a mosaic and its index' });
  return createLocalEngine({ mosaic: options.mosaic, index: options.index, documents: options.documents });
}

function checkOptions(options: MosaicServerOptions): void {
  const positive = (name: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isFinite(value) || value <= 0))
      throw new InvalidArgumentError({ argument: name, message: `must be a positive number, got ${value}` });
  };
  positive('bodyLimitBytes', options.bodyLimitBytes);
  positive('timeoutMs', options.timeoutMs);
  if (options.token !== undefined && options.token.length < 16)
    throw new InvalidArgumentError({ argument: 'token', message: 'must be at least 16 characters' });
}

/**
 * The Mosaic HTTP API over a loaded index: `POST /v1/retrieve`, `/v1/ask` (JSON, or server-sent events
 * with `Accept: text/event-stream`), `/v1/policy`, `GET /v1/documents[/:id]`, `/healthz`, `/readyz`,
 * `/metrics` and `/openapi.json`. Every refused request gets a 4xx JSON error naming the field.
 */
export function createMosaicServer(options: MosaicServerOptions): MosaicServer {
  checkOptions(options);
  const engine = engineOf(options);
  const log = options.log === false ? () => undefined : (options.log ?? defaultLog);
  const metrics = createServerMetrics({ registry: options.registry });
  const context: RequestContext = {
    engine,
    metrics,
    token: options.token,
    bodyLimit: options.bodyLimitBytes ?? 64 * 1024,
    timeoutMs: options.timeoutMs ?? 30_000,
    log: (entry) => log({ time: new Date().toISOString(), ...entry }),
    state: { ready: options.ready === undefined, draining: false, inFlight: 0, idle: [], active: new Set(), aborted: new WeakSet() },
    openapi: openApiDocument({ version: options.info?.version }),
    info: options.info ?? {},
  };
  options.ready?.then(
    () => {
      context.state.ready = true;
    },
    (error: unknown) => context.log({ event: 'error', message: `not ready: ${(error as Error)?.message ?? String(error)}` }),
  );
  const handler = (request: IncomingMessage, response: ServerResponse) => void handle(context, request, response);
  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 0 }, handler);
  let closing: Promise<void> | undefined;
  return {
    server,
    handler,
    metrics,
    get inFlight() {
      return context.state.inFlight;
    },
    async listen(listenOptions = {}) {
      const host = listenOptions.host ?? '127.0.0.1';
      if (!isLoopback(host) && !options.token) {
        throw new InvalidArgumentError({
          argument: 'token',
          message: `listening on ${host} (not loopback) needs a bearer token; refusing to start without one`,
        });
      }
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listenOptions.port ?? 0, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      context.log({ event: 'listening', url });
      return { url, host: address.address, port: address.port };
    },
    close(closeOptions = {}) {
      closing ??= drain(context, server, closeOptions.graceMs ?? 30_000);
      return closing;
    },
  };
}

interface RequestContext {
  engine: MosaicEngine;
  metrics: ServerMetrics;
  token?: string;
  bodyLimit: number;
  timeoutMs: number;
  log(entry: Omit<ServerLogEntry, 'time'>): void;
  state: { ready: boolean; draining: boolean; inFlight: number; idle: Array<() => void>; active: Set<ServerResponse>; aborted: WeakSet<ServerResponse> };
  openapi: Record<string, unknown>;
  info: { corpus?: string; version?: string };
}

/**
 * Stops accepting connections and answers every request it has accepted (read the headers of). The
 * listening socket is closed once the event loop has polled (and so accepted the connections
 * already waiting in the backlog), so new connections are refused. Open keep-alive connections are
 * not cut while idle: a client may be sending its next request on one at that moment, and cutting the
 * connection would reset that request (`http.Server#close` does exactly that, through
 * `closeIdleConnections`, so the listener is closed with `net.Server#close`, which leaves connections
 * be). A request arriving on an open connection is answered like any other, with `Connection: close`,
 * as is every response from now on; a connection left idle ends at the keep-alive timeout, which
 * clients read from the `Keep-Alive` header and stop reusing the connection before. When every
 * connection has ended, the server is closed; what is left after `graceMs` is cut (its pipelines
 * aborted).
 */
async function drain(context: RequestContext, server: Server, graceMs: number): Promise<void> {
  const { state } = context;
  state.draining = true;
  for (const response of state.active) if (!response.headersSent) response.setHeader('connection', 'close');
  context.log({ event: 'draining', inFlight: state.inFlight });
  // A connection the kernel completed before the signal waits in the listen backlog until the event loop
  // polls and accepts it, and closing the listener first would reset it. The second immediate runs after
  // at least one poll phase, whichever phase this runs in.
  for (let turn = 0; turn < 2; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  const closed = new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    netServerClose.call(server, () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'grace'>((resolve) => {
    timer = setTimeout(() => resolve('grace'), graceMs);
  });
  const ended = await Promise.race([closed, grace]);
  clearTimeout(timer);
  if (ended === 'grace') {
    server.closeAllConnections();
    await closed;
  }
  context.log({ event: 'closed' });
}

/** `net.Server#close`: stops listening and leaves the open connections be (see `drain`). */
const netServerClose = NetServer.prototype.close;

async function handle(context: RequestContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const started = performance.now();
  const { state, metrics } = context;
  const method = request.method ?? 'GET';
  let route = 'unmatched';
  state.inFlight += 1;
  state.active.add(response);
  metrics.inFlight.inc();
  if (state.draining) response.setHeader('connection', 'close');
  response.once('close', () => {
    state.inFlight -= 1;
    state.active.delete(response);
    metrics.inFlight.dec();
    const seconds = (performance.now() - started) / 1000;
    metrics.requests.inc({ method, route, status: String(response.statusCode) });
    metrics.duration.observe({ route }, seconds);
    context.log({ event: 'request', method, route, status: response.statusCode, ms: Math.round(seconds * 10_000) / 10 });
    if (state.inFlight === 0) for (const resolve of state.idle.splice(0)) resolve();
  });
  try {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const matched = matchRoute(method, url.pathname);
    route = matched.route;
    if (context.token && route !== 'healthz' && route !== 'readyz' && !tokenMatches(request.headers.authorization, context.token)) {
      throw new HttpError({ status: 401, code: 'unauthorized', field: 'authorization', message: 'send Authorization: Bearer <token>' });
    }
    await answer(context, matched, request, response);
  } catch (error) {
    if (response.destroyed && !response.writableFinished) {
      // The client went away before its pipeline started (e.g. while its body was being read).
      if (!state.aborted.has(response)) context.log({ event: 'aborted', method, route, reason: 'client disconnected' });
      return;
    }
    const failure = engineError(error, false);
    if (failure.status >= 500 && failure.status !== 503) context.log({ event: 'error', method, route, message: failure.message });
    // A refused body is not read to its end: close the connection after the answer.
    const headers: Record<string, string> = failure.status === 413 ? { connection: 'close' } : {};
    if (failure.status === 401) headers['www-authenticate'] = 'Bearer';
    sendJson(response, failure.status, failure.toJSON(), headers);
  }
}

async function answer(context: RequestContext, matched: { route: Route; param?: string }, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { engine, state } = context;
  switch (matched.route) {
    case 'healthz':
      return sendJson(response, 200, { status: 'ok', ...(context.info.corpus ? { corpus: context.info.corpus } : {}) });
    case 'readyz':
      return state.ready && !state.draining
        ? sendJson(response, 200, { status: 'ready' })
        : sendJson(response, 503, { status: state.draining ? 'draining' : 'starting' });
    case 'metrics': {
      const text = await context.metrics.registry.metrics();
      response.writeHead(200, { 'content-type': context.metrics.registry.contentType });
      return void response.end(text);
    }
    case 'openapi':
      return sendJson(response, 200, context.openapi);
  }
  // While draining, a request that arrives on an open connection is accepted and answered (with
  // `Connection: close`): only new connections are refused.
  if (!state.ready) throw new HttpError({ status: 503, code: 'unavailable', message: 'the index is still loading; retry shortly' });
  if (matched.route === 'documents') return sendJson(response, 200, { documents: await engine.documents() });
  if (matched.route === 'document') {
    const id = decodeURIComponent(matched.param ?? '');
    const document = await engine.document(id);
    if (!document) throw new HttpError({ status: 404, code: 'not_found', field: 'id', message: `no document '${id}' in the index` });
    return sendJson(response, 200, document);
  }
  const schema = matched.route === 'policy' ? PolicyRequestSchema : matched.route === 'ask' ? AskRequestSchema : RetrieveRequestSchema;
  const body = validate(schema, await readJsonBody(request, context.bodyLimit));
  const stream = matched.route !== 'policy' && /\btext\/event-stream\b/i.test(request.headers.accept ?? '');
  await runPipeline(context, matched.route as 'retrieve' | 'ask' | 'policy', body, response, stream);
}

/** Runs one pipeline call with its abort signal: the client going away, the timeout, or the grace period of a shutdown. */
async function runPipeline(
  context: RequestContext,
  route: 'retrieve' | 'ask' | 'policy',
  body: { question: string; id?: string },
  response: ServerResponse,
  stream: boolean,
): Promise<void> {
  const controller = new AbortController();
  let reason: 'client disconnected' | 'timeout' | undefined;
  const timer = setTimeout(() => {
    reason = 'timeout';
    controller.abort(new AbortedError({ stage: 'request' }));
  }, context.timeoutMs);
  const onClose = () => {
    if (response.writableFinished) return;
    reason ??= 'client disconnected';
    controller.abort(new AbortedError({ stage: 'request' }));
  };
  response.once('close', onClose);
  const send = stream ? startEventStream(response) : undefined;
  try {
    const call = { abortSignal: controller.signal, ...(send ? { onEvent: (event: ProgressEvent) => send(event.event, event.data) } : {}) };
    const result =
      route === 'policy'
        ? await context.engine.policy(body, call)
        : route === 'ask'
          ? await context.engine.ask(body as never, call)
          : await context.engine.retrieve(body as never, call);
    const timings = (result as { timings?: Record<string, number> }).timings ?? {};
    for (const [stage, ms] of Object.entries(timings)) if (stage !== 'total' && stage !== 'retrieval') context.metrics.stages.observe({ stage }, ms / 1000);
    if (send) {
      send('result', result);
      send('done', {});
      response.end();
    } else sendJson(response, 200, result);
  } catch (error) {
    if (reason) {
      context.state.aborted.add(response);
      context.metrics.aborted.inc({ route, reason });
      context.log({ event: 'aborted', route, reason, ...(body.id ? { id: body.id } : {}) });
    }
    if (reason === 'client disconnected') return;
    const failure = engineError(error, reason === 'timeout');
    if (!send) throw failure;
    send('error', failure.toJSON());
    response.end();
  } finally {
    clearTimeout(timer);
    response.off('close', onClose);
  }
}

/** Writes the event-stream headers; returns a function that sends one event. */
function startEventStream(response: ServerResponse): (event: string, data: unknown) => void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  response.flushHeaders();
  return (event, data) => {
    if (!response.writableEnded && !response.destroyed) response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
}
