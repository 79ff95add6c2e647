#!/usr/bin/env node
/**
 * The sha256 of what `mergeExtractions` makes of an index's `extractions.jsonl.gz` (every merged
 * entity, relation and the trace), with the counts and the merge time: run it before and after a
 * change to the merger to show that the output is the same.
 *
 *   node apps/demo/scripts/merge-digest.mjs <index dir>/extractions.jsonl.gz
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { mergeExtractions } from '@mosaic/graph';

const path = process.argv[2];
if (!path) throw new Error('usage: merge-digest.mjs <index dir>/extractions.jsonl.gz');
const extractions = gunzipSync(readFileSync(path))
  .toString()
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const started = performance.now();
const merged = mergeExtractions({ extractions });
const ms = performance.now() - started;
const hash = createHash('sha256');
for (const entity of merged.entities) hash.update(JSON.stringify(entity));
for (const relation of merged.relations) hash.update(JSON.stringify(relation));
hash.update(JSON.stringify(merged.trace));
console.log(`${hash.digest('hex')}  entities ${merged.entities.length}  relations ${merged.relations.length}  merge ${Math.round(ms)} ms`);
