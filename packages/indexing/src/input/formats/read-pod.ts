import { CleanTextBuilder, type CleanDocument } from './clean-text-builder.js';

/**
 * Perl's POD (perlpodspec), read into clean text the way `perldoc` shows it: `=headN` open
 * sections, ordinary paragraphs and `=item` texts are blocks with their formatting codes reduced
 * to their text (`C<$x>` → `$x`, `L<text|perlfunc/open>` → `text`, `E<gt>` → `>`), verbatim
 * (indented) paragraphs are kept as they are; `=over`, `=back`, `=pod`, `=cut`, `=encoding`,
 * `X<>` index entries and `=begin`/`=for` blocks for other formatters (html, man, latex) are
 * dropped. Only what lies between a command and `=cut` is POD: the code of a `.pm` file around it
 * is not read. A file without a single POD command is read as plain paragraphs. The title is
 * the text of the NAME section (`perlfunc - Perl builtin functions`), else the first heading.
 * Every output line keeps its source line.
 */
export function readPod(source: string): CleanDocument {
  const lines = source.split(/\r?\n/);
  const out = new CleanTextBuilder();
  const hasCommands = lines.some((line) => COMMAND.test(line));
  let inPod = !hasCommands;
  /** Inside `=begin FORMAT` … `=end FORMAT` for another formatter: the format name, else undefined. */
  let skipping: string | undefined;
  let title: string | undefined;
  let inName = false;

  let i = 0;
  while (i < lines.length) {
    // A paragraph: the lines up to the next blank (or whitespace-only) line.
    if (isBlank(lines[i] as string)) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < lines.length && !isBlank(lines[i] as string)) i += 1;
    const paragraph = lines.slice(start, i);
    const first = paragraph[0] as string;
    const command = COMMAND.exec(first);
    if (!inPod) {
      // Code before or between POD blocks: a command starts POD (`=cut` only ends it).
      if (!command || command[1] === 'cut') continue;
      inPod = true;
    }
    if (command) {
      const name = command[1] as string;
      // The command's text: the rest of its first line and the paragraph's other lines (`raw` keeps
      // its line breaks, so that each piece keeps its source line).
      const raw = [first.slice(command[0].length), ...paragraph.slice(1)].join('\n');
      const text = raw.trim();
      if (skipping !== undefined) {
        if (name === 'end' && text.split(/\s+/)[0] === skipping) skipping = undefined;
        continue;
      }
      if (name === 'cut') {
        inPod = false;
        continue;
      }
      const heading = /^head([1-6])$/.exec(name);
      if (heading) {
        const shown = reduceFormatting(text).replace(/\s+/g, ' ').trim();
        out.heading(Number(heading[1]), shown, start + 1);
        inName = shown.toUpperCase() === 'NAME';
        continue;
      }
      if (name === 'item') {
        out.endBlock();
        // `=item *` and `=item 1.` are list markers: the paragraphs after them are the item. Any other text is the item's term.
        const term = raw.replace(/^(\s*)(?:\*|\d+\.?)(?=\s|$)/, '$1');
        if (term.trim() !== '') out.text(reduceFormatting(term), start + 1, PARAGRAPH);
        out.endBlock();
        continue;
      }
      if (name === 'begin') {
        const format = text.split(/\s+/)[0] ?? '';
        if (!isTextFormat(format)) skipping = format;
        continue;
      }
      if (name === 'for') {
        const [format = '', ...rest] = text.split(/\s+/);
        if (isTextFormat(format) && rest.length > 0) {
          out.endBlock();
          out.text(reduceFormatting(rest.join(' ')), start + 1);
          out.endBlock();
        }
        continue;
      }
      // =over, =back, =pod, =encoding, =end of a text block, and commands this reader does not know: no text.
      out.endBlock();
      continue;
    }
    if (skipping !== undefined) continue;
    out.endBlock();
    if (/^\s/.test(first)) {
      // Verbatim: kept line by line (each '\n' is the next source line), dedented by the paragraph's smallest indent, no formatting codes.
      const expanded = paragraph.map((line) => line.replace(/\t/g, '        ').trimEnd());
      const cut = Math.min(...expanded.map((line) => line.length - line.trimStart().length));
      out.text(expanded.map((line) => line.slice(cut)).join('\n'), start + 1);
    } else {
      const reduced = reduceFormatting(paragraph.join('\n'));
      out.text(reduced, start + 1, PARAGRAPH);
      if (inName && title === undefined) title = reduced.replace(/\s+/g, ' ').trim();
    }
    out.endBlock();
  }
  return out.build({ format: 'pod', ...(title ? { title } : {}) });
}

/** A POD command line: `=` and an identifier at the start of the line. */
const COMMAND = /^=([a-zA-Z][a-zA-Z0-9]*)/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Formats whose `=begin`/`=for` blocks are text for every reader (`text`, or a `:`-prefixed format: POD to be read). */
function isTextFormat(format: string): boolean {
  return format === 'text' || format.startsWith(':');
}

