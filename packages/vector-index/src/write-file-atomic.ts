import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Have `write` write a file at a temporary sibling of `path`, then rename it into place (parent
 * folders created); on failure the temporary file is removed and the error rethrown.
 */
export async function writeAtomically(path: string, write: (temporary: string) => unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}-${Date.now()}`;
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Write a file via a temporary sibling and a rename, creating parent folders. */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  await writeAtomically(path, (temporary) => writeFile(temporary, data));
}
