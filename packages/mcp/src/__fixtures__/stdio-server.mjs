// The stdio MCP server of the tests: loads the index at argv[2] (encoder argv[3]) and serves it on stdin/stdout.
import { createEmbeddedEncoder } from '@mosaic/encoders';
import { loadIndex } from '@mosaic/indexing';
import { serveMcpStdio } from '@mosaic/mcp';
import { createMosaic } from '@mosaic/pipeline';
import { createLocalEngine } from '@mosaic/server';
import { createHashingEncoder } from '@mosaic/testing/hand-built-index';

const [dir, encoderName] = process.argv.slice(2);
const encoder = encoderName === 'embedded' ? await createEmbeddedEncoder() : createHashingEncoder();
const index = await loadIndex({ dir, encoder });
const { closed } = await serveMcpStdio({ engine: createLocalEngine({ mosaic: createMosaic({ index }), index }), corpus: 'Medical' });
await closed;
