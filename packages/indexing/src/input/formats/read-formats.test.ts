import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locateSpan } from '@mosaic/stage-utils';
import type { DocumentOutline } from '@mosaic/spec';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../__fixtures__/formats/make-pdf.js';
import { formatOfFile, readDocumentBytes, UnreadableFile } from './read-document.js';
import { reduceFormatting } from './read-pod.js';
import { reduceInline } from './read-rst.js';

const FIXTURES = join(import.meta.dirname, '..', '__fixtures__', 'formats');

/** A document read from `bytes` (named `name`), and `locate`: where a phrase of its clean text sits. */
async function readNamed(name: string, bytes: Uint8Array) {
  const result = await readDocumentBytes(name, bytes);
  if (result instanceof UnreadableFile) throw new Error(`${name}: ${result.message}`);
  const locate = (phrase: string) => {
    const start = result.text.indexOf(phrase);
    expect(start, `"${phrase}" in the clean text`).toBeGreaterThanOrEqual(0);
    return locateSpan(name, start, start + phrase.length, result.outline as DocumentOutline);
  };
  return { ...result, locate };
}

/** A document given as source text. */
const readSource = (name: string, source: string) => readNamed(name, Buffer.from(source));

/** A fixture file, and `at`: where a phrase of its clean text sits and the source line that holds it. */
async function read(name: string) {
  const path = join(FIXTURES, name);
  const result = await readNamed(name, await readFile(path));
  const source = await readFile(path, 'utf8');
  const at = (phrase: string) => ({ location: result.locate(phrase), sourceLine: source.split('\n').findIndex((line) => line.includes(phrase)) + 1 });
  return { ...result, at };
}

