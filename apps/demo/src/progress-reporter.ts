import type { ProgressEvent } from '@mosaic/indexing';

export interface ProgressReporterOptions {
  /** Where to print. Default process.stderr. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Draw an in-place bar (default: when the stream is a TTY); otherwise print plain lines. */
  tty?: boolean;
  /** Bar width in characters (default 30). */
  width?: number;
  /** Plain mode prints a stage at most every this many percent (default 25), plus its start and end. */
  percentStep?: number;
  /** Optional prefix, e.g. the corpus name. */
  label?: string;
}

export interface ProgressReporter {
  /** Pass as `onProgress`. */
  (event: ProgressEvent): void;
  /** End the current line (TTY mode). */
  done(): void;
}

/**
 * A progress printer for `onProgress`: an in-place bar per stage on a TTY
 * (`extract [██████░░░░] 60% 555/925`), plain lines otherwise (`extract 0/925`,
 * `extract 25% 232/925`, …) so that logs stay readable.
 */
export function createProgressReporter(options: ProgressReporterOptions = {}): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? Boolean(stream.isTTY);
  const width = options.width ?? 30;
  const step = options.percentStep ?? 25;
  const prefix = options.label ? `${options.label} ` : '';
  let currentStage: string | undefined;
  let lastPercent = -1;
  let open = false;

  const reporter = ((event: ProgressEvent) => {
    const total = Math.max(0, event.total);
    const percent = total === 0 ? 100 : Math.min(100, Math.floor((event.done / total) * 100));
    const newStage = event.stage !== currentStage;
    if (newStage) {
      if (open && tty) stream.write('\n');
      currentStage = event.stage;
      lastPercent = -1;
    }
    if (tty) {
      const filled = Math.round((percent / 100) * width);
      stream.write(`\r${prefix}${event.stage} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${event.done}/${total}`);
      open = true;
      return;
    }
    const bucket = Math.floor(percent / step) * step;
    if (newStage || bucket > lastPercent || (event.done >= total && lastPercent < 100)) {
      lastPercent = event.done >= total ? 100 : bucket;
      stream.write(`${prefix}${event.stage} ${percent}% ${event.done}/${total}\n`);
    }
  }) as ProgressReporter;
  reporter.done = () => {
    if (open && tty) stream.write('\n');
    open = false;
    currentStage = undefined;
  };
  return reporter;
}
