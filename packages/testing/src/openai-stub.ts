import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hashEmbedding } from './hash-embedding.js';

/** What the stub answers to one request. `delayMs` may be combined with any reply. */
export type StubReply =
  /** A chat completion whose message content is this string. */
  | { content: string; finishReason?: string; delayMs?: number }
  /** A chat completion whose message content is `JSON.stringify(json)`. */
  | { json: unknown; finishReason?: string; delayMs?: number }
  /** An embeddings response with these vectors (one per input, in order). */
  | { embeddings: number[][]; delayMs?: number }
  /** An HTTP error; `body` defaults to an OpenAI-style `{ error: { message, type, code } }`. */
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  /** HTTP 200 with `content-type: application/json` and a body that is not valid JSON. */
  | { malformed: true; delayMs?: number }
  /** Never answer (until the client gives up or the stub is closed). */
  | { hang: true }
  /** Wait, then answer with the default reply. */
  | { delayMs: number };

/** A request the stub received, recorded in arrival order. */
export interface StubRequest {
  /** 0-based arrival index. */
  index: number;
  kind: 'chat' | 'embeddings' | 'other';
  method: string;
  /** Path without query string, e.g. '/v1/chat/completions'. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: any;
  rawBody: string;
  /** Chat: the requested model; embeddings: the requested model. */
  model?: string;
  /** Chat: the messages sent. */
  messages?: Array<{ role: string; content: unknown }>;
  /** Chat: `response_format` as sent (recorded, not enforced). */
  responseFormat?: unknown;
  /** Chat: temperature as sent. */
  temperature?: number;
  /** Embeddings: the inputs, normalised to an array of strings. */
  input?: string[];
}

/** Decides the reply to one request; `undefined` means "the default reply". */
export type StubResponder = (request: StubRequest) => StubReply | undefined | Promise<StubReply | undefined>;

export interface OpenAIStubOptions {
  /** Programmable responder; default: chat → `{ content: 'OK' }`, embeddings → hash embeddings. */
  respond?: StubResponder;
  /** Dimension of the default (hash) embeddings. Default 64. */
  embeddingDimension?: number;
  /** Port to listen on (127.0.0.1). Default 0 (an ephemeral port). */
  port?: number;
}

export interface OpenAIStub {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:43121/v1`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: StubRequest[];
  /** Requests currently being answered (including delayed and hanging ones). */
  readonly inFlight: number;
  /** The largest number of requests in flight at once since start. */
  readonly maxInFlight: number;
  /** Replace the responder (undefined restores the default). */
  setResponder(respond: StubResponder | undefined): void;
  /** Stop listening and drop every open connection (hanging requests included). */
  close(): Promise<void>;
}

const DEFAULT_CHAT_CONTENT = 'OK';

/**
 * Start a local OpenAI-compatible server on 127.0.0.1 implementing `POST /v1/chat/completions`
 * and `POST /v1/embeddings` in the OpenAI wire format, with a programmable reply per request.
 */
export async function startOpenAIStub(options: OpenAIStubOptions = {}): Promise<OpenAIStub> {
  const dimension = options.embeddingDimension ?? 64;
  let responder: StubResponder | undefined = options.respond;
  const requests: StubRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  let closed = false;

  const server = createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight -= 1;
    };
    res.on('close', finish);
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        sendJson(res, 500, errorBody(500, `stub responder failed: ${String(error)}`));
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    let body: any;
    try {
      body = rawBody.length > 0 ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const kind: StubRequest['kind'] =
      req.method === 'POST' && path === '/v1/chat/completions' ? 'chat' : req.method === 'POST' && path === '/v1/embeddings' ? 'embeddings' : 'other';
    const request: StubRequest = {
      index: requests.length,
      kind,
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body,
      rawBody,
    };
    if (kind === 'chat' && body && typeof body === 'object') {
      request.model = body.model;
      request.messages = body.messages;
      request.responseFormat = body.response_format;
      request.temperature = body.temperature;
    }
    if (kind === 'embeddings' && body && typeof body === 'object') {
      request.model = body.model;
      request.input = normaliseInput(body.input);
    }
    requests.push(request);

    if (kind === 'other') {
      sendJson(res, 404, errorBody(404, `stub: no route for ${request.method} ${path}`));
      return;
    }
    if (body === undefined || typeof body !== 'object') {
      sendJson(res, 400, errorBody(400, 'stub: request body is not a JSON object'));
      return;
    }

    const reply = (await responder?.(request)) ?? undefined;
    if (reply && 'hang' in reply && reply.hang) return; // never answer
    if (reply && 'delayMs' in reply && typeof reply.delayMs === 'number' && reply.delayMs > 0) {
      await sleep(reply.delayMs);
    }
    if (res.destroyed || closed) return;
    writeReply(res, request, reply);
  }

  function writeReply(res: ServerResponse, request: StubRequest, reply: StubReply | undefined): void {
    if (reply && 'status' in reply) {
      const body = reply.body ?? errorBody(reply.status, `stub error ${reply.status}`);
      sendJson(res, reply.status, body, reply.headers);
      return;
    }
    if (reply && 'malformed' in reply && reply.malformed) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": "stub-malformed", "choices": [ {"message": ');
      return;
    }
    if (request.kind === 'embeddings') {
      const inputs = request.input ?? [];
      const vectors = reply && 'embeddings' in reply ? reply.embeddings : inputs.map((text) => hashEmbedding(text, dimension));
      sendJson(res, 200, embeddingsBody(request, vectors));
      return;
    }
    let content = DEFAULT_CHAT_CONTENT;
    let finishReason = 'stop';
    if (reply && 'content' in reply) {
      content = reply.content;
      finishReason = reply.finishReason ?? finishReason;
    } else if (reply && 'json' in reply) {
      content = JSON.stringify(reply.json);
      finishReason = reply.finishReason ?? finishReason;
    }
    sendJson(res, 200, chatBody(request, content, finishReason));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setResponder(respond) {
      responder = respond;
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function normaliseInput(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input)) return input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [];
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(status: number, message: string) {
  return {
    error: {
      message,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: status === 404 ? 'not_found' : null,
    },
  };
}

function chatBody(request: StubRequest, content: string, finishReason: string) {
  return {
    id: `chatcmpl-stub-${request.index}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: request.model ?? 'stub',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: {
      prompt_tokens: countTokens(JSON.stringify(request.messages ?? [])),
      completion_tokens: countTokens(content),
      total_tokens: countTokens(JSON.stringify(request.messages ?? [])) + countTokens(content),
    },
  };
}

function embeddingsBody(request: StubRequest, vectors: number[][]) {
  const base64 = request.body?.encoding_format === 'base64';
  return {
    object: 'list',
    model: request.model ?? 'stub',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    usage: {
      prompt_tokens: (request.input ?? []).reduce((sum, text) => sum + countTokens(text), 0),
      total_tokens: (request.input ?? []).reduce((sum, text) => sum + countTokens(text), 0),
    },
  };
}

function countTokens(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
