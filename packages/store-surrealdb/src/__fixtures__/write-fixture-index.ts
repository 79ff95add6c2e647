// Child process of surreal-file-engine.test.ts: write the fixture index to the URL in argv[2] and
// exit. process.exit is needed: @surrealdb/node 3.0 keeps the process alive after close once an
// index is defined, and keeps on-disk databases locked until the process ends (surrealdb.js#592).
import { writeIndexToSurreal } from '../surreal-index.js';
import { buildFixtureIndex } from './fixture-hand-index.js';

const url = process.argv[2];
const index = await buildFixtureIndex();
const written = await writeIndexToSurreal({ url, database: 'fixture', index, texts: { entities: index.entityTexts, relations: index.relationTexts } });
process.stdout.write(`${JSON.stringify({ counts: written.record.counts, roundTrips: written.roundTrips })}\n`);
process.exit(0);
