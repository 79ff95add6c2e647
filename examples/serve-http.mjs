// Serve a loaded index over HTTP from your own code (what `mosaic serve` does), then call it:
// retrieve as JSON, ask as server-sent events, and a malformed request's error.
//   node examples/serve-http.mjs
import { createMosaic } from '@mosaic/pipeline';
import { createMosaicServer } from '@mosaic/server';
import { openExampleIndex } from './lib/example-index.mjs';

const { index, release } = await openExampleIndex();
const server = createMosaicServer({ mosaic: createMosaic({ index }), index, log: false });
const { url } = await server.listen(); // 127.0.0.1, a free port
console.log(`serving on ${url}`);

const post = (/** @type {string} */ path, /** @type {unknown} */ body, /** @type {Record<string, string>} */ headers = {}) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const retrieved = /** @type {import('@mosaic/server').RetrieveResponse} */ (
  await (await post('/v1/retrieve', { question: 'What causes Morrow syndrome?', windows: 2 })).json()
);
for (const window of retrieved.windows) console.log(`retrieve [${window.rank}] ${window.documentId}: ${window.text.slice(0, 60).replace(/\s+/g, ' ')}…`);

const stream = await (await post('/v1/ask', { question: 'Which drug treats Morrow syndrome?' }, { accept: 'text/event-stream' })).text();
console.log(`ask events: ${[...stream.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]).join(', ')}`);

const refused = await post('/v1/retrieve', { question: 'x', windows: 'three' });
console.log(`malformed: ${refused.status} ${JSON.stringify(await refused.json())}`);

await server.close();
await release();
