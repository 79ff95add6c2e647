import { describe, expect, it } from 'vitest';
import { runMetadata } from './run-metadata.js';

describe('runMetadata', () => {
  it('records the command as typed (quoted where a shell needs it), the date and the machine', () => {
    const meta = runMetadata('bench', ['--index', 'idx/med', '--systems', 'bm25,adaptive', '--out', "runs/it's here"]);
    expect(meta.command).toBe("mosaic bench --index idx/med --systems bm25,adaptive --out 'runs/it'\\''s here'");
    expect(Number.isNaN(Date.parse(meta.date))).toBe(false);
    expect(meta.machine.cores).toBeGreaterThan(0);
    expect(meta.machine.memoryGiB).toBeGreaterThan(0);
    expect(meta.machine.node).toBe(process.version);
  });

  it('gives a commit inside a git checkout and null outside one', () => {
    expect(runMetadata('bench', []).commit).toMatch(/^[0-9a-f]{7,}(\+dirty)?$/);
    expect(runMetadata('bench', [], '/').commit).toBeNull();
  });
});