/**
 * How a paragraph's reduced text is written: white space collapsed (a paragraph is reflowed, as
 * perldoc shows it), each source line's piece anchored at its own line (the reduced text keeps the
 * source's line breaks).
 */
const PARAGRAPH = { collapse: true, lineStep: 1 } as const;

/** Named `E<…>` escapes beyond `lt`, `gt`, `verbar` and `sol` (perlpodspec: the HTML entity names). */
const ENTITIES: Record<string, string> = {
  lt: '<',
  gt: '>',
  verbar: '|',
  sol: '/',
  amp: '&',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  laquo: '«',
  raquo: '»',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  agrave: 'à',
  ouml: 'ö',
  uuml: 'ü',
  auml: 'ä',
  szlig: 'ß',
  ccedil: 'ç',
  ntilde: 'ñ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  times: '×',
  micro: 'µ',
  para: '¶',
  sect: '§',
  deg: '°',
  plusmn: '±',
};

function entity(name: string): string {
  const trimmed = name.trim();
  const numeric = /^(0x[0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(trimmed);
  if (numeric) {
    const value = trimmed.startsWith('0x')
      ? Number.parseInt(trimmed.slice(2), 16)
      : trimmed.startsWith('0') && trimmed.length > 1
        ? Number.parseInt(trimmed, 8)
        : Number(trimmed);
    return value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : '';
  }
  return ENTITIES[trimmed] ?? trimmed;
}

/** `L<…>`'s text as perldoc shows it: the text before `|`, else `"sec" in name`, `"sec"`, or the name / URL. */
function linkText(content: string): string {
  const bar = content.indexOf('|');
  if (bar >= 0) return content.slice(0, bar);
  if (/^[a-z][a-z0-9+.-]*:[^:\s]/i.test(content)) return content; // a URL
  const slash = content.indexOf('/');
  if (slash < 0) return content.startsWith('"') ? content.replace(/^"|"$/g, '') : content;
  const page = content.slice(0, slash).trim();
  const section = content
    .slice(slash + 1)
    .trim()
    .replace(/^"|"$/g, '');
  return page === '' ? `"${section}"` : `"${section}" in ${page}`;
}

/**
 * POD formatting codes reduced to their text: `I<>`, `B<>`, `C<>`, `F<>`, `S<>` keep it, `X<>`
 * and `Z<>` drop it, `E<>` becomes its character, `L<>` its text (`linkText`). Codes nest, and
 * `C<< … >>` (two or more brackets, with a space inside each) may hold `>`. An unclosed code stays
 * as written. Line breaks inside a code are kept, so every line keeps its source line.
 */
export function reduceFormatting(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const letter = text[i] as string;
    if (letter >= 'A' && letter <= 'Z' && text[i + 1] === '<') {
      const code = readCode(text, i);
      if (code) {
        out += apply(letter, code.content) + '\n'.repeat(code.lostBreaks);
        i = code.end;
        continue;
      }
    }
    out += letter;
    i += 1;
  }
  return out;
}

/** The code starting at `at` (a capital letter then `<`): its raw content and where it ends, or undefined when it is not closed. */
function readCode(text: string, at: number): { content: string; end: number; lostBreaks: number } | undefined {
  let open = at + 1;
  while (text[open] === '<') open += 1;
  const brackets = open - (at + 1);
  if (brackets >= 2 && /\s/.test(text[open] ?? '')) {
    // `C<< … >>`: the content ends at whitespace followed by as many `>`.
    const closing = new RegExp(`\\s>{${brackets}}`, 'g');
    closing.lastIndex = open;
    const found = closing.exec(text);
    if (!found) return undefined;
    // The whitespace just inside the brackets is not content; a line break there is kept after the code.
    const lostBreaks = (text[open] === '\n' ? 1 : 0) + (text[found.index] === '\n' ? 1 : 0);
    return { content: text.slice(open + 1, found.index), end: found.index + found[0].length, lostBreaks };
  }
  // One bracket (or several without the space: read as one): a nested code is skipped whole (it may be
  // `C<< … >>`, holding `>`), and the first `>` outside one closes.
  const start = at + 2;
  for (let j = start; j < text.length; ) {
    const c = text[j] as string;
    if (c >= 'A' && c <= 'Z' && text[j + 1] === '<') {
      const inner = readCode(text, j);
      j = inner ? inner.end : j + 2;
      continue;
    }
    if (c === '>') return { content: text.slice(start, j), end: j + 1, lostBreaks: 0 };
    j += 1;
  }
  return undefined;
}

function apply(letter: string, content: string): string {
  const breaks = '\n'.repeat((content.match(/\n/g) ?? []).length);
  switch (letter) {
    case 'X':
    case 'Z':
      return breaks;
    case 'E':
      return entity(content) + breaks;
    case 'L': {
      const shown = reduceFormatting(linkText(content));
      return shown + '\n'.repeat(Math.max(0, breaks.length - (shown.match(/\n/g) ?? []).length));
    }
    default:
      return reduceFormatting(content);
  }
}
