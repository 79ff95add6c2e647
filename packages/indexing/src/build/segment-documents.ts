import { InvalidArgumentError } from '@mosaic/spec';
import type { Chunk, SourceDocument, SourceWindow } from '@mosaic/spec';
import { chunkDocument } from '../chunking/chunk-document.js';
import { windowDocument, type WindowConfig } from '../chunking/window-document.js';

export interface SegmentDocumentsOptions {
  documents: readonly SourceDocument[];
  chunkSize: number;
  window: WindowConfig;
}

/** Chunks and windows of every document, in document order. Duplicate or empty document ids are refused. */
export function segmentDocuments(options: SegmentDocumentsOptions): { chunks: Chunk[]; windows: SourceWindow[] } {
  const seen = new Set<string>();
  const chunks: Chunk[] = [];
  const windows: SourceWindow[] = [];
  for (const document of options.documents) {
    if (typeof document.id !== 'string' || document.id === '') {
      throw new InvalidArgumentError({ argument: 'documents', message: 'every document needs a non-empty id' });
    }
    if (typeof document.text !== 'string') {
      throw new InvalidArgumentError({ argument: 'documents', message: `document '${document.id}' has no text` });
    }
    if (seen.has(document.id)) {
      throw new InvalidArgumentError({ argument: 'documents', message: `duplicate document id '${document.id}'` });
    }
    seen.add(document.id);
    const documentChunks = chunkDocument({ document, chunkSize: options.chunkSize });
    chunks.push(...documentChunks);
    windows.push(...windowDocument({ document, chunks: documentChunks, window: options.window }));
  }
  return { chunks, windows };
}
