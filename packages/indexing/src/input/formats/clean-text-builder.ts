import type { DocumentFormat, DocumentOutline, DocumentSection } from '@mosaic/spec';

/** A document's clean text and its outline, as a reader produces them. */
export interface CleanDocument {
  text: string;
  outline: DocumentOutline;
}

/**
 * Builds a document's clean text block by block (paragraphs separated by a blank line) while
 * recording where each piece came from: `[offset, source line]` (or page) anchors and the
 * sections opened by headings (their heading trail, from the heading to the next heading of
 * the same or a higher level). The format readers feed it; none of them assembles offsets itself.
 */
export class CleanTextBuilder {
  readonly #parts: string[] = [];
  #length = 0;
  readonly #lines: Array<[number, number]> = [];
  readonly #pages: Array<[number, number]> = [];
  readonly #sections: DocumentSection[] = [];
  /** Open headings, outermost first: level and title. */
  readonly #trail: Array<{ level: number; title: string }> = [];
  #firstHeading: { level: number; title: string } | undefined;
  /** True when the current block already holds text. */
  #inBlock = false;
  /** Pending separator before the next text: '' inside a block, '\n' after a line break. */
  #pendingBreak = '';
  /** Whether the last character written was whitespace (for collapsing). */
  #lastSpace = true;

  get length(): number {
    return this.#length;
  }

