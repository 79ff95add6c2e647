#!/usr/bin/env node
// Load bench of `mosaic serve` (not a test: it prints figures). Starts the built CLI's server on an
// index (its workers warm up before /readyz says ready), then: 1 client for --seconds, 16 clients for
// --seconds, 200 malformed requests (each must be a 4xx JSON error naming the field), 16 clients again,
// a soak until --total requests, a client killed mid-request (must show as aborted in the server's log),
// and SIGTERM under load (nothing accepted may be dropped; exit code 0). Prints requests/s,
// p50/p95/p99, errors, and the RSS of the server and its workers at each step, then PASS or MISS for
// each of the targets.
//
//   node apps/demo/scripts/serve-load-bench.mjs --index /tmp/s2-32/idx/medical \
//     --questions /work/shared/datasets/graphrag-bench/medical_questions.dev.json --workers 2 --seconds 60 --total 10000
//
// The warm-up sends every question once (--warmup N: N requests instead): the analyzer's cache (bounded,
// 1,000 entries) and the lazily built tables fill there, so the RSS growth is measured from a warm server.
// Each timed phase first runs --phase-warmup seconds (default 10) of the same load, not counted (printed
// as such): the 1-client and 16-client phases are measured alike, each in its steady state. The
// questions go round in one sequence across phases (a phase does not start again at the first).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, createWriteStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    index: { type: 'string' },
    questions: { type: 'string' },
    workers: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '16' },
    total: { type: 'string', default: '10000' },
    warmup: { type: 'string' },
    'phase-warmup': { type: 'string', default: '10' },
    route: { type: 'string', default: 'retrieve' },
    cli: { type: 'string', default: new URL('../dist/cli.js', import.meta.url).pathname },
    log: { type: 'string', default: join(tmpdir(), `mosaic-serve-bench-${process.pid}.log`) },
  },
});
if (!values.index || !values.questions) {
  console.error('usage: serve-load-bench.mjs --index DIR --questions FILE [--workers N] [--seconds S] [--clients N] [--total N] [--route retrieve|ask]');
  process.exit(2);
}
const seconds = Number(values.seconds);
const phaseWarmup = Number(values['phase-warmup']);
const clients = Number(values.clients);
const questions = JSON.parse(readFileSync(values.questions, 'utf8')).map((q) => q.question);

// --- the server ---------------------------------------------------------------------------------
const log = createWriteStream(values.log);
let logText = '';
const server = spawn(process.execPath, [values.cli, 'serve', '--index', values.index, '--port', '0', '--workers', values.workers], {
  stdio: ['ignore', 'inherit', 'pipe'],
});
server.stderr.on('data', (chunk) => {
  logText += chunk.toString();
  log.write(chunk);
});
const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
const base = await new Promise((resolve, reject) => {
  const timer = setInterval(() => {
    const match = /mosaic serve: .* on (http:\/\/[^ ]+) /.exec(logText);
    if (match) {
      clearInterval(timer);
      resolve(match[1]);
    }
  }, 100);
  exited.then(({ code }) => reject(new Error(`server exited (${code}) before it was ready:\n${logText}`)));
});

/** RSS (MB) of the server and every process under it (its workers), from /proc. */
function rssMb() {
  const pids = [server.pid];
  for (let i = 0; i < pids.length; i += 1) {
    for (const task of readdirSync(`/proc/${pids[i]}/task`)) {
      const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    }
  }
  let kb = 0;
  for (const pid of pids) {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    kb += match ? Number(match[1]) : 0;
  }
  return { mb: Math.round(kb / 102.4) / 10, processes: pids.length };
}