describe('Markdown (mdast + GFM)', () => {
  it('gives clean text, the title, sections with heading trails and source lines', async () => {
    const doc = await read('guide.md');
    expect(doc.outline).toMatchObject({ format: 'markdown', title: 'Zephyr toolkit' });
    expect(doc.text).not.toMatch(/\*\*|^#|\]\(|\|---|<b>|```/m);
    expect(doc.text).toContain('The Zephyr toolkit renders maps from survey data.');
    expect(doc.text).toContain('Platform\tPackage\n\nDebian\tzephyr-tools');
    expect(doc.text).toContain('apt-get install zephyr-tools');
    expect(doc.text).toContain('released under the MIT licence');
    expect(doc.outline.sections?.map((s) => s.path)).toEqual([
      ['Zephyr toolkit'],
      ['Zephyr toolkit', 'Installing'],
      ['Zephyr toolkit', 'Installing', 'On Debian'],
      ['Zephyr toolkit', 'Licensing'],
    ]);
    const lines: Record<string, number> = { 'Run zephyr install': 7, 'apt-get install zephyr-tools': 17, macOS: 12, 'renders maps': 3 };
    for (const [phrase, line] of Object.entries(lines)) {
      expect(doc.at(phrase).location.lines, phrase).toEqual({ start: line, end: line });
    }
    expect(doc.at('apt-get install zephyr-tools').location.section).toEqual(['Zephyr toolkit', 'Installing', 'On Debian']);
  });

  it('reads a real README (Underscore.js, from Debian) without markup', async () => {
    const doc = await read('underscore-README.md');
    expect(doc.outline.format).toBe('markdown');
    expect(doc.text).not.toMatch(/\]\(http|^#{1,6} |\*\*/m);
    expect(doc.text).toContain('Underscore.js is a utility-belt library for JavaScript');
    const { location, sourceLine } = doc.at('Underscore.js is a utility-belt library');
    expect(location.lines?.start).toBe(sourceLine);
  });
});

describe('HTML (htmlparser2)', () => {
  it('keeps the title, headings and text; drops scripts, styles, navigation and header links', async () => {
    const doc = await read('page.html');
    expect(doc.outline).toMatchObject({ format: 'html', title: 'Backup & Restore' });
    expect(doc.text).not.toMatch(/<\/?[a-z]|tracking|color: red|Prev|Home|¶|&amp;|&gt;/);
    expect(doc.text).toContain('As with everything that contains valuable data, databases should be backed up regularly.');
    expect(doc.text).toContain('Tool\tPurpose\n\npg_dump\tone database');
    expect(doc.text).toContain('pg_dump dbname > dumpfile\npsql dbname < dumpfile');
    expect(doc.outline.sections?.map((s) => s.path)).toEqual([['Backup & Restore'], ['Backup & Restore', 'SQL Dump']]);
    const { location, sourceLine } = doc.at('The idea behind this dump method');
    expect(location).toMatchObject({ section: ['Backup & Restore', 'SQL Dump'], lines: { start: sourceLine } });
  });

  it('reads a definition term with an id (a setting, a function) as an entry section named by its text, until the next one or the list ends', async () => {
    const source = [
      '<html><head><title>20.3. Connections</title></head><body>',
      '<h2>20.3.1. Connection Settings</h2>',
      '<dl class="variablelist">',
      '<dt id="GUC-PORT"><span class="term"><code>port</code> (<code>integer</code>)<a class="indexterm" id="x1"></a></span></dt>',
      '<dd><p>The TCP port the server listens on; 5432 by default.</p>',
      '  <dl class="options"><dt id="OPT-A"><code>-a</code></dt><dd><p>All of them.</p></dd></dl>',
      '  <p>Back in the port entry.</p></dd>',
      '<dt>a plain term</dt><dd><p>Not an entry of its own.</p></dd>',
      '<dt id="GUC-MAX-CONNECTIONS"><code>max_connections</code> (<code>integer</code>) <a class="headerlink" href="#x">¶</a></dt>',
      '<dd><p>Determines the maximum number of concurrent connections.</p></dd>',
      '<dt id="EMPTY"></dt><dd><p>A term that shows nothing.</p></dd>',
      '</dl>',
      '<p>After the settings.</p>',
      '<dl><dt>Term</dt><dd>A definition list without anchors.</dd></dl>',
      '</body></html>',
    ].join('\n');
    const doc = await readSource('runtime.html', source);
    const sectionOf = (phrase: string) => doc.locate(phrase).section;
    const settings = '20.3.1. Connection Settings';
    expect(sectionOf('The TCP port')).toEqual([settings, 'port (integer)']);
    expect(sectionOf('All of them.')).toEqual([settings, 'port (integer)', '-a']);
    expect(sectionOf('Back in the port entry.')).toEqual([settings, 'port (integer)']);
    expect(sectionOf('Not an entry of its own.')).toEqual([settings, 'port (integer)']);
    expect(sectionOf('Determines the maximum')).toEqual([settings, 'max_connections (integer)']);
    expect(sectionOf('A term that shows nothing.')).toEqual([settings, 'EMPTY']);
    expect(sectionOf('After the settings.')).toEqual([settings]);
    expect(sectionOf('A definition list without anchors.')).toEqual([settings]);
    // The page's own outline is its heading; the settings, and the text after them, are entries.
    expect(doc.outline.sections?.filter((section) => !section.entry).map((section) => section.path)).toEqual([[settings]]);
    expect(doc.text).not.toContain('¶');
  });

  it('locates a sentence on its own source line when a paragraph spans several lines', async () => {
    const source = [
      '<html><body>',
      '<h1>Restore</h1>',
      '<p>',
      '   Restoring the dump is done with psql.  The dump file is plain text,',
      '   so it can be edited before it is restored.',
      '',
      '   Large dumps can be compressed with <code>gzip</code> and',
      '   read back through a pipe.</p>',
      '</body></html>',
    ].join('\n');
    const result = await readSource('restore.html', source);
    // The clean text is collapsed as before: one paragraph, single spaces.
    expect(result.text).toBe(
      'Restore\n\nRestoring the dump is done with psql. The dump file is plain text, so it can be edited before it is restored. Large dumps can be compressed with gzip and read back through a pipe.',
    );
    const lines = source.split('\n');
    for (const phrase of ['Restoring the dump', 'The dump file is plain text', 'so it can be edited', 'Large dumps', 'gzip', 'read back through a pipe']) {
      const location = result.locate(phrase);
      const line = lines.findIndex((text) => text.includes(phrase)) + 1;
      expect(location.lines, phrase).toEqual({ start: line, end: line });
    }
    const whole = result.text.indexOf('The dump file');
    const end = result.text.indexOf('restored.') + 'restored.'.length;
    expect(locateSpan('restore.html', whole, end, result.outline as DocumentOutline).lines).toEqual({ start: 4, end: 5 });
  });
});

describe('POD (Perl documentation)', () => {
  const source = [
    'package Tide::Table;', // 1: code before the POD is not read
    'use strict;',
    '',
    '=head1 NAME',
    '',
    'Tide::Table - high and low water for Port Amberly',
    '',
    '=head1 SYNOPSIS',
    '', // 9
    '    use Tide::Table;',
    '    my $t = Tide::Table->new(port => "Amberly");',
    '      print $t->high;',
    '',
    '=head1 DESCRIPTION',
    '',
    "B<Tide::Table> reads the harbour's tide table. Sort times with",
    'C<< sort { $a <=> $b } @times >> and see L<the open function|perlfunc/open>,',
    'L<perlsyn/"Compound Statements"> and L</"METHODS">.X<tide> Values use E<lt>, E<gt>',
    'and I<italic B<nested>> codes.', // 19
    '',
    '=begin html',
    '',
    '<p>Only for HTML.</p>',
    '',
    '=end html',
    '',
    '=for html <b>also dropped</b>',
    '',
    '=head2 METHODS', // 29
    '',
    '=over 4',
    '',
    '=item C<high>',
    '',
    'Returns the next high water.',
    '',
    '=item *',
    '',
    'A bullet paragraph.',
    '',
    '=back',
    '',
    '=cut',
    '',
    'sub high { 1 }', // 45: code after =cut is not read
    '1;',
  ].join('\n');

  it('reads sections, paragraphs, items and verbatim blocks, with formatting codes reduced and code left out', async () => {
    expect(formatOfFile('lib/perlfunc.pod')).toBe('pod');
    const doc = await readSource('Table.pod', source);
    expect(doc.outline).toMatchObject({ format: 'pod', title: 'Tide::Table - high and low water for Port Amberly' });
    expect(doc.outline.sections?.map((section) => section.path)).toEqual([['NAME'], ['SYNOPSIS'], ['DESCRIPTION'], ['DESCRIPTION', 'METHODS']]);
    expect(doc.text).toBe(
      [
        'NAME',
        'Tide::Table - high and low water for Port Amberly',
        'SYNOPSIS',
        'use Tide::Table;\nmy $t = Tide::Table->new(port => "Amberly");\n  print $t->high;',
        'DESCRIPTION',
        "Tide::Table reads the harbour's tide table. Sort times with sort { $a <=> $b } @times and see the open function, " +
          '"Compound Statements" in perlsyn and "METHODS". Values use <, > and italic nested codes.',
        'METHODS',
        'high',
        'Returns the next high water.',
        'A bullet paragraph.',
      ].join('\n\n'),
    );
    const lines = source.split('\n');
    // Each phrase of the clean text, and what the source line holding it shows.
    const written: Array<[string, string]> = [
      ['Tide::Table reads', 'B<Tide::Table> reads'],
      ['Sort times with', 'Sort times with'],
      ['sort { $a <=> $b } @times', 'C<< sort { $a <=> $b } @times >>'],
      ['"Compound Statements" in perlsyn', 'L<perlsyn/"Compound Statements">'],
      ['Values use <', 'Values use E<lt>'],
      ['italic nested', 'I<italic B<nested>>'],
      ['Returns the next high water.', 'Returns the next high water.'],
      ['print $t->high;', 'print $t->high;'],
    ];
    for (const [phrase, raw] of written) {
      const location = doc.locate(phrase);
      const line = lines.findIndex((text) => text.includes(raw)) + 1;
      expect(line, phrase).toBeGreaterThan(0);
      expect(location.lines, phrase).toEqual({ start: line, end: line });
    }
  });

  it('reduces codes as perldoc shows them: nested, multi-bracket, links, escapes, index entries', () => {
    expect(reduceFormatting('S<C<< $hashref->{FOO} >>> and C<$x>')).toBe('$hashref->{FOO} and $x');
    expect(reduceFormatting('L<perlop/"Quote-Like Operators"> L<perlfunc> L<https://perl.org/> L<text|https://perl.org/>')).toBe(
      '"Quote-Like Operators" in perlop perlfunc https://perl.org/ text',
    );
    expect(reduceFormatting('E<0x263A> E<65> E<eacute> E<verbar> E<sol>X<entry>Z<>')).toBe('☺ A é | /');
    // An unclosed code stays as written; a code over a line break keeps the break.
    expect(reduceFormatting('C<open and F<path')).toBe('C<open and F<path');
    expect(reduceFormatting('B<over\ntwo> C<<\n a >b\n>>').split('\n')).toHaveLength(4);
  });

  it('reads list markers as markers and an item term on the line after =item on its own line', async () => {
    const pod = '=head1 Options\n\n=over\n\n=item\nC<--quiet> says less\n\nBody.\n\n=item * Bullet text\n\n=item 3. Numbered\n\n=item 10\n\n=back\n';
    const doc = await readSource('options.pod', pod);
    expect(doc.text).toBe('Options\n\n--quiet says less\n\nBody.\n\nBullet text\n\nNumbered');
    const lineOf = (phrase: string) => doc.locate(phrase).lines;
    expect(lineOf('--quiet says less')).toEqual({ start: 6, end: 6 });
    expect(lineOf('Bullet text')).toEqual({ start: 10, end: 10 });
  });

  it('decodes POD that is not UTF-8 in its =encoding, else as CP-1252 (perlpodspec); other text stays refused', async () => {
    const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    const declared = await readDocumentBytes('cafe.pod', latin1('=encoding iso-8859-1\n\n=head1 Caf\xe9\n\nNa\xefve r\xe9sum\xe9.\n'));
    if (declared instanceof UnreadableFile) throw new Error(declared.message);
    expect(declared.text).toBe('Café\n\nNaïve résumé.');
    // Undeclared: CP-1252, whose 0x93/0x94 are curly quotes (Latin-1 would give control characters).
    const undeclared = await readDocumentBytes('quotes.pod', latin1('=head1 Quotes\n\n\x93Caf\xe9\x94 it said.\n'));
    if (undeclared instanceof UnreadableFile) throw new Error(undeclared.message);
    expect(undeclared.text).toBe('Quotes\n\n“Café” it said.');
    const text = await readDocumentBytes('cafe.txt', latin1('Caf\xe9\n'));
    expect(text).toBeInstanceOf(UnreadableFile);
  });

  it('reads a .pod file without a command as plain paragraphs', async () => {
    const doc = await readSource('notes.pod', 'Just a note,\nwith C<code>.\n\nAnd another.\n');
    expect(doc.text).toBe('Just a note, with code.\n\nAnd another.');
  });
});

describe('reStructuredText (line reducer)', () => {
  it('keeps headings and paragraphs, reduces directives and roles to their text, drops toctree and comments', async () => {
    const doc = await read('intro.rst');
    expect(doc.outline).toMatchObject({ format: 'rst', title: 'An Informal Introduction' });
    expect(doc.text).not.toMatch(/\.\. |:\w+:`|``|\*\*|toctree|maxdepth|tut-intro|Comment that/);
    expect(doc.text).toContain('see comments\nand the print function of builtins.');
    expect(doc.text).toContain('The interpreter acts as a simple calculator (2 + 2):\n\n>>> 2 + 2\n4');
    expect(doc.text).toContain('Note:\n\nUnlike other languages, special characters such as \\n have the');
    expect(doc.text).toContain('See format.');
    expect(doc.text).toContain('New in version 3.6\n\nUnderscores in numeric literals.');
    expect(doc.text).toContain('Strings can be concatenated with the + operator.\n\nSee the tutorial for more.');
    expect(doc.outline.sections?.map((s) => s.path)).toEqual([
      ['An Informal Introduction'],
      ['An Informal Introduction', 'Numbers'],
      ['An Informal Introduction', 'Numbers', 'Strings'],
    ]);
    for (const phrase of ['>>> 2 + 2', 'same meaning with both single', 'Underscores in numeric']) {
      const { location, sourceLine } = doc.at(phrase);
      expect(location.lines, phrase).toEqual({ start: sourceLine, end: sourceLine });
    }
  });

  it('reads each object description (function, class, method, data…) as a section named by its signature, nested where it is described', async () => {
    const source = [
      'Built-in Functions',
      '==================',
      '',
      'Intro text.',
      '',
      '.. function:: abs(x)',
      '',
      '   Return the absolute value of a number.',
      '',
      '.. function:: zip(*iterables, strict=False)',
      '',
      '   Iterate over several iterables in parallel.',
      '',
      '   More about zip.',
      '',
      '.. index:: single: counting',
      '',
      '.. class:: Counter([iterable])',
      '',
      '   A counter.',
      '',
      '   .. method:: most_common([n])',
      '',
      '      Return the most common elements.',
      '',
      '   Back in the class body.',
      '',
      'After the objects, the section goes on.',
      '',
      'Other Section',
      '-------------',
      '',
      '.. data:: DEFAULT_PROTOCOL',
      '',
      '   An integer.',
    ].join('\n');
    const doc = await readSource('builtins.rst', source);
    const sectionOf = doc.locate;
    expect(sectionOf('Intro text.').section).toEqual(['Built-in Functions']);
    expect(sectionOf('Return the absolute value').section).toEqual(['Built-in Functions', 'abs(x)']);
    expect(sectionOf('zip(*iterables, strict=False)').section).toEqual(['Built-in Functions', 'zip(*iterables, strict=False)']);
    expect(sectionOf('More about zip.')).toMatchObject({ section: ['Built-in Functions', 'zip(*iterables, strict=False)'], lines: { start: 14, end: 14 } });
    expect(sectionOf('A counter.').section).toEqual(['Built-in Functions', 'Counter([iterable])']);
    expect(sectionOf('Return the most common').section).toEqual(['Built-in Functions', 'Counter([iterable])', 'most_common([n])']);
    expect(sectionOf('Back in the class body.').section).toEqual(['Built-in Functions', 'Counter([iterable])']);
    expect(sectionOf('After the objects').section).toEqual(['Built-in Functions']);
    expect(sectionOf('An integer.').section).toEqual(['Built-in Functions', 'Other Section', 'DEFAULT_PROTOCOL']);
    // The page's own outline is its titles; the objects, and the text after them, are entries (the
    // chunker does not cut at them).
    expect(doc.outline.sections?.filter((section) => !section.entry).map((section) => section.path)).toEqual([
      ['Built-in Functions'],
      ['Built-in Functions', 'Other Section'],
    ]);
    // The text is as before: the signature is a line of its own, nothing is added.
    expect(doc.text).toContain('zip(*iterables, strict=False)\n\nIterate over several iterables in parallel.');
    expect(doc.text).not.toContain('counting');
  });

  it.each([
    [':class:`~collections.OrderedDict` keeps order', 'OrderedDict keeps order'],
    [':ref:`the guide <guide-label>`', 'the guide'],
    [':py:meth:`!str.join`', 'str.join'],
    ['see `PEP 8 <https://peps.python.org/pep-0008/>`_ and `link`_', 'see PEP 8 and link'],
    ['**bold**, *em* and ``a*b``', 'bold, em and a*b'],
    ['footnote [#]_ and |version| here', 'footnote and version here'],
    ['a ``:role:`x``` literal', 'a :role:`x` literal'],
    ['2 * 3 * 4', '2 * 3 * 4'],
  ])('reduces inline markup: %s', (input, expected) => {
    expect(reduceInline(input)).toBe(expected);
  });
});

describe('PDF (PDF.js through unpdf)', () => {
  it('gives the text of every page with its page number and the Title metadata', async () => {
    const bytes = makePdf({
      title: 'Field Manual',
      pages: [
        ['Chapter one', 'Birds nest in spring.'],
        ['Chapter two', 'Fish swim upstream (mostly).'],
      ],
    });
    const doc = await readDocumentBytes('manual.pdf', bytes);
    if (doc instanceof UnreadableFile) throw new Error(doc.message);
    expect(doc.outline).toMatchObject({ format: 'pdf', title: 'Field Manual' });
    expect(doc.text).toContain('Birds nest in spring.');
    const start = doc.text.indexOf('Fish swim upstream (mostly).');
    expect(start).toBeGreaterThan(0);
    expect(locateSpan('manual.pdf', start, start + 10, doc.outline).pages).toEqual({ start: 2, end: 2 });
    expect(locateSpan('manual.pdf', 0, doc.text.length, doc.outline).pages).toEqual({ start: 1, end: 2 });
  });

  it('reports a broken PDF as a parse error, whatever its name', async () => {
    const broken = await readDocumentBytes('notes.txt', new TextEncoder().encode('%PDF-1.4\nnot really a pdf'));
    expect(broken).toBeInstanceOf(UnreadableFile);
    expect((broken as UnreadableFile).reason).toBe('parse-error');
  });

  it.skipIf(!existsSync('/usr/share/doc/libtasn1-doc/libtasn1.pdf'))(
    'reads a real PDF (Debian libtasn1-doc) with its bookmarks as sections',
    async () => {
      const path = '/usr/share/doc/libtasn1-doc/libtasn1.pdf';
      const doc = await readDocumentBytes(path, await readFile(path));
      if (doc instanceof UnreadableFile) throw new Error(doc.message);
      expect(doc.outline.pages?.length).toBeGreaterThan(20);
      expect(doc.outline.sections?.length).toBeGreaterThan(5);
      expect(doc.text).toContain('Abstract Syntax Notation One');
    },
    60_000,
  );
});

describe('plain text and unreadable files', () => {
  it('reads a file without an extension as text with its lines', async () => {
    const doc = await read('Apache-2.0');
    expect(doc.outline).toMatchObject({ format: 'text', title: 'Apache-2.0' });
    const { location, sourceLine } = doc.at('Grant of Patent License');
    expect(location.lines).toEqual({ start: sourceLine, end: sourceLine });
  });

  it('names binary, Latin-1 and empty content', async () => {
    const reasons = await Promise.all(
      [
        ['a.bin', Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01])],
        ['latin1.txt', Uint8Array.from([0x63, 0x61, 0x66, 0xe9])],
        ['blank.md', new TextEncoder().encode('  \n\n ')],
        ['rule.md', new TextEncoder().encode('---\n')],
      ].map(async ([name, bytes]) => ((await readDocumentBytes(name as string, bytes as Uint8Array)) as UnreadableFile).reason),
    );
    expect(reasons).toEqual(['binary', 'not-utf8', 'empty', 'empty']);
  });
});
