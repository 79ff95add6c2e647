import { CleanTextBuilder, type CleanDocument } from './clean-text-builder.js';

/** Directives dropped with their arguments, options and body (no reader-facing text). */
const DROPPED = new Set([
  'toctree',
  'index',
  'include',
  'literalinclude',
  'raw',
  'highlight',
  'highlightlang',
  'sectionauthor',
  'moduleauthor',
  'codeauthor',
  'testsetup',
  'testcleanup',
  'image',
  'tabularcolumns',
  'contents',
  'meta',
  'cssclass',
  'rst-class',
  'default-role',
  'default-domain',
  'currentmodule',
  'py:currentmodule',
  'c:namespace',
  'sectnum',
  'header',
  'footer',
  'audit-event',
  'audit-event-table',
  'impl-detail-placeholder',
  'role',
  'title',
  'target-notes',
  'program',
  'option-list',
  'availability',
  'miscnews',
  'limited-api-list',
  'unicode',
]);
/** Directives whose body is verbatim text (kept as it is, dedented). */
const VERBATIM = new Set([
  'code-block',
  'code',
  'sourcecode',
  'doctest',
  'testcode',
  'testoutput',
  'productionlist',
  'parsed-literal',
  'math',
  'highlight-block',
]);
/**
 * Directives whose arguments are a file name, a URL or a condition, not text. (`class` is not one: in
 * Sphinx, where docutils' class directive is `rst-class`, it describes a Python class.)
 */
const ARGUMENTS_DROPPED = new Set(['figure', 'csv-table', 'list-table', 'only', 'ifconfig', 'container', 'compound', 'tabs', 'tab']);
/**
 * Object descriptions (Sphinx's Python, C and standard domains): each is an entry section of its own
 * (`DocumentSection.entry`), named by its signature and nested in the section (and the object) it is
 * described in, until its body ends, as Sphinx gives each an anchor of its own ("Built-in Functions ›
 * zip(*iterables, strict=False)"). Chunks are not cut at entries.
 */
const OBJECT_DESCRIPTIONS = new Set([
  'function',
  'method',
  'classmethod',
  'staticmethod',
  'abstractmethod',
  'coroutinefunction',
  'coroutinemethod',
  'awaitablefunction',
  'awaitablemethod',
  'decorator',
  'decoratormethod',
  'class',
  'exception',
  'attribute',
  'property',
  'data',
  'member',
  'macro',
  'type',
  'var',
  'struct',
  'enum',
  'enumerator',
  'describe',
  'object',
  'envvar',
  'option',
  'cmdoption',
  'opcode',
  'pdbcommand',
  '2to3fixer',
]);
/** The words Sphinx prints for these directives. */
const LABELS: Record<string, string> = {
  note: 'Note',
  warning: 'Warning',
  seealso: 'See also',
  tip: 'Tip',
  important: 'Important',
  hint: 'Hint',
  caution: 'Caution',
  danger: 'Danger',
  error: 'Error',
  attention: 'Attention',
  todo: 'Todo',
  versionadded: 'New in version',
  versionchanged: 'Changed in version',
  deprecated: 'Deprecated since version',
  'deprecated-removed': 'Deprecated since version',
  'impl-detail': 'CPython implementation detail',
};