// --- healthy load -------------------------------------------------------------------------------
let sent = 0;
let next = 0;
function percentile(sorted, p) {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
async function healthyLoad(label, n, durationMs, stopAfter = Number.POSITIVE_INFINITY) {
  const latencies = [];
  const errors = {};
  const until = Date.now() + durationMs;
  const started = performance.now();
  const client = async () => {
    while (Date.now() < until && sent < stopAfter) {
      const question = questions[next++ % questions.length];
      const t0 = performance.now();
      sent += 1;
      try {
        const response = await fetch(`${base}/v1/${values.route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question }),
        });
        const body = await response.json();
        if (response.status !== 200 || !Array.isArray(body.windows)) errors[response.status] = (errors[response.status] ?? 0) + 1;
        else latencies.push(performance.now() - t0);
      } catch (error) {
        const code = error.cause?.code ?? error.name;
        errors[code] = (errors[code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: n }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const line = {
    phase: label,
    ...(label.endsWith('(warm-up, not counted)') ? { counted: false } : {}),
    clients: n,
    seconds: Math.round(elapsed * 10) / 10,
    requests: latencies.length + errorCount,
    rps: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: Math.round(percentile(latencies, 50)),
    p95: Math.round(percentile(latencies, 95)),
    p99: Math.round(percentile(latencies, 99)),
    errors: errorCount,
    errorKinds: errors,
    rssMb: rssMb().mb,
    load: loadavg().map((l) => Math.round(l * 10) / 10),
  };
  console.log(JSON.stringify(line));
  return line;
}

/** A timed phase: --phase-warmup seconds of the same load first, not counted, then --seconds measured. */
async function timedPhase(label, n) {
  if (phaseWarmup > 0) await healthyLoad(`${label} (warm-up, not counted)`, n, phaseWarmup * 1000);
  return healthyLoad(label, n, seconds * 1000);
}

// --- malformed requests -------------------------------------------------------------------------
const MALFORMED = [
  ['bad JSON', 'POST', '/v1/retrieve', '{"question": "x"', 'application/json', 400, 'body'],
  ['bad JSON (trailing comma)', 'POST', '/v1/ask', '{"question": "x",}', 'application/json', 400, 'body'],
  ['empty body', 'POST', '/v1/retrieve', '', 'application/json', 400, 'body'],
  ['array body', 'POST', '/v1/policy', '[]', 'application/json', 400, 'body'],
  ['null body', 'POST', '/v1/retrieve', 'null', 'application/json', 400, 'body'],
  ['question a number', 'POST', '/v1/retrieve', '{"question": 42}', 'application/json', 400, 'question'],
  ['question missing', 'POST', '/v1/ask', '{"windows": 3}', 'application/json', 400, 'question'],
  ['question blank', 'POST', '/v1/retrieve', '{"question": "  "}', 'application/json', 400, 'question'],
  ['question too long', 'POST', '/v1/retrieve', JSON.stringify({ question: 'x'.repeat(5000) }), 'application/json', 400, 'question'],
  ['windows a string', 'POST', '/v1/retrieve', '{"question": "x", "windows": "3"}', 'application/json', 400, 'windows'],
  ['windows 0', 'POST', '/v1/ask', '{"question": "x", "windows": 0}', 'application/json', 400, 'windows'],
  ['windows fractional', 'POST', '/v1/retrieve', '{"question": "x", "windows": 1.5}', 'application/json', 400, 'windows'],
  ['policy unknown', 'POST', '/v1/retrieve', '{"question": "x", "policy": "huge"}', 'application/json', 400, 'policy'],
  ['graph a string', 'POST', '/v1/retrieve', '{"question": "x", "graph": "yes"}', 'application/json', 400, 'graph'],
  ['unknown field', 'POST', '/v1/retrieve', '{"question": "x", "k": 3}', 'application/json', 400, 'k'],
  ['oversized body', 'POST', '/v1/retrieve', JSON.stringify({ question: 'x'.repeat(200_000) }), 'application/json', 413, 'body'],
  ['form body', 'POST', '/v1/retrieve', 'question=x', 'application/x-www-form-urlencoded', 415, 'content-type'],
  ['unknown route', 'POST', '/v1/search', '{"question": "x"}', 'application/json', 404, 'path'],
  ['unknown route (GET)', 'GET', '/admin', undefined, undefined, 404, 'path'],
  ['wrong method', 'GET', '/v1/ask', undefined, undefined, 405, 'method'],
  ['unknown document', 'GET', '/v1/documents/no-such-document', undefined, undefined, 404, 'id'],
];
async function malformed(count) {
  const failures = [];
  const statuses = {};
  for (let i = 0; i < count; i += 1) {
    const [name, method, path, body, type, status, field] = MALFORMED[i % MALFORMED.length];
    try {
      const response = await fetch(`${base}${path}`, { method, headers: type ? { 'content-type': type } : {}, body });
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      const json = await response.json().catch(() => undefined);
      const ok = response.status === status && json?.error?.field === field && typeof json.error.message === 'string';
      if (!ok) failures.push({ name, status: response.status, body: json });
    } catch (error) {
      failures.push({ name, error: error.cause?.code ?? error.message });
    }
  }
  const line = {
    phase: 'malformed',
    requests: count,
    kinds: MALFORMED.length,
    statuses,
    failures: failures.length,
    examples: failures.slice(0, 3),
    rssMb: rssMb().mb,
  };
  console.log(JSON.stringify(line));
  return line;
}

// --- a client killed mid-request ----------------------------------------------------------------
async function killedClient() {
  const { port } = new URL(base);
  const body = JSON.stringify({ question: questions[0], id: 'killed-client' });
  // Keep the server busy so the request is still in a worker's queue when its client goes away.
  const busy = healthyLoad('background of the killed client', clients, 3_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/v1/ask',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  request.on('error', () => undefined);
  request.end(body);
  // Killed once its request is in the server (queued behind the load, or in its pipeline).
  await new Promise((resolve) => setTimeout(resolve, 200));
  request.destroy();
  await busy;
  const entry = logText.split('\n').find((line) => line.includes('"event":"aborted"') && line.includes('killed-client'));
  console.log(JSON.stringify({ phase: 'killed client', abortedInLog: entry ? JSON.parse(entry) : null }));
  return entry !== undefined;
}

// --- SIGTERM under load -------------------------------------------------------------------------
async function sigtermUnderLoad() {
  const outcomes = {};
  let stop = false;
  let sigtermAt = 0;
  const client = async () => {
    while (!stop) {
      try {
        const response = await fetch(`${base}/v1/${values.route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: questions[sent++ % questions.length] }),
        });
        await response.arrayBuffer();
        outcomes[response.status] = (outcomes[response.status] ?? 0) + 1;
        if (response.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
      } catch (error) {
        const code = error.cause?.code ?? error.name;
        outcomes[code] = (outcomes[code] ?? 0) + 1;
        if (code === 'ECONNREFUSED') return;
      }
    }
  };
  const running = Array.from({ length: clients }, client);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  sigtermAt = Date.now();
  const inFlightAtSigterm = logText.split('\n').length;
  server.kill('SIGTERM');
  const exit = await exited;
  stop = true;
  await Promise.all(running);
  // What the server logged as answered after SIGTERM, against what the clients received.
  const after = logText
    .split('\n')
    .slice(inFlightAtSigterm - 1)
    .filter((line) => line.includes('"event":"request"'))
    .map((line) => JSON.parse(line));
  const draining = /SIGTERM: draining (\d+) request/.exec(logText)?.[1];
  // Answered: a complete response. Not accepted: the connection was refused (ECONNREFUSED). Dropped:
  // any other failure (a reset or hang-up of a request the client had sent) or any status but 200.
  const dropped = Object.entries(outcomes)
    .filter(([outcome]) => !['200', 'ECONNREFUSED'].includes(outcome))
    .reduce((sum, [, n]) => sum + n, 0);
  const line = {
    phase: 'SIGTERM under load',
    clientOutcomes: outcomes,
    inFlightAtSigterm: Number(draining),
    answeredAfterSigterm: after.filter((entry) => entry.status === 200).length,
    dropped,
    exit,
    drainMs: Date.now() - sigtermAt,
  };
  console.log(JSON.stringify(line));
  return line;
}

