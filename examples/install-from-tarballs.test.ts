import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The used-by check (scripts/install-from-tarballs.mjs): every publishable package packed, the
// tarballs installed with plain `npm install` into a scratch project outside the workspace,
// `npx mosaic-offline-setup`, every example run with node, the examples type-checked with
// skipLibCheck false. About 2.5 minutes cold, 1.5 minutes with npm's cache warm; 16 minutes with 23
// packages and 7 examples on the shared 2-core machine at load average 25 (2026-12-02), hence 30 minutes.
const script = fileURLToPath(new URL('./scripts/install-from-tarballs.mjs', import.meta.url));

describe('the packed packages, installed from tarballs outside the workspace', () => {
  it('install with npm, set up with mosaic-offline-setup, run every example and type-check them', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 1_800_000 });
    const summary = /^install-from-tarballs: (\{.*\})$/m.exec(stdout);
    expect(summary, stdout).not.toBeNull();
    console.log(summary![0]); // the step timings, in the CI log
    const result = JSON.parse(summary![1]) as {
      packages: number;
      examples: Record<string, number>;
      cli: { version: string; answer: string; quotedFrom: string[]; demoAnswered: number };
      timings: Record<string, number>;
    };
    // Every publishable package, the mosaic command (@mosaic/cli) among them.
    expect(result.packages).toBeGreaterThanOrEqual(24);
    expect(Object.keys(result.examples).sort()).toEqual([
      'ai-sdk-tool.mjs',
      'custom-reranker.mjs',
      'custom-traverser.mjs',
      'index-and-ask.mjs',
      'langchain-retriever.mjs',
      'serve-http.mjs',
      'wrapped-analyzer.mjs',
    ]);
    // The set-up built (or found) both pieces, and the examples used them: faiss through loadIndex, the model through createEmbeddedEncoder.
    expect(stdout).toMatch(/faiss addon: (built|up to date) \(faiss 1\.7\.3/);
    expect(stdout).toMatch(/embedded model: (built|up to date) \(onnx:wink-sg-100d/);
    expect(stdout).toMatch(/indexed 3 documents: \d+ entities, \d+ relations/);
    expect(stdout).toMatch(/answer: .*calditrex/);
    expect(stdout).not.toMatch(/^\s*FAIL /m);
    // The README's walk-through: npx mosaic from the installed set indexes a folder and answers with its source.
    expect(result.cli.version).toMatch(/^mosaic \d+\.\d+\.\d+/);
    expect(result.cli.answer).toMatch(/calditrex/);
    expect(result.cli.quotedFrom).toContain('morrow-syndrome.txt');
    // mosaic demo ran on the built-in sample corpus with the test kit not installed (the script checks both).
    expect(result.cli.demoAnswered).toBe(1);
    for (const name of ['npm install', 'mosaic-offline-setup', 'npx mosaic demo --count 1', 'npm install @mosaic/testing', 'tsc (checkJs, skipLibCheck false)'])
      expect(result.timings[name]).toBeGreaterThan(0);
  }, 1_800_000);
});
