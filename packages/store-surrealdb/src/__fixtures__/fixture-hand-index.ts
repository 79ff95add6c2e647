// The recorded fixture index of @mosaic/testing: the three fixture pages as @mosaic/indexing's
// composition builds them (400-character chunks, windows of 800 / 400 characters, the graph the
// fixture extraction finds, merged by the real merger), hashing encoder, BM25 indexes.
import { loadFixtureIndex, type HandBuiltIndex } from '@mosaic/testing';

export async function buildFixtureIndex(): Promise<HandBuiltIndex> {
  return loadFixtureIndex();
}