const ADORNMENT = /^([!-/:-@[-`{-~])\1+\s*$/;
const DIRECTIVE = /^\.\.\s+(?:\|[^|]+\|\s+)?([\w:.+-]+)::(?:\s+(.*))?$/;
const BULLET = /^(?:[*+\-•‣⁃]|\d+[.)]|#\.|\(?[a-zA-Z0-9]{1,3}\)|[a-zA-Z#][.)])\s+/;

interface Line {
  /** 1-based source line. */
  number: number;
  indent: number;
  content: string;
}

/**
 * reStructuredText to clean text, reduced line by line (there is no maintained JavaScript reST
 * parser; see ARCHITECTURE): section titles (underlined, optionally overlined; levels in order of
 * first appearance) open sections; paragraphs and list items become blocks; literal blocks
 * (`::`) and code directives keep their text; directives keep their arguments and body as text
 * (admonitions and version notes with the word Sphinx prints) and lose their options;
 * `toctree`, `index`, `include`, `raw`, images, comments, targets and substitution definitions
 * are dropped; roles (`:meth:`~a.b``), interpreted text, hyperlink references, emphasis, strong
 * and inline literals are reduced to their text. Every output line keeps its source line.
 */
export function readRst(source: string): CleanDocument {
  const lines: Line[] = source.split(/\r?\n/).map((raw, index) => {
    const expanded = raw.replace(/\t/g, '        ');
    const content = expanded.trimStart();
    return { number: index + 1, indent: expanded.length - content.length, content: content.trimEnd() };
  });
  const out = new CleanTextBuilder();
  const styles: string[] = [];
  const levelOf = (style: string) => {
    if (!styles.includes(style)) styles.push(style);
    return styles.indexOf(style) + 1;
  };
  /** Skip lines indented deeper than `base` (and blank lines) from `i`; returns the next index. */
  const skipBlock = (i: number, base: number) => {
    while (i < lines.length && ((lines[i] as Line).content === '' || (lines[i] as Line).indent > base)) i++;
    return i;
  };
  /** Keep lines indented deeper than `base` verbatim (dedented); returns the next index. */
  const verbatim = (i: number, base: number) => {
    const end = skipBlock(i, base);
    let last = end;
    while (last > i && (lines[last - 1] as Line).content === '') last--;
    const body = lines.slice(i, last);
    const cut = Math.min(...body.filter((l) => l.content !== '').map((l) => l.indent));
    out.endBlock();
    body.forEach((line, index) => {
      if (index > 0) out.lineBreak();
      if (line.content !== '') out.text(' '.repeat(line.indent - cut) + line.content, line.number);
      else out.lineBreak();
    });
    out.endBlock();
    return end;
  };

  // The object descriptions being read (innermost last), each with the indent of its directive.
  const objects: Array<{ indent: number; title: string }> = [];
  /** The section at the next text: the heading trail and the objects being described. */
  const openObjectSection = () => out.section([...out.headingTrail, ...objects.map((object) => object.title)], { entry: true });
  /** A line at or left of an object's directive ends its body: the enclosing section goes on (as an entry: no new part of the outline). */
  const endObjects = (line: Line) => {
    let ended = false;
    while (objects.length > 0 && line.indent <= (objects[objects.length - 1] as { indent: number }).indent) {
      objects.pop();
      ended = true;
    }
    if (ended) openObjectSection();
  };
  /** A section title ends every object description. */
  const heading = (level: number, title: string, line: number) => {
    objects.length = 0;
    out.heading(level, title, line);
  };

  let i = 0;
  let literalNext = false; // the paragraph just ended with '::'
  let paragraphIndent = 0;
  // The lines of the paragraph being read: inline markup is reduced over the whole paragraph, as
  // a role or a reference may span a line break; each line keeps its source line.
  let paragraph: Array<{ content: string; number: number }> = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const reduced = reduceInline(paragraph.map((p) => p.content).join('\n')).split('\n');
    reduced.forEach((piece, index) => {
      out.lineBreak();
      if (piece.trim() !== '') out.text(piece, (paragraph[index] ?? paragraph[paragraph.length - 1])?.number);
    });
    paragraph = [];
  };
  while (i < lines.length) {
    const line = lines[i] as Line;
    const next = lines[i + 1];
    if (line.content === '' || line.indent !== paragraphIndent) flush();
    if (line.content !== '') endObjects(line);
    if (line.content === '') {
      out.endBlock();
      if (literalNext) {
        let j = i;
        while (j < lines.length && (lines[j] as Line).content === '') j++;
        literalNext = false;
        if (j < lines.length && (lines[j] as Line).indent > paragraphIndent) {
          i = verbatim(j, paragraphIndent);
          continue;
        }
      }
      i++;
      continue;
    }
    // Section title with an overline.
    const after = lines[i + 2];
    if (line.indent === 0 && ADORNMENT.test(line.content) && next && after && next.content !== '' && after.content === line.content) {
      flush();
      heading(levelOf(`${line.content[0]}o`), reduceInline(next.content), next.number);
      i += 3;
      continue;
    }
    // Section title with an underline only.
    if (
      line.indent === 0 &&
      next &&
      next.indent === 0 &&
      ADORNMENT.test(next.content) &&
      !ADORNMENT.test(line.content) &&
      next.content.length >= visibleLength(line.content) &&
      !line.content.startsWith('.. ')
    ) {
      flush();
      heading(levelOf(next.content[0] as string), reduceInline(line.content), line.number);
      i += 2;
      continue;
    }
    // Transitions and table borders.
    if (ADORNMENT.test(line.content) || /^\+[-=+]+\+$/.test(line.content) || /^=+( +=+)+$/.test(line.content) || /^-+( +-+)+$/.test(line.content)) {
      flush();
      out.endBlock();
      i++;
      continue;
    }
    if (line.content.startsWith('..')) {
      flush();
      i = explicitMarkup(i, line);
      continue;
    }
    if (/^__ /.test(line.content)) {
      flush();
      i = skipBlock(i + 1, line.indent);
      continue;
    }
    // Grid table rows and line blocks.
    if (/^\|.*\|$/.test(line.content) && line.content.length > 1) {
      flush();
      out.endBlock();
      const cells = line.content
        .slice(1, -1)
        .split('|')
        .map((cell) => reduceInline(cell.trim().replace(/^\.\.\s+[\w:.+-]+::\s*/, '')))
        .filter((cell) => cell !== '');
      cells.forEach((cell, index) => {
        if (index > 0) out.separator('\t');
        out.text(cell, line.number);
      });
      out.endBlock();
      i++;
      continue;
    }
    let content = line.content.replace(/^\|\s+/, '');
    const bullet = BULLET.exec(content);
    if (bullet) {
      flush();
      out.endBlock();
      content = content.slice(bullet[0].length);
      if (/^\.\.\s+_[^:]*:\s*$/.test(content)) {
        // A hyperlink target at the start of a list item: dropped, the item goes on.
        i++;
        continue;
      }
    } else content = content.replace(/^:([^:`]+):(\s+|$)/, (_, name: string) => `${name}: `);
    if (content.startsWith('>>> ')) {
      flush();
      out.endBlock();
    }
    paragraphIndent = bullet ? line.indent + bullet[0].length : line.indent;
    if (/::$/.test(content)) {
      literalNext = true;
      content = content.replace(/\s*::$/, content.trim() === '::' ? '' : ':');
    }
    paragraph.push({ content, number: line.number });
    i++;
    if (literalNext && lines[i] && (lines[i] as Line).content !== '') {
      // A literal block needs a blank line first; without one the paragraph goes on.
      literalNext = false;
    }
  }
  flush();
  return out.build({ format: 'rst' });

  /** `.. ` constructs: directives, comments, targets, footnotes, substitution definitions. */
  function explicitMarkup(i: number, line: Line): number {
    out.endBlock();
    const directive = DIRECTIVE.exec(line.content);
    if (!directive) {
      const footnote = /^\.\.\s+\[[^\]]+\]\s+(.*)$/.exec(line.content);
      if (footnote) {
        out.text(reduceInline(footnote[1] as string), line.number);
        return i + 1;
      }
      // Comment, hyperlink target or substitution definition without a directive: dropped.
      return skipBlock(i + 1, line.indent);
    }
    const name = (directive[1] as string).toLowerCase();
    const bare = name.replace(/^(py|c|cpp|js|std|rst):/, '');
    const args = directive[2] ?? '';
    if (DROPPED.has(name) || DROPPED.has(bare) || line.content.startsWith('.. |')) return skipBlock(i + 1, line.indent);
    let j = i + 1;
    // Options: `:name: value` lines right after the directive line.
    while (j < lines.length && (lines[j] as Line).indent > line.indent && /^:[\w-]+:/.test((lines[j] as Line).content)) j++;
    if (VERBATIM.has(bare)) {
      while (j < lines.length && (lines[j] as Line).content === '') j++;
      return j < lines.length && (lines[j] as Line).indent > line.indent ? verbatim(j, line.indent) : j;
    }
    const label = LABELS[bare];
    const shown = ARGUMENTS_DROPPED.has(bare) ? '' : reduceInline(args);
    if (OBJECT_DESCRIPTIONS.has(bare) && shown.trim() !== '') {
      objects.push({ indent: line.indent, title: shown.replace(/\s+/g, ' ').trim() });
      openObjectSection();
    }
    const text = [label, shown].filter((part) => part && part.trim() !== '').join(' ');
    if (text !== '') {
      out.text(label && shown === '' ? `${text}:` : text, line.number);
      out.endBlock();
    }
    return j;
  }
}

