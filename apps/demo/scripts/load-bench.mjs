#!/usr/bin/env node
/**
 * Time `loadIndex` on one or more index directories, phase by phase: wall and CPU milliseconds
 * (process.cpuUsage, user + system: less sensitive to a loaded machine than wall time) and the
 * process RSS after each phase, then the totals and the load average. The embedded encoder (what
 * the CLI loads with) is made first and timed apart. Each index is loaded `--repeat` times in this
 * process (the first load pays for lazy module loading; the CLI loads once per process).
 *
 *   node apps/demo/scripts/load-bench.mjs <index dir>... [--repeat N] [--verify digests|sizes] [--json]
 *
 * Profile a load with `node --cpu-prof --cpu-prof-dir=/tmp/prof apps/demo/scripts/load-bench.mjs <dir>`.
 */
import { loadavg } from 'node:os';
import { loadIndex } from '@mosaic/indexing';
import { createEmbeddedEncoder } from '@mosaic/encoders';

const args = process.argv.slice(2);
const dirs = [];
let repeat = 1;
let verify = 'digests';
let json = false;
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i];
  if (arg === '--repeat') repeat = Number(args[++i]);
  else if (arg === '--verify') verify = args[++i];
  else if (arg === '--json') json = true;
  else if (arg === '--help' || arg === '-h') {
    console.log('usage: load-bench.mjs <index dir>... [--repeat N] [--verify digests|sizes] [--json]');
    process.exit(0);
  } else if (arg.startsWith('--')) {
    console.error(`unknown option ${arg}`);
    process.exit(2);
  } else dirs.push(arg);
}
if (dirs.length === 0 || !Number.isInteger(repeat) || repeat < 1 || !['digests', 'sizes'].includes(verify)) {
  console.error('usage: load-bench.mjs <index dir>... [--repeat N] [--verify digests|sizes] [--json]');
  process.exit(2);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const before = { wall: performance.now(), cpu: cpuMs() };
const encoder = await createEmbeddedEncoder();
console.log(
  `encoder ${encoder.id}: ${(performance.now() - before.wall).toFixed(0)} ms wall, ${(cpuMs() - before.cpu).toFixed(0)} ms CPU, RSS ${mb(process.memoryUsage().rss)} MB`,
);

const results = [];
for (const dir of dirs) {
  for (let run = 1; run <= repeat; run += 1) {
    const loadStart = load();
    const phases = [];
    let last = { cpu: cpuMs() };
    const start = { wall: performance.now(), cpu: last.cpu, rss: process.memoryUsage().rss };
    const index = await loadIndex({
      dir,
      encoder,
      verify,
      onPhase: ({ phase, ms }) => {
        const cpu = cpuMs();
        phases.push({ phase, wallMs: ms, cpuMs: cpu - last.cpu, rssMb: Number(mb(process.memoryUsage().rss)) });
        last = { cpu };
      },
    });
    const wallMs = performance.now() - start.wall;
    const totalCpu = cpuMs() - start.cpu;
    const rss = process.memoryUsage().rss;
    const result = {
      dir,
      run,
      counts: index.manifest.counts,
      wallMs: Math.round(wallMs),
      cpuMs: Math.round(totalCpu),
      rssMb: Number(mb(rss)),
      loadStart,
      loadEnd: load(),
      phases: phases.map((p) => ({ ...p, wallMs: Math.round(p.wallMs), cpuMs: Math.round(p.cpuMs) })),
    };
    results.push(result);
    if (!json) {
      console.log(`\n${dir} (run ${run}/${repeat}; ${JSON.stringify(index.manifest.counts)})`);
      console.log('phase'.padEnd(18) + 'wall ms'.padStart(10) + 'CPU ms'.padStart(10) + 'RSS MB'.padStart(10));
      for (const p of result.phases)
        console.log(p.phase.padEnd(18) + String(p.wallMs).padStart(10) + String(p.cpuMs).padStart(10) + String(p.rssMb).padStart(10));
      console.log('total'.padEnd(18) + String(result.wallMs).padStart(10) + String(result.cpuMs).padStart(10) + String(result.rssMb).padStart(10));
      console.log(`load average ${result.loadStart} → ${result.loadEnd}`);
    }
  }
}
if (json) console.log(JSON.stringify(results, null, 2));
