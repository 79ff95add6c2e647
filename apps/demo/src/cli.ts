import { applyQueryV8Flags, exitWithParent, runWithNodeFlags } from './heap-limit.js';

/** Resolves once everything written to `stream` so far has been handed to the operating system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}

// A reader that stops early (`mosaic retrieve --out - | head`) closes the pipe: that is the reader's
// choice, not a failure. End at once, quietly, with success, before any command reports it as one.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

// `index` and `migrate` re-run themselves with a heap sized to the machine, and the commands that
// answer questions with a larger young generation (see heap-limit.ts); the command itself (main.js,
// which loads every package) is loaded only by the process that runs it.
// Exit explicitly (an embedded on-disk SurrealDB engine keeps the process alive after close()), but
// only once stdout and stderr have drained: process.exit() drops whatever a pipe has not taken yet,
// which cut `mosaic ask --json | jq` off at 64 KiB.
const args = process.argv.slice(2);
let run: Promise<number>;
try {
  // A command that answers questions turns off V8's allocation-site pretenuring first (heap-limit.ts).
  applyQueryV8Flags(args);
  exitWithParent();
  run = runWithNodeFlags(args) ?? import('./main.js').then(({ main }) => main(args));
} catch (error) {
  process.stderr.write(`mosaic: ${(error as Error).message}\n`);
  run = Promise.resolve(2);
}
run.then(async (code) => {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
});
