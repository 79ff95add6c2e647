import type { ChunkExtraction } from '@mosaic/graph';
import { InvalidArgumentError } from '@mosaic/spec';
import { gunzipSync, gzipSync } from 'node:zlib';

/** gzip level of the extraction log's blocks (the level `extractions.jsonl.gz` has always been written at). */
export const EXTRACTION_LOG_GZIP_LEVEL = 6;

/** One block of the log: `count` JSON lines (`{ chunkId, extraction }`), gzip-compressed as one gzip member. */
export interface ExtractionLogBlock {
  count: number;
  gzip: Uint8Array;
}

/**
 * Per-chunk extractions in corpus order, held compressed: blocks of JSON Lines, each one gzip
 * member. A build keeps the extractions of the whole corpus until it writes them
 * (`extractions.jsonl.gz`, read again by an addition), and as objects they are the largest thing it
 * holds (≈ 25 MB per MB of text); compressed they take about a thirtieth. Iterating decodes one block at a time,
 * so a pass over the log (the merger makes two) holds one block's objects. The concatenated blocks
 * are the file's bytes: a gzip stream of several members is one stream to every gzip reader.
 */
export class ExtractionLog implements Iterable<ChunkExtraction> {
  readonly #blocks: ExtractionLogBlock[] = [];
  #length = 0;

  /** A log of these extractions, compressed in blocks of `blockSize` (default 1,024). */
  static from(extractions: Iterable<ChunkExtraction>, blockSize = 1024): ExtractionLog {
    const log = new ExtractionLog();
    let pending: ChunkExtraction[] = [];
    for (const item of extractions) {
      pending.push(item);
      if (pending.length >= blockSize) {
        log.append(pending);
        pending = [];
      }
    }
    if (pending.length > 0) log.append(pending);
    return log;
  }

  /** Number of extractions (one per chunk). */
  get length(): number {
    return this.#length;
  }

  /** Compress and append extractions (in corpus order, after those already in the log). */
  append(extractions: readonly ChunkExtraction[]): void {
    if (extractions.length === 0) return;
    this.appendBlock({ count: extractions.length, gzip: encodeExtractionBlock(extractions) });
  }

  /** Append a block compressed elsewhere (an extraction worker): `count` lines, one gzip member. */
  appendBlock(block: ExtractionLogBlock): void {
    if (!Number.isInteger(block.count) || block.count < 1 || !(block.gzip instanceof Uint8Array)) {
      throw new InvalidArgumentError({ argument: 'block', message: 'an extraction log block needs a positive count and gzip bytes' });
    }
    this.#blocks.push(block);
    this.#length += block.count;
  }

  /** Append every block of another log (after this log's). */
  concat(other: ExtractionLog): void {
    for (const block of other.blocks()) this.appendBlock(block);
  }

  /** The blocks, in order: their bytes concatenated are `extractions.jsonl.gz`. */
  blocks(): readonly ExtractionLogBlock[] {
    return this.#blocks;
  }

  /** Compressed bytes held. */
  get byteLength(): number {
    return this.#blocks.reduce((sum, block) => sum + block.gzip.byteLength, 0);
  }

  *[Symbol.iterator](): Iterator<ChunkExtraction> {
    for (const block of this.#blocks) yield* decodeExtractionBlock(block);
  }
}

/** The JSON Lines of extractions, gzip-compressed as one member (what a worker sends back). */
export function encodeExtractionBlock(extractions: readonly ChunkExtraction[]): Uint8Array {
  let text = '';
  for (const item of extractions) text += `${JSON.stringify(item)}\n`;
  return gzipSync(text, { level: EXTRACTION_LOG_GZIP_LEVEL });
}

function decodeExtractionBlock(block: ExtractionLogBlock): ChunkExtraction[] {
  const text = gunzipSync(block.gzip).toString('utf8');
  const out: ChunkExtraction[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    out.push(JSON.parse(text.slice(start, end)) as ChunkExtraction);
    start = end + 1;
  }
  if (out.length !== block.count) {
    throw new InvalidArgumentError({ argument: 'block', message: `an extraction log block holds ${out.length} lines, ${block.count} expected` });
  }
  return out;
}
