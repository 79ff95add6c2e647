import { main } from './main.js';

/** Resolves once everything written to `stream` so far has been handed to the operating system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.write('', () => resolve());
  });
}

// Exit explicitly (an embedded on-disk SurrealDB engine keeps the process alive after close()), but
// only once stdout and stderr have drained: process.exit() drops whatever a pipe has not taken yet,
// which cut `mosaic ask --json | jq` off at 64 KiB.
main(process.argv.slice(2)).then(async (code) => {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
});
