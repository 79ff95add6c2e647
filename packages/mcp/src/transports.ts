import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isLoopback } from '@mosaic/server';
import { InvalidArgumentError } from '@mosaic/spec';
import { createMosaicMcpServer, type MosaicMcpServerOptions } from './mcp-server.js';

/** Serves MCP over stdin/stdout (what a desktop or coding agent spawns). Resolves once connected; `closed` once the client goes away. */
export async function serveMcpStdio(options: MosaicMcpServerOptions & { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream }) {
  const server = createMosaicMcpServer(options);
  const transport = new StdioServerTransport(options.stdin as never, options.stdout as never);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  (options.stdin ?? process.stdin).once('end', () => void server.close());
  return { server, closed, close: () => server.close() };
}

/**
 * A request handler for MCP's Streamable HTTP transport in stateless mode: every POST gets a fresh
 * server and transport over the same engine (no session to keep), answered as JSON or an SSE stream as
 * the client accepts. GET and DELETE (session streams) answer 405.
 */
export function createMcpHttpHandler(options: MosaicMcpServerOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405, { 'content-type': 'application/json', allow: 'POST' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, POST only' }, id: null }));
      return;
    }
    const server = createMosaicMcpServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
}

export interface McpHttpServerOptions extends MosaicMcpServerOptions {
  host?: string;
  port?: number;
  /** The endpoint path (default /mcp). */
  path?: string;
  /** Bearer token; required to listen beyond loopback. */
  token?: string;
}

/** An HTTP server with the Streamable HTTP endpoint at `path` (default /mcp), bound to 127.0.0.1 unless told otherwise. */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.token)
    throw new InvalidArgumentError({ argument: 'token', message: `listening on ${host} (not loopback) needs a bearer token` });
  const path = options.path ?? '/mcp';
  const handle = createMcpHttpHandler(options);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      response.writeHead(404, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ error: { code: 'not_found', field: 'path', message: `the MCP endpoint is ${path}` } }));
    }
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      return void response.end(JSON.stringify({ error: { code: 'unauthorized', field: 'authorization', message: 'send Authorization: Bearer <token>' } }));
    }
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: (error as Error)?.message ?? String(error) }, id: null }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}${path}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
