/**
 * Format bench (issue 30): reads Debian documentation by path through readCorpusPath and prints,
 * per corpus, what was read and skipped, the reading time per MB, and the share of windows (1,600
 * characters, stride 800, as indexed) that still hold markup. With --plain DIR it also writes each
 * corpus's clean text as .txt files under DIR/<name>/ (for the build-time comparison that
 * scripts/bench-formats.sh runs with `mosaic index`).
 *
 *   npx tsx bench/formats-bench.ts NAME=PATH[,include=GLOB] ... [--plain DIR] [--json FILE]
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readCorpusPath } from '../src/index.js';
import { summarizeSkipped } from '../src/internal.js';
import { locateSpan } from '@mosaic/stage-utils';
import { segmentDocuments } from '../src/internal.js';

/** Markup that clean text must not hold, by the format it comes from. */
const MARKUP: Record<string, RegExp> = {
  'html tag':
    /<\/?(?:p|div|span|a|b|i|em|strong|code|pre|table|tr|td|th|li|ul|ol|dl|dt|dd|h[1-6]|br|img|script|style|body|head|html|meta|link|tt|sup|sub)(?=[\s/>])[^>\n]*>/i,
  'html entity': /&(?:amp|lt|gt|quot|nbsp|apos|#\d{2,5}|#x[0-9a-f]{2,4});/i,
  'md strong': /\*\*[^*\s](?:[^*\n]*[^*\s])?\*\*/,
  'md heading': /^#{1,6} \S/m,
  'md link': /\]\((?:https?:|\.{0,2}\/|#)[^)\s]*\)/,
  'md image': /!\[[^\]]*\]/,
  'md fence': /^\s*(?:```|~~~)/m,
  'md table rule': /^\s*\|?\s*:?-{3,}:?\s*\|/m,
  'rst directive': /^\s*\.\. [\w:-]+::/m,
  'rst role': /:[\w.+-]+(?::[\w.+-]+)*:`[^`\n]+`/,
  'rst literal': /``[^`\n]+``/,
  'rst reference': /`[^`\n]+`__?(?![\w])/,
  'rst target': /^\s*\.\. _[^:\n]+:/m,
  'rst adornment': /^([=\-~^"*+#])\1{5,}$/m,
  'pod command': /^=[a-zA-Z]\w*/m,
  'pod code': /\b[IBCLEFSXZ]<(?:<+\s|[^\s<>][^>\n]*>)/,
};

/** The markup checked in a window, by the format of its document (markup of another format is content, e.g. HTML in a reST page about html.parser). */
const CHECKED: Record<string, string[]> = {
  html: ['html tag', 'html entity'],
  markdown: ['md strong', 'md heading', 'md link', 'md image', 'md fence', 'md table rule', 'html tag', 'html entity'],
  rst: ['rst directive', 'rst role', 'rst literal', 'rst reference', 'rst target', 'rst adornment'],
  pod: ['pod command', 'pod code'],
  pdf: [],
  text: [],
};

interface CorpusSpec {
  name: string;
  path: string;
  include?: string[];
}

function parseArgs(argv: string[]): { corpora: CorpusSpec[]; plain?: string; json?: string } {
  const corpora: CorpusSpec[] = [];
  let plain: string | undefined;
  let json: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--plain') plain = argv[++i];
    else if (arg === '--json') json = argv[++i];
    else {
      const [head, ...options] = arg.split(',');
      const [name, path] = (head as string).split('=');
      const include = options.filter((o) => o.startsWith('include=')).map((o) => o.slice('include='.length));
      corpora.push({ name: name as string, path: path as string, ...(include.length > 0 ? { include } : {}) });
    }
  }
  return { corpora, plain, json };
}

const { corpora, plain, json } = parseArgs(process.argv.slice(2));
const results: unknown[] = [];
for (const spec of corpora) {
  const started = performance.now();
  const { documents, report } = await readCorpusPath({ path: spec.path, include: spec.include });
  const readMs = performance.now() - started;
  const { windows } = segmentDocuments({ documents, chunkSize: 1200, window: { size: 1600, stride: 800 } });
  const hits: Record<string, number> = {};
  const examples: Record<string, string> = {};
  // Every hit with its context (in --json only), to tell the reader's leftovers from markup the text shows.
  const hitList: string[] = [];
  let marked = 0;
  const formatOf = new Map(documents.map((d) => [d.id, d.outline?.format ?? 'text']));
  for (const window of windows) {
    let any = false;
    for (const kind of CHECKED[formatOf.get(window.documentId) ?? 'text'] ?? []) {
      const pattern = MARKUP[kind] as RegExp;
      const match = pattern.exec(window.text);
      if (match) {
        any = true;
        hits[kind] = (hits[kind] ?? 0) + 1;
        const context = `${window.documentId}: …${window.text.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40).replace(/\s+/g, ' ')}…`;
        examples[kind] ??= context;
        hitList.push(`[${kind}] ${context}`);
      }
    }
    if (any) marked++;
  }
  const outlines = new Map(documents.map((d) => [d.id, d.outline]));
  let located = 0;
  let inSection = 0;
  for (const window of windows) {
    const location = locateSpan(window.documentId, window.start, window.end, outlines.get(window.documentId));
    if (location.lines || location.pages) located++;
    if (location.section) inSection++;
  }
  const mb = report.bytes / 2 ** 20;
  const cleanChars = documents.reduce((sum, d) => sum + d.text.length, 0);
  const withSections = documents.filter((d) => (d.outline?.sections?.length ?? 0) > 0).length;
  const result = {
    corpus: spec.name,
    path: spec.path,
    read: report.read,
    byFormat: report.byFormat,
    skipped: report.skipped.length > 0 ? summarizeSkipped(report.skipped) : 'skipped 0',
    sourceMB: Number(mb.toFixed(2)),
    cleanMB: Number((cleanChars / 2 ** 20).toFixed(2)),
    readSeconds: Number((readMs / 1000).toFixed(2)),
    readSecondsPerMB: Number((readMs / 1000 / mb).toFixed(3)),
    documentsWithSections: withSections,
    windows: windows.length,
    windowsWithLineOrPageSpan: located,
    windowsInASection: inSection,
    windowsWithMarkup: marked,
    markupShare: `${((100 * marked) / Math.max(1, windows.length)).toFixed(2)} %`,
    hits,
    examples,
  };
  results.push({ ...result, hitList });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (plain) {
    const dir = join(plain, spec.name);
    await rm(dir, { recursive: true, force: true });
    for (const document of documents) {
      const path = join(dir, `${document.id}.txt`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, document.text);
    }
  }
}
if (json) await writeFile(json, `${JSON.stringify(results, null, 2)}\n`);