  #write(value: string): void {
    if (value === '') return;
    this.#parts.push(value);
    this.#length += value.length;
    this.#lastSpace = /\s$/.test(value);
  }

  #anchor(line: number | undefined): void {
    if (line === undefined || !Number.isFinite(line)) return;
    const last = this.#lines[this.#lines.length - 1];
    if (last && last[0] === this.#length) last[1] = line;
    else if (!last || last[1] !== line) this.#lines.push([this.#length, line]);
  }

  #startText(): void {
    if (!this.#inBlock) {
      if (this.#length > 0) this.#write('\n\n');
      this.#inBlock = true;
      this.#pendingBreak = '';
    } else if (this.#pendingBreak !== '') {
      this.#write(this.#pendingBreak);
      this.#pendingBreak = '';
    }
  }

  /**
   * Append text to the current block. `line` is the source line of its first character; each
   * '\n' inside `value` moves to the next source line (pass `lineStep: 0` when the newlines are
   * not the source's). With `collapse`, runs of whitespace become one space (HTML text), and the
   * text is anchored at `line` only, unless `lineStep: 1` is given explicitly: then the text after
   * each '\n' of `value` is anchored at its own source line, so that a sentence in the middle of a
   * paragraph spread over several source lines is located on its line, not the paragraph's first.
   */
  text(value: string, line?: number, options: { collapse?: boolean; lineStep?: 0 | 1 } = {}): void {
    let content = value;
    if (options.collapse && options.lineStep === 1 && line !== undefined && value.includes('\n')) {
      // Each source line's piece, collapsed as the whole would be: the '\n' before it is whitespace.
      const first = line;
      value.split('\n').forEach((piece, index) => {
        this.text(index === 0 ? piece : ` ${piece}`, first + index, { collapse: true, lineStep: 0 });
      });
      return;
    }
    if (options.collapse) {
      content = content.replace(/\s+/g, ' ');
      if (this.#lastSpace || !this.#inBlock || this.#pendingBreak !== '') content = content.replace(/^ /, '');
      if (content === '') return;
    } else if (!this.#inBlock) {
      if (content.trim() === '') return;
      // A block starts at its first line of text (an HTML <pre> starts with a line break).
      const leading = /^[ \t]*\n/.exec(content);
      if (leading) {
        const breaks = (content.match(/^\s*\n/)?.[0].match(/\n/g) ?? []).length;
        content = content.replace(/^\s*\n/, '');
        if (line !== undefined && (options.lineStep ?? 1) === 1) line += breaks;
      }
    }
    this.#startText();
    const step = options.lineStep ?? 1;
    if (line === undefined || step === 0 || !content.includes('\n')) {
      this.#anchor(line);
      this.#write(content);
      return;
    }
    const pieces = content.split('\n');
    pieces.forEach((piece, index) => {
      if (index > 0) this.#write('\n');
      this.#anchor(line + index);
      this.#write(piece);
    });
  }

  /** A line break inside the current block (written only if more text follows in the block). */
  lineBreak(): void {
    if (this.#inBlock) this.#pendingBreak = '\n';
  }

  /** A separator inside the current block (e.g. between table cells), written only between texts. */
  separator(value: string): void {
    if (this.#inBlock && this.#pendingBreak === '') this.#pendingBreak = value;
  }

  /** Close the current block: the next text starts a new paragraph. */
  endBlock(): void {
    if (this.#inBlock) {
      // Trim the block's trailing spaces (collapsed HTML text often ends with one).
      const last = this.#parts[this.#parts.length - 1];
      if (last !== undefined && /\s+$/.test(last)) {
        const trimmed = last.replace(/\s+$/, '');
        this.#length -= last.length - trimmed.length;
        this.#parts[this.#parts.length - 1] = trimmed;
        // Anchors of text that was trimmed away anchor nothing.
        while (this.#lines.length > 1 && (this.#lines[this.#lines.length - 1] as [number, number])[0] >= this.#length) this.#lines.pop();
      }
    }
    this.#inBlock = false;
    this.#pendingBreak = '';
    this.#lastSpace = true;
  }

  /**
   * A heading of `level` (1 = outermost): closes the sections at that level and deeper, writes
   * the heading as its own block and opens a section at it with the heading trail as its path.
   */
  heading(level: number, title: string, line?: number): void {
    const clean = title.replace(/\s+/g, ' ').trim();
    this.endBlock();
    if (clean === '') return;
    this.#firstHeading ??= { level, title: clean };
    if (this.#firstHeading.level > level) this.#firstHeading = { level, title: clean };
    while (this.#trail.length > 0 && (this.#trail[this.#trail.length - 1] as { level: number }).level >= level) this.#trail.pop();
    this.#trail.push({ level, title: clean });
    if (this.#length > 0) this.#write('\n\n');
    this.#closeOpenSection();
    this.#sections.push({ path: this.#trail.map((h) => h.title), start: this.#length, end: -1 });
    this.#anchor(line);
    this.#write(clean);
    this.#inBlock = false;
    this.#lastSpace = true;
  }

  #closeOpenSection(): void {
    const open = this.#sections[this.#sections.length - 1];
    if (open && open.end === -1) open.end = this.#trimmedEnd();
  }

  #trimmedEnd(): number {
    let end = this.#length;
    for (let i = this.#parts.length - 1; i >= 0; i--) {
      const part = this.#parts[i] as string;
      const trimmed = part.replace(/\s+$/, '');
      end -= part.length - trimmed.length;
      if (trimmed.length > 0) break;
    }
    return end;
  }

  /** Offset where the next text will start. */
  #nextStart(): number {
    if (this.#inBlock) return this.#length + this.#pendingBreak.length;
    return this.#length === 0 ? 0 : this.#length + 2;
  }

  /** The titles of the headings enclosing the next text, outermost first. */
  get headingTrail(): string[] {
    return this.#trail.map((heading) => heading.title);
  }

  /**
   * Open a section at the next text without writing a heading (PDF bookmarks; with `entry`, an entry
   * described inside a section, see DocumentSection). `rename` sets its path later.
   */
  section(path: string[], options: { entry?: boolean } = {}): { rename(path: string[]): void } {
    this.endBlock();
    this.#closeOpenSection();
    const section: DocumentSection = { path, start: this.#nextStart(), end: -1, ...(options.entry ? { entry: true } : {}) };
    this.#sections.push(section);
    // Its path can be given once its name is read (an HTML entry is named by the term that opens it).
    return {
      rename(renamed: string[]) {
        section.path = renamed;
      },
    };
  }

  /** Text from here on comes from page `page` (1-based). */
  page(page: number): void {
    this.endBlock();
    const at = this.#nextStart();
    const last = this.#pages[this.#pages.length - 1];
    if (last && last[0] === at) last[1] = page;
    else this.#pages.push([at, page]);
  }

  /** The first heading of the outermost level seen, if any. */
  get firstHeading(): string | undefined {
    return this.#firstHeading?.title;
  }

  /** The clean text (trailing whitespace removed) and its outline. */
  build(meta: { format: DocumentFormat; title?: string }): CleanDocument {
    this.endBlock();
    this.#closeOpenSection();
    const text = this.#parts.join('').replace(/\s+$/, '');
    const within = <T extends [number, number]>(anchors: T[]) => anchors.filter(([offset]) => offset < text.length || offset === 0);
    const outline: DocumentOutline = { format: meta.format };
    const title = meta.title ?? this.firstHeading;
    if (title) outline.title = title;
    const sections = this.#sections.map((s) => ({ ...s, end: Math.min(s.end, text.length) })).filter((s) => s.end > s.start);
    if (sections.length > 0) outline.sections = sections;
    const lines = within(this.#lines);
    if (lines.length > 0) outline.lines = lines;
    const pages = within(this.#pages);
    if (pages.length > 0) outline.pages = pages;
    return { text, outline };
  }
}

/** Offsets of every line start of `source`, for mapping a character index to its 1-based line. */
export function lineStarts(source: string): number[] {
  const starts = [0];
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/** The 1-based line of character `index`, given `lineStarts(source)`. */
export function lineOfIndex(starts: readonly number[], index: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((starts[middle] as number) <= index) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
