import type { Chunk, ChunkStore, SourceWindow } from '@mosaic/spec';

/** A ChunkStore over chunk and window lists (windows of a chunk sorted by start). */
export class InMemoryChunkStore implements ChunkStore {
  private readonly chunkById = new Map<string, Chunk>();
  private readonly windowById = new Map<string, SourceWindow>();
  private readonly windowsByChunk = new Map<string, SourceWindow[]>();

  constructor(chunks: readonly Chunk[], windows: readonly SourceWindow[]) {
    for (const chunk of chunks) this.chunkById.set(chunk.id, chunk);
    for (const window of windows) {
      this.windowById.set(window.id, window);
      for (const chunkId of window.chunkIds) {
        const list = this.windowsByChunk.get(chunkId) ?? [];
        list.push(window);
        this.windowsByChunk.set(chunkId, list);
      }
    }
    for (const list of this.windowsByChunk.values()) list.sort((a, b) => a.start - b.start);
  }

  getChunk(id: string): Chunk | undefined {
    return this.chunkById.get(id);
  }

  getWindow(id: string): SourceWindow | undefined {
    return this.windowById.get(id);
  }

  windowsOfChunk(chunkId: string): SourceWindow[] {
    return [...(this.windowsByChunk.get(chunkId) ?? [])];
  }

  get chunkCount(): number {
    return this.chunkById.size;
  }

  get windowCount(): number {
    return this.windowById.size;
  }
}
