import fc from 'fast-check';
import { IndexMismatchError } from '@mosaic/spec';
import { afterAll, describe, expect, it } from 'vitest';
import { parseIndexManifest, requiredIndexFiles } from './index-manifest-schema.js';

/** Fixed seed and run count: the fuzz run is the same on every machine; the test names print the count. */
const SEED = 14;
const RUNS = 2_000;
const PATH = 'fuzz/manifest.json';

/** Inputs actually parsed, printed once at the end (the CI log shows it). */
let tried = 0;
afterAll(() => console.log(`fuzz parseIndexManifest: ${tried} inputs tried (seed ${SEED})`));

const hex = (c: string) => c.repeat(64);
const VALID = {
  formatVersion: 5,
  corpus: 'Medical',
  encoder: { id: 'onnx:wink-sg-100d', dimension: 100 },
  extractor: 'offline:wink-spo-v2',
  corpusChecksum: hex('a'),
  counts: { documents: 1, chunks: 2, windows: 3, entities: 4, relations: 5 },
  window: { size: 1600, stride: 800 },
  vectorIndex: { factory: 'Flat' },
  buildTimeMs: 12,
  createdAt: '2026-01-01T00:00:00.000Z',
  peakRssBytes: 1024,
  chunking: { chunkSize: 1200 },
  lexical: true,
  files: Object.fromEntries(requiredIndexFiles(true).map((name) => [name, 10])),
  digests: Object.fromEntries(requiredIndexFiles(true).map((name) => [name, hex('b')])),
  graphStats: { nodes: 4 },
  merge: { entities: 4 },
};

/** Parses, and returns 'accepted' or the typed refusal; anything else thrown fails the property. */
function outcome(text: string): 'accepted' | IndexMismatchError {
  tried += 1;
  try {
    parseIndexManifest({ text, path: PATH });
    return 'accepted';
  } catch (error) {
    if (!IndexMismatchError.isInstance(error)) throw error;
    return error;
  }
}

function expectTypedRefusal(result: 'accepted' | IndexMismatchError): void {
  if (result === 'accepted') return;
  expect(result.field.length).toBeGreaterThan(0);
  expect(result.message).toMatch(/^fuzz\/manifest\.json: invalid manifest: /);
  // Bounded whatever the input: the message names the field, it does not echo the input.
  expect(result.message.length).toBeLessThan(600);
}

/** Every path (as keys) of a JSON value's objects, root excluded. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])]);
}
const MANIFEST_PATHS = paths(VALID);

function mutate(path: readonly string[], replacement: unknown, remove: boolean): Record<string, unknown> {
  const copy = structuredClone(VALID) as Record<string, unknown>;
  let parent = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  if (remove) delete parent[path.at(-1)!];
  else parent[path.at(-1)!] = replacement;
  return copy;
}

describe('parseIndexManifest', () => {
  it('accepts a valid manifest', () => {
    expect(parseIndexManifest({ text: JSON.stringify(VALID), path: PATH }).encoder.id).toBe('onnx:wink-sg-100d');
  });

  it(`fuzz: arbitrary JSON (${RUNS} inputs, seed ${SEED}) is refused with IndexMismatchError, never an uncaught exception`, () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), (text) => {
        const result = outcome(text);
        // Random JSON is never a complete manifest.
        expect(result).not.toBe('accepted');
        expectTypedRefusal(result);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`fuzz: arbitrary text (${RUNS} inputs, seed ${SEED}) is refused with IndexMismatchError`, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const result = outcome(text);
        expect(result).not.toBe('accepted');
        expectTypedRefusal(result);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`fuzz: a valid manifest with one field replaced by arbitrary JSON or removed (${RUNS} inputs, seed ${SEED}) is accepted or refused naming that field`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...MANIFEST_PATHS), fc.jsonValue(), fc.boolean(), (path, replacement, remove) => {
        const result = outcome(JSON.stringify(mutate(path, replacement, remove)));
        expectTypedRefusal(result);
        // Another readable format version asks for that format's files (format 4: documents.jsonl, ...).
        const otherFormat = path[0] === 'formatVersion' && result !== 'accepted' && result.field.startsWith('files.');
        if (result !== 'accepted' && result.field !== 'formatVersion' && !otherFormat) {
          // The refusal names the changed field or a field inside it (a replaced object's member).
          const changed = path.join('.');
          expect([changed, path[0]].some((prefix) => result.field === prefix || result.field.startsWith(`${prefix}.`))).toBe(true);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
