// The stdio MCP server of the tests: loads the index at argv[2] (encoder argv[3]) and serves it on stdin/stdout.
import { loadIndex } from '@mosaic/indexing';
import { serveMcpStdio } from '@mosaic/mcp';
import { createMosaic } from '@mosaic/pipeline';
import { createLocalEngine } from '@mosaic/server';
import { openFixtureEncoder } from '@mosaic/server/testing';

const [dir, encoderName] = process.argv.slice(2);
const encoder = await openFixtureEncoder(encoderName);
const index = await loadIndex({ dir, encoder });
const { closed } = await serveMcpStdio({ engine: createLocalEngine({ mosaic: createMosaic({ index }), index }), corpus: 'Medical' });
await closed;
