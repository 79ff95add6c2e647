import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// "Used as a library": pnpm pack policy-schema, traversal, pipeline (and their @mosaic runtime
// dependencies), npm install the tarballs into a scratch project outside the workspace, and run an
// example against the public API with a custom traverser. See scripts/pack-smoke.mjs.
describe('packed packages work outside the workspace', () => {
  it('installs the tarballs and runs the example with a custom traverser', () => {
    const script = fileURLToPath(new URL('../scripts/pack-smoke.mjs', import.meta.url));
    const output = execFileSync(process.execPath, [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
    const ran = /example ran: (\{.*\})/.exec(output);
    expect(ran, output).not.toBeNull();
    const summary = JSON.parse(ran![1]);
    expect(summary.windows.length).toBeGreaterThan(0);
    expect(summary.effort.pathsEvaluated).toBeGreaterThan(0);
    expect(output).toMatch(/ok in [\d.]+ s/);
  }, 250_000);
});