function visibleLength(text: string): number {
  return [...text].length;
}

/** The text of a role's content: `title <target>` → title, `~a.b.c` → c, `!x` → x. */
function roleText(body: string): string {
  const titled = /^([\s\S]*?\S)\s*<[^<>]*>$/.exec(body);
  if (titled) return titled[1] as string;
  let text = body.replace(/^!/, '');
  if (text.startsWith('~')) text = text.slice(1).split('.').pop() ?? text;
  return text;
}

type Rule = [RegExp, (...groups: string[]) => string];
const protect = (literal: string) => literal.replace(/[`*:|_\\]/g, (c) => `\uE000${c.charCodeAt(0)}\uE000`);
/** The inline rules, in order; each replacement is given the match's groups. */
const INLINE_RULES: Rule[] = [
  // Inline literals first: their content is not markup.
  [/``([\s\S]+?)``/g, (_, literal) => protect(literal as string)],
  [/(?::[\w.+-]+)+:`((?:\\.|[^`])+)`/g, (_, body) => roleText(body as string)],
  [/`((?:\\.|[^`])+)`(?::[\w.+-]+)+:/g, (_, body) => roleText(body as string)],
  [/`([^`]*?)\s*<[^`<>]*>`__?/g, (_, title) => title as string],
  [/`([^`]+)`__?/g, (_, title) => title as string],
  [/`([^`]+)`/g, (_, body) => roleText(body as string)],
  [/\*\*(\S(?:[^*]*\S)?)\*\*/g, (_, strong) => strong as string],
  [/(^|[\s("'[{<\-/:])\*(\S(?:[^*]*\S)?)\*(?=$|[\s)"'\]}>\-/:.,;!?\\])/gm, (_, before, em) => `${before}${em}`],
  [/\s?\[(?:\d+|#[\w-]*|\*|[A-Za-z][\w.-]*)\]_/g, () => ''],
  [/\|([^|\s](?:[^|\n]*[^|\s])?)\|_{0,2}/g, (_, name) => name as string],
  [/(^|[\s(])([A-Za-z][A-Za-z0-9-]*)__?(?=$|[\s).,;:!?])/gm, (_, before, word) => `${before}${word}`],
  [/\\ /g, () => ''],
  [/\\(.)/g, (_, c) => c as string],
  [/\uE000(\d+)\uE000/g, (_, code) => String.fromCharCode(Number(code))],
];

const newlines = (text: string) => {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

/**
 * Reduce reST inline markup to its text. A construct that spans line breaks (a role wrapped
 * over two lines) keeps them: the breaks it loses are written after its text, so the reduced
 * text has as many lines as the source and each keeps its source line.
 */
export function reduceInline(text: string): string {
  let result = text;
  for (const [pattern, replace] of INLINE_RULES) {
    result = result.replace(pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      const groups = args.slice(0, -2).map((g) => (g === undefined ? '' : String(g)));
      const replaced = replace(...groups);
      const lost = newlines(match) - newlines(replaced);
      return lost > 0 ? replaced + '\n'.repeat(lost) : replaced;
    });
  }
  return result;
}