// --- the run ------------------------------------------------------------------------------------
console.log(
  JSON.stringify({
    server: base,
    workers: Number(values.workers),
    index: values.index,
    route: values.route,
    log: values.log,
    rssAtStartMb: rssMb(),
    workersWarmedUp: logText
      .split('\n')
      .filter((line) => line.includes('"event":"warmed-up"'))
      .map((line) => JSON.parse(line)),
    seconds,
    phaseWarmupSeconds: phaseWarmup,
    load: loadavg(),
  }),
);
await healthyLoad('warm-up', clients, 3_600_000, Number(values.warmup ?? questions.length));
const rssWarm = rssMb().mb;
rssMb.warm = rssWarm;
const sentWarm = sent;
const one = await timedPhase('1 client', 1);
const many = await timedPhase(`${clients} clients`, clients);
const bad = await malformed(200);
const again = await timedPhase(`${clients} clients again`, clients);
const checkpoints = [{ requests: sent - sentWarm, rssMb: rssMb().mb }];
let soakErrors = 0;
while (sent - sentWarm < Number(values.total)) {
  soakErrors += (await healthyLoad('soak', clients, 3_600_000, Math.min(sentWarm + Number(values.total), sent + 2_000))).errors;
  checkpoints.push({ requests: sent - sentWarm, rssMb: rssMb().mb });
}
console.log(JSON.stringify({ phase: 'RSS after warm-up, by requests', rssAfterWarmupMb: rssMb.warm, checkpoints }));
const rssEnd = rssMb().mb;
const killed = await killedClient();
const term = await sigtermUnderLoad();
const growth = Math.round(((rssEnd - rssWarm) / rssWarm) * 1000) / 10;
const summary = {
  ratio: Math.round((many.rps / one.rps) * 100) / 100,
  oneClientRps: one.rps,
  manyClientsRps: many.rps,
  againRps: again.rps,
  healthyErrors: one.errors + many.errors + again.errors,
  malformedNot4xxOrUnnamed: bad.failures,
  requestsAfterWarmup: sent - sentWarm,
  rssAfterWarmupMb: rssWarm,
  rssEndMb: rssEnd,
  rssGrowthPercent: growth,
  killedClientAborted: killed,
  sigtermExit: term.exit,
  sigtermDropped: term.dropped,
  load: loadavg(),
};
console.log(JSON.stringify({ summary }));
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
const targets = [
  [
    `0 errors under healthy load (1 client, ${clients} clients, again, soak)`,
    summary.healthyErrors + soakErrors === 0,
    `${summary.healthyErrors + soakErrors} errors`,
  ],
  ['every malformed request a 4xx JSON error naming the field', bad.failures === 0, `${bad.requests - bad.failures} of ${bad.requests}`],
  [`RSS growth < 10 % over ${summary.requestsAfterWarmup} requests`, growth < 10, `${rssWarm} -> ${rssEnd} MB (${growth} %)`],
  [
    `throughput with ${clients} clients >= 1.6x one client's`,
    summary.ratio >= 1.6,
    `${many.rps} / ${one.rps} req/s = ${summary.ratio}x (again: ${Math.round((again.rps / one.rps) * 100) / 100}x)`,
  ],
  ["a killed client's request shows as aborted in the server's log", killed, killed ? 'logged aborted' : 'not logged'],
  [
    'SIGTERM under load drops nothing that was accepted',
    term.dropped === 0 && term.exit.code === 0,
    `${term.dropped} dropped, exit ${term.exit.code}, outcomes ${JSON.stringify(term.clientOutcomes)}`,
  ],
];
console.log('');
for (const [target, ok, detail] of targets) console.log(`${verdict(ok)}  ${target}: ${detail}`);
console.log(
  `(load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; throughput is only meaningful on a quiet machine)`,
);
