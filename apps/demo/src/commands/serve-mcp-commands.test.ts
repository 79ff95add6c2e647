// `mosaic serve` and `mosaic mcp` as users run them: the built CLI spawned on a fixture index, spoken to
// over real HTTP (node's fetch), by the MCP SDK's own Client (stdio and Streamable HTTP), and once by the
// MCP Inspector's CLI.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolveEmbeddedModelDir } from '@mosaic/encoders';
import { writeFixtureCorpus } from '@mosaic/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const QUESTION = 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?';

let dir: string;
let indexDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mosaic-serve-'));
  const files = await writeFixtureCorpus(join(dir, 'data'));
  indexDir = join(dir, 'indexes');
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = () => true;
  process.stderr.write = () => true;
  try {
    expect(await main(['index', '--corpus', files.medicalPath, '--out', indexDir])).toBe(0);
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Spawns the CLI (in `env`, default this process's) and resolves once its stderr matches `ready` (rejects if it exits first). */
async function start(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = process.env): Promise<Running & { match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const found = err.match(ready);
      if (found) resolve(found);
    });
    exited.then((code) => reject(new Error(`exited with ${code} before ready:\n${err}`)));
  });
  return { child, stderr: () => err, exited, match };
}

/** The processes `pid` started (Linux: /proc/<pid>/task/<tid>/children), each with its command line. */
function childrenOf(pid: number): { pid: number; args: string[] }[] {
  const pids = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
  return pids.map((child) => ({ pid: child, args: readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean) }));
}
const HAS_PROC = existsSync('/proc/self/task');

/** Whether process `pid` still runs (Linux: not a zombie waiting for a parent that reaps it). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** POST /v1/ask requests the server has read: those in flight (less this /metrics request) and those answered 200. */
async function acceptedAsks(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: RegExp) => Number(text.match(pattern)?.[1] ?? Number.NaN);
  const inFlight = value(/^mosaic_http_requests_in_flight (\d+)$/m) - 1;
  const answered = value(/^mosaic_http_requests_total\{method="POST",route="ask",status="200"\} (\d+)$/m);
  return inFlight + (Number.isNaN(answered) ? 0 : answered);
}

