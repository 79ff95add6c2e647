import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter } from './progress-reporter.js';

function sink(isTTY: boolean) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    }),
    { isTTY },
  );
  return { stream, text: () => text };
}

describe('createProgressReporter', () => {
  it('prints plain lines at stage start, every step and the end when not a TTY', () => {
    const out = sink(false);
    const report = createProgressReporter({ stream: out.stream, label: 'Medical' });
    for (let done = 0; done <= 10; done++) report({ stage: 'extract', done, total: 10 });
    report({ stage: 'write', done: 0, total: 0 });
    report.done();
    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'Medical extract 0% 0/10',
      'Medical extract 30% 3/10',
      'Medical extract 50% 5/10',
      'Medical extract 80% 8/10',
      'Medical extract 100% 10/10',
      'Medical write 100% 0/0',
    ]);
  });

  it('draws an in-place bar on a TTY and ends the line per stage', () => {
    const out = sink(true);
    const report = createProgressReporter({ stream: out.stream, width: 10 });
    report({ stage: 'encode-windows', done: 5, total: 10 });
    report({ stage: 'encode-windows', done: 10, total: 10 });
    report({ stage: 'write', done: 1, total: 1 });
    report.done();
    const text = out.text();
    expect(text).toContain('\rencode-windows [█████░░░░░]  50% 5/10');
    expect(text).toContain('\rencode-windows [██████████] 100% 10/10\n');
    expect(text.endsWith('write [██████████] 100% 1/1\n')).toBe(true);
  });
});
