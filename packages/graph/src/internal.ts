/**
 * Building blocks of @mosaic/graph, for the monorepo's own packages, tests and tools.
 * Not part of the stable API: names and shapes may change in any release, without a major
 * version. Build on what `@mosaic/graph` exports.
 */
export {
  displayName,
  entityIdFromKey,
  entityKey,
  parseEntityName,
  relationIdFromKey,
  relationLabelKey,
  singularize,
  slugify,
  type ParsedEntityName,
} from './entity-key.js';
export { joinDescriptions, SUFFIX_LINK_LABEL } from './merge-extractions.js';
export { GRAPH_FILE_FORMAT, GRAPH_FILE_VERSION, deserializeGraph, serializeGraph, type GraphFile } from './graph-persistence.js';
export { GRAPH_LINES_FORMAT, GRAPH_LINES_VERSION, type GraphLinesHeader } from './graph-lines.js';
export { GRAPH_BINARY_FORMAT, GRAPH_BINARY_VERSION, encodeGraphBinary, type GraphBinaryHeader } from './graph-binary.js';