describe('mosaic serve', () => {
  it('serves the index over HTTP from worker processes; SIGTERM answers what was accepted and exits 0', async () => {
    const server = await start(
      ['serve', '--index', indexDir, '--port', '0', '--workers', '2'],
      /mosaic serve: Medical on (http:\/\/127\.0\.0\.1:\d+) \(2 workers\)/,
    );
    const url = server.match[1]!;
    try {
      if (HAS_PROC) {
        // The command re-ran itself with a larger young generation (heap-limit.ts), and its worker
        // processes start with it and with allocation-site pretenuring off.
        const [command] = childrenOf(server.child.pid!);
        expect(command!.args).toContain('--max-semi-space-size=64');
        const workers = childrenOf(command!.pid);
        expect(workers).toHaveLength(2);
        for (const worker of workers) expect(worker.args).toEqual(expect.arrayContaining(['--no-allocation-site-pretenuring', '--max-semi-space-size=64']));
      }
      const response = await post(`${url}/v1/retrieve`, { question: QUESTION, windows: 3 });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { windows: { text: string }[] };
      expect(body.windows.some((w) => /veltrane/i.test(w.text))).toBe(true);
      const bad = await post(`${url}/v1/ask`, { question: QUESTION, windows: 'three' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { field: string } }).error.field).toBe('windows');
      // Requests the server has accepted when SIGTERM arrives are answered. "Accepted" is read from the
      // server's own metrics (in flight, or answered), not from a fixed delay: on a busy machine the
      // client may not even have connected 50 ms after sending.
      const inFlight = Array.from({ length: 8 }, () => post(`${url}/v1/ask`, { question: QUESTION }));
      await expect.poll(() => acceptedAsks(url), { timeout: 60_000, interval: 10 }).toBe(8);
      server.child.kill('SIGTERM');
      const statuses = await Promise.all(inFlight.map((request) => request.then((r) => r.status)));
      expect(statuses).toEqual(new Array(8).fill(200));
      expect(await server.exited).toBe(0);
      expect(server.stderr()).toMatch(/SIGTERM: draining/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it.runIf(HAS_PROC)('leaves no server running when the process started is killed outright', async () => {
    const server = await start(['serve', '--index', indexDir, '--port', '0', '--workers', '1'], /mosaic serve: Medical on http:\/\/127\.0\.0\.1:\d+/);
    const [command] = childrenOf(server.child.pid!);
    try {
      expect(command!.args).toContain('--max-semi-space-size=64');
      expect(running(command!.pid)).toBe(true);
      // SIGKILL is not passed on: the re-run command sees its parent's IPC channel close and ends.
      server.child.kill('SIGKILL');
      await expect.poll(() => running(command!.pid), { timeout: 30_000, interval: 50 }).toBe(false);
    } finally {
      if (running(command!.pid)) process.kill(command!.pid, 'SIGKILL');
    }
  });

  it('takes the young generation set in NODE_OPTIONS, and then runs in the process started', async () => {
    const server = await start(['serve', '--index', indexDir, '--port', '0', '--workers', '1'], /mosaic serve: Medical on/, {
      ...process.env,
      NODE_OPTIONS: '--max-semi-space-size=32',
    });
    try {
      if (HAS_PROC) expect(childrenOf(server.child.pid!)).toEqual([]);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('refuses to bind beyond loopback without a token', () => {
    const result = spawnSync(process.execPath, [cli, 'serve', '--index', indexDir, '--host', '0.0.0.0'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, MOSAIC_API_TOKEN: '' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--host 0\.0\.0\.0 is not loopback: give --token/);
  });
});

interface SearchOutput {
  windows: { text: string; source: { uri: string } }[];
}

async function checkClient(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'search']);
  const found = await client.callTool({ name: 'search', arguments: { query: QUESTION, windows: 3 } });
  const windows = (found.structuredContent as unknown as SearchOutput).windows;
  expect(windows.some((w) => /veltrane/i.test(w.text))).toBe(true);
  const answered = await client.callTool({ name: 'ask', arguments: { question: QUESTION } });
  expect((answered.structuredContent as { citations: unknown[] }).citations.length).toBeGreaterThan(0);
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toContain(windows[0]!.source.uri);
}

describe('mosaic mcp', () => {
  it('speaks MCP over stdio to the SDK Client', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--index', indexDir], cwd: root, stderr: 'pipe' });
    const client = new Client({ name: 'mosaic-cli-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      await checkClient(client);
    } finally {
      await client.close();
    }
  });

  it('speaks MCP over Streamable HTTP to the SDK Client', async () => {
    const server = await start(['mcp', '--index', indexDir, '--http', '--port', '0'], /on (http:\/\/127\.0\.0\.1:\d+\/mcp) \(Streamable HTTP\)/);
    const client = new Client({ name: 'mosaic-cli-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.match[1]!)));
      await checkClient(client);
    } finally {
      await client.close();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('answers the MCP Inspector CLI (tools/list, tools/call)', () => {
    const launcher = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'clients/launcher/build/index.js');
    const inspect = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [
          launcher,
          '--cli',
          '--cwd',
          root,
          '--connect-timeout',
          '120000',
          '-e',
          `MOSAIC_MODEL_DIR=${resolveEmbeddedModelDir().modelDir}`,
          process.execPath,
          cli,
          'mcp',
          '--index',
          indexDir,
          ...args,
        ],
        {
          encoding: 'utf8',
          // The Inspector gets a scratch HOME and passes the server only its own environment (-e): the
          // server still finds the model that set-up built.
          env: { ...process.env, HOME: dir },
          timeout: 150_000,
        },
      );
    const listed = inspect('--method', 'tools/list');
    expect(listed.status, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual(['ask', 'search']);
    const called = inspect('--method', 'tools/call', '--tool-name', 'search', '--tool-arg', `query=${QUESTION}`, '--tool-arg', 'windows=2');
    expect(called.status, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout) as { structuredContent: SearchOutput };
    expect(result.structuredContent.windows).toHaveLength(2);
  });
});
