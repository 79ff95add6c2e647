// The MCP server through the official SDK's own Client, over Streamable HTTP (a listening server on
// port 0) and over stdio (a spawned process), on a small index built through the real index composition.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMosaic } from '@mosaic/pipeline';
import { createLocalEngine } from '@mosaic/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallIndex, type SmallIndex } from '@mosaic/server/testing';
import { startMcpHttpServer } from './transports.js';

const QUESTION = 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?';

let small: SmallIndex;

beforeAll(async () => {
  small = await buildSmallIndex();
}, 180_000);

afterAll(async () => {
  await small?.remove();
});

interface SearchOutput {
  windows: { rank: number; text: string; source: { documentId: string; uri: string; start: number; end: number } }[];
}
interface AskOutput {
  answer: string;
  citations: { window: number; windowId: string; source?: { uri: string } }[];
}

/** The checks both transports must pass, through the SDK's Client. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'search']);
  const search = tools.find((tool) => tool.name === 'search')!;
  expect(search.inputSchema.required).toEqual(['query']);
  expect((search.inputSchema.properties as Record<string, { maximum?: number }>).windows!.maximum).toBe(100);

  const found = await client.callTool({ name: 'search', arguments: { query: QUESTION, windows: 4 } });
  expect(found.isError).toBeFalsy();
  const windows = (found.structuredContent as unknown as SearchOutput).windows;
  expect(windows.length).toBeGreaterThan(0);
  expect(windows.length).toBeLessThanOrEqual(4);
  expect(windows.some((window) => /veltrane/i.test(window.text))).toBe(true);
  expect(windows[0]!.source.uri).toMatch(/^mosaic:\/\/documents\//);
  expect((found.content as { type: string; text: string }[])[0]!.text).toMatch(/^\[1\] /);

  const answered = await client.callTool({ name: 'ask', arguments: { question: QUESTION } });
  const answer = answered.structuredContent as unknown as AskOutput;
  expect(answer.answer.length).toBeGreaterThan(0);
  expect(answer.citations.length).toBeGreaterThan(0);
  expect(answer.citations[0]!.source?.uri).toMatch(/^mosaic:\/\/documents\//);

  const invalid = await client.callTool({ name: 'search', arguments: { query: '', windows: 0 } });
  expect(invalid.isError).toBe(true);

  const { resources } = await client.listResources();
  expect(resources.length).toBeGreaterThan(0);
  const read = await client.readResource({ uri: resources[0]!.uri });
  expect((read.contents[0] as { text: string }).text).toMatch(/Morrow syndrome/);
}

describe('MCP server', () => {
  it('serves search, ask and the documents over Streamable HTTP', async () => {
    const engine = createLocalEngine({ mosaic: createMosaic({ index: small.index }), index: small.index });
    const served = await startMcpHttpServer({ engine, corpus: 'Medical' });
    const client = new Client({ name: 'mosaic-test', version: '1.0.0' });
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      await exercise(client);
    } finally {
      await client.close();
      await served.close();
    }
  });

  it('serves search, ask and the documents over stdio', async () => {
    const script = fileURLToPath(new URL('./__fixtures__/stdio-server.mjs', import.meta.url));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [script, small.indexDir, small.encoder],
      cwd: process.cwd(),
      stderr: 'inherit',
    });
    const client = new Client({ name: 'mosaic-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('refuses to listen beyond loopback without a token', async () => {
    const engine = createLocalEngine({ mosaic: createMosaic({ index: small.index }), index: small.index });
    await expect(startMcpHttpServer({ engine, host: '0.0.0.0' })).rejects.toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'token' });
  });
});
