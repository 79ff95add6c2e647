import { basename, extname } from 'node:path';
import { lineAnchors } from '@mosaic/stage-utils';
import type { DocumentFormat } from '@mosaic/spec';
import type { CleanDocument } from './clean-text-builder.js';

/** Why a file was not read as a document. */
export type UnreadableReason = 'binary' | 'not-utf8' | 'empty' | 'parse-error';

/** A file that is not a readable document: the reason and a sentence saying what is wrong. */
export class UnreadableFile {
  constructor(
    readonly reason: UnreadableReason,
    readonly message: string,
  ) {}
}

const EXTENSIONS: Record<string, Exclude<DocumentFormat, 'json' | 'text'>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdown': 'markdown',
  '.mkd': 'markdown',
  '.mkdn': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.rst': 'rst',
  '.rest': 'rst',
  '.pod': 'pod',
  '.pdf': 'pdf',
};

/**
 * The format of a file from its name: Markdown, HTML, reST (`.rst`, and Sphinx's `.rst.txt`
 * sources), Perl's POD (`.pod`), PDF; anything else is plain text (read only when it is valid UTF-8).
 */
export function formatOfFile(path: string): Exclude<DocumentFormat, 'json'> {
  const name = basename(path).toLowerCase();
  if (name.endsWith('.rst.txt')) return 'rst';
  if (name.endsWith('.md.txt')) return 'markdown';
  return EXTENSIONS[extname(name)] ?? 'text';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Read one file's bytes as a document of its format (see formatOfFile; a file starting with
 * `%PDF-` is read as PDF whatever its name). Returns the clean text and outline, or an
 * UnreadableFile: binary content (a NUL byte), not valid UTF-8 (POD excepted: `decodePodBytes`), no text at all, or a parser
 * failure (a broken PDF). The outline's title falls back to the file name.
 */
export async function readDocumentBytes(path: string, bytes: Uint8Array): Promise<CleanDocument | UnreadableFile> {
  const isPdf = bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
  const format = isPdf ? 'pdf' : formatOfFile(path);
  let document: CleanDocument;
  if (format === 'pdf') {
    if (!isPdf) return new UnreadableFile('parse-error', 'is named .pdf but is not a PDF (no %PDF- header)');
    try {
      // Each parser is loaded when a file of its format is first read: loading an index (ask,
      // retrieve) never pays for PDF.js, micromark or htmlparser2.
      const { readPdf } = await import('./read-pdf.js');
      document = await readPdf(bytes);
    } catch (cause) {
      return new UnreadableFile('parse-error', `PDF could not be read: ${(cause as Error).message ?? String(cause)}`);
    }
  } else {
    if (bytes.includes(0)) return new UnreadableFile('binary', 'is binary (holds NUL bytes), not text');
    let source: string;
    try {
      source = utf8.decode(bytes);
    } catch {
      // POD that is not UTF-8 is in its `=encoding`, else CP-1252 (perlpodspec); other text must be UTF-8.
      const decoded = format === 'pod' ? decodePodBytes(bytes) : undefined;
      if (decoded === undefined) return new UnreadableFile('not-utf8', 'is not valid UTF-8 text');
      source = decoded;
    }
    source = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    if (source.trim() === '') return new UnreadableFile('empty', 'is empty');
    try {
      document = await readText(format, source);
    } catch (cause) {
      return new UnreadableFile('parse-error', `${format} could not be parsed: ${(cause as Error).message ?? String(cause)}`);
    }
  }
  if (document.text.trim() === '') return new UnreadableFile('empty', `holds no text (${format})`);
  document.outline.title ??= basename(path);
  return document;
}

/**
 * A POD file's bytes that are not UTF-8, decoded as perlpodspec says: in the encoding its `=encoding`
 * line names (when this runtime knows it; Latin-1 and CP-1252 as CP-1252, their common superset),
 * else CP-1252 (Latin-1 with the printable 0x80–0x9F).
 */
function decodePodBytes(bytes: Uint8Array): string {
  // Latin-1 reads every byte: the `=encoding` line is ASCII, and it is the base of CP-1252.
  const latin1 = new TextDecoder('latin1').decode(bytes);
  const declared = /^=encoding\s+(\S+)/m.exec(latin1)?.[1];
  if (declared && !/^(?:latin-?1|iso-?8859-1|iso_8859-1|cp-?1252|windows-1252)$/i.test(declared)) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // An encoding this runtime does not know: CP-1252, as for an undeclared one.
    }
  }
  return cp1252FromLatin1(latin1);
}

/** CP-1252's characters for the bytes 0x80–0x9F (Latin-1 has control characters there); undefined bytes stay as they are. */
const CP1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

/** CP-1252 from the bytes read as Latin-1, by hand: Node 20's TextDecoder gives Latin-1 for the label `windows-1252`. */
function cp1252FromLatin1(latin1: string): string {
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] as string);
}

async function readText(format: Exclude<DocumentFormat, 'json' | 'pdf'>, source: string): Promise<CleanDocument> {
  switch (format) {
    case 'markdown':
      return (await import('./read-markdown.js')).readMarkdown(source);
    case 'html':
      return (await import('./read-html.js')).readHtml(source);
    case 'rst':
      return (await import('./read-rst.js')).readRst(source);
    case 'pod':
      return (await import('./read-pod.js')).readPod(source);
    default:
      return { text: source.replace(/\s+$/, ''), outline: { format: 'text', lines: lineAnchors(source.replace(/\s+$/, '')) } };
  }
}
