import { describe, expect, it } from 'vitest';
import type { RankedWindow } from '@mosaic/spec';
import { FIXTURE_DOCUMENTS } from '@mosaic/testing';
import { createExtractiveGenerator, definedTerm, defines, selectExtractiveSentences, splitSentences } from './extractive-generator.js';
import { checkGeneratorConformance } from './conformance.js';

function window(id: string, text: string, start = 0): RankedWindow {
  return { id, text, start, end: start + text.length, documentId: 'doc', score: 1, evidenceIds: [] };
}

/** Windows of 1,600 characters with stride 800 over a fixture page, as the index builds them. */
function fixtureWindows(corpusName: string): RankedWindow[] {
  const text = FIXTURE_DOCUMENTS.find((d) => d.corpus_name === corpusName)!.context;
  const out: RankedWindow[] = [];
  for (let start = 0; start < text.length; start += 800) {
    out.push(window(`${corpusName}#${start}`, text.slice(start, start + 1600), start));
    if (start + 1600 >= text.length) break;
  }
  return out;
}

const question = (text: string) => ({ id: 'q', text });

describe('selectExtractiveSentences', () => {
  it('quotes the sentence sharing the most (rarest) question tokens first, then the second hop', () => {
    const windows = [
      window('w1', 'Quarry work is hard. Prolonged exposure to veltrane dust causes Morrow syndrome. Workers wear masks.'),
      window('w2', 'Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily for six months.'),
      window('w3', 'Support groups meet in most regions. Many of them also meet online.'),
    ];
    const selection = selectExtractiveSentences({
      question: 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?',
      windows,
    });
    expect(selection.outcome).toBe('matched');
    expect(selection.selected.map((s) => [s.text, s.window])).toEqual([
      ['Prolonged exposure to veltrane dust causes Morrow syndrome.', 1],
      ['Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily for six months.', 2],
    ]);
    expect(selection.selected[0]!.matched.sort()).toEqual(['caus', 'dust', 'exposure', 'prolong', 'veltrane']);
    expect(selection.selected[1]!.matched.sort()).toEqual(['drug', 'treat']);
    expect(selection.selected[0]!.score).toBeGreaterThan(selection.selected[1]!.score);
  });

  it('never quotes a question (a "What is X?" heading) and picks the definition', () => {
    const windows = [
      window(
        'w1',
        'About Morrow syndrome What is Morrow syndrome? Morrow syndrome is a rare inflammatory disorder of the connective tissue. Quarry workers are most at risk.',
      ),
    ];
    const selection = selectExtractiveSentences({ question: 'What is Morrow syndrome?', windows, maxSentences: 1 });
    expect(selection.selected.map((s) => s.text)).toEqual(['Morrow syndrome is a rare inflammatory disorder of the connective tissue.']);
    expect(selection.candidates.some((c) => c.text.endsWith('?'))).toBe(false);
  });

  it('reads two question words that the sentences write as one as that word ("roll back": "rollback")', () => {
    const windows = [
      window('w1', 'To deploy, run make deploy from the repository root after tagging the release. Run make rollback to restore the previous release.'),
    ];
    const selection = selectExtractiveSentences({ question: 'How do I roll back a release?', windows, maxSentences: 1 });
    expect(selection.questionTokens).toEqual(['rollback', 'release']);
    expect(selection.selected.map((s) => s.text)).toEqual(['Run make rollback to restore the previous release.']);
    // Words the sentences hold apart stay apart.
    const apart = selectExtractiveSentences({ question: 'How do I roll back a release?', windows: [window('w1', 'Roll back the release with make undo.')] });
    expect(apart.questionTokens).toEqual(['roll', 'back', 'release']);
  });

  it('reads a question word that the sentences write as two words as those words ("rollback": "roll back")', () => {
    const windows = [window('w1', 'To deploy, run make deploy after tagging the release. Roll back a release with make undo.')];
    const selection = selectExtractiveSentences({ question: 'How do I do a rollback of a release?', windows, maxSentences: 1 });
    expect(selection.questionTokens).toEqual(['roll', 'back', 'release']);
    expect(selection.selected.map((s) => s.text)).toEqual(['Roll back a release with make undo.']);
    // Read whole, "rollback" matches nothing, and the deploy line, first, holds "release" as well.
    const whole = selectExtractiveSentences({
      question: 'How do I do a rollback of a release?',
      windows: [window('w1', 'To deploy, run make deploy after tagging the release. Roll a release back with make undo.')],
      maxSentences: 1,
    });
    expect(whole.questionTokens).toEqual(['rollback', 'release']);
  });

  it('breaks score ties by window rank, then by position', () => {
    const windows = [
      window('w1', "Gulls circle the harbour. The Gull's Wing was built of oak. The Gull's Wing was built of elm."),
      window('w2', "The Gull's Wing was built of ash.", 800),
    ];
    const selection = selectExtractiveSentences({ question: "Where was the Gull's Wing built?", windows, maxSentences: 3 });
    expect(new Set(selection.selected.map((s) => s.score)).size).toBe(1);
    expect(selection.selected.map((s) => [s.window, s.position])).toEqual([
      [1, 1],
      [1, 2],
      [2, 0],
    ]);
  });

  it('keeps one copy, from the better-ranked window, of a sentence repeated by overlapping windows', () => {
    const shared = "The Gull's Wing was built in Port Amberly.";
    const windows = [window('w1', `Terns circle the harbour. ${shared}`), window('w2', `${shared} The oak was seasoned.`, 800)];
    const selection = selectExtractiveSentences({ question: "Where was the Gull's Wing built?", windows });
    expect(selection.selected.map((s) => [s.text, s.window])).toEqual([[shared, 1]]);
    expect(selection.candidates.filter((c) => c.text === shared)).toHaveLength(1);
  });

  it('skips fragments cut by the window edges when a whole sentence matches', () => {
    const cut = window('w1', 'ers who cut veltrane stone are most at risk. Veltrane stone is quarried in the north. Prolonged exposure to velt', 800);
    expect(splitSentences(cut).map((s) => s.partial)).toEqual([true, false, true]);
    const selection = selectExtractiveSentences({ question: 'Who is at risk from veltrane stone?', windows: [cut] });
    expect(selection.selected.map((s) => s.text)).toEqual(['Veltrane stone is quarried in the north.']);
  });

  it('bounds the answer: sentence count, characters and over-long sentences', () => {
    const long = `Veltrane ${'dust '.repeat(200)}is dangerous.`;
    const cut = selectExtractiveSentences({ question: 'Is veltrane dust dangerous?', windows: [window('w1', long)], maxSentenceChars: 100 });
    expect(cut.selected).toHaveLength(1);
    expect(cut.selected[0]!.text.length).toBeLessThanOrEqual(100);
    expect(cut.selected[0]!.text.endsWith('…')).toBe(true);
    const windows = [window('w1', 'Veltrane dust is grey. Veltrane dust is fine. Veltrane dust is light. Veltrane dust is cheap.')];
    const selection = selectExtractiveSentences({ question: 'What is veltrane dust?', windows, maxSentences: 2, maxChars: 150 });
    expect(selection.selected).toHaveLength(2);
    const bounded = selectExtractiveSentences({ question: 'What is veltrane dust?', windows, maxSentences: 4, maxChars: 50 });
    expect(bounded.selected.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(50);
  });

  it('quotes the best-supported document first, another document only for a question word the first lacks', () => {
    const doc = (id: string, documentId: string, text: string): RankedWindow => ({ ...window(id, text), documentId });
    const windows = [
      doc('w1', 'MPL-2.0.txt', 'Larger Work means a work that combines Covered Software with other material. Covered Software may be distributed.'),
      doc('w2', 'LGPL-2.1.txt', 'A work based on the Library is a larger work. Covered Software is a term of another licence.'),
      doc('w3', 'GPL-3.txt', 'Licensees may be individuals or organizations under the GPL.'),
    ];
    const selection = selectExtractiveSentences({ question: 'What is a Larger Work of Covered Software for licensees?', windows });
    expect(selection.document).toBe('MPL-2.0.txt');
    expect(selection.selected[0]!.documentId).toBe('MPL-2.0.txt');
    // LGPL's sentences add no word MPL's lack; GPL's adds "licensees".
    expect(selection.selected.map((s) => s.documentId)).not.toContain('LGPL-2.1.txt');
    expect(selection.selected.map((s) => s.documentId)).toContain('GPL-3.txt');
    // Every sentence knows where it stands in its document.
    const first = selection.selected[0]!;
    expect(windows[0]!.text.slice(first.start, first.end)).toBe(first.text);
  });

  it("quotes a paragraph's value sentence for the part of the question it answers, counting its topic sentence's words", () => {
    const text = [
      'checkpoint_timeout (integer)',
      '',
      'Maximum time between automatic WAL checkpoints. The valid range is between 30 seconds and one day. The default is five minutes (5min).',
      '',
      'checkpoint_warning (integer)',
      '',
      'Write a message to the server log if checkpoints happen closer together than this amount of time.',
    ].join('\n');
    const selection = selectExtractiveSentences({
      question: 'What is the default maximum time between automatic WAL checkpoints?',
      windows: [window('w1', text)],
    });
    // Both are quoted: the value first (it says what "the default …" is), then the topic sentence.
    expect(selection.selected.map((s) => s.text).slice(0, 2)).toEqual([
      'The default is five minutes (5min).',
      'Maximum time between automatic WAL checkpoints.',
    ]);
    const value = selection.selected[0]!;
    expect(value.definition).toBe(true);
    expect(value.matched).toEqual(['default']);
    expect(value.inherited.sort()).toEqual(['automatic', 'checkpoint', 'maximum', 'time', 'wal'].sort());
    expect(value.partial).toBe(false);
    // Without a word of its own the question asks for, a sentence inherits nothing: its topic sentence is quoted first.
    const plain = selectExtractiveSentences({ question: 'What is the maximum time between automatic WAL checkpoints?', windows: [window('w1', text)] });
    expect(plain.selected.map((s) => s.text)).not.toContain('The default is five minutes (5min).');
    expect(plain.candidates.every((c) => c.inherited.length === 0)).toBe(true);
    // Another paragraph's topic is not inherited.
    const other = selectExtractiveSentences({
      question: 'Where is the message written when checkpoints come too close together?',
      windows: [window('w1', text)],
    });
    expect(other.candidates.find((c) => c.text.startsWith('The default is'))?.inherited ?? []).toEqual([]);
  });

  it('quotes first the sentence that says what the question asks something is', () => {
    const text = [
      'SAVEPOINT name',
      '',
      'The name to give to the new savepoint. There can be multiple savepoints defined within a transaction, each a savepoint you may roll back to.',
      '',
      'A savepoint is a special mark inside a transaction that allows all commands that are executed after it was established to be rolled back.',
    ].join('\n');
    const selection = selectExtractiveSentences({ question: 'What is a savepoint?', windows: [window('w1', text)] });
    expect(selection.selected[0]!.text).toMatch(/^A savepoint is a special mark/);
    expect(selection.selected[0]!.definition).toBe(true);
    expect(selection.candidates.filter((c) => c.definition).map((c) => c.text)).toHaveLength(1);
    // Another kind of question has no definition.
    const how = selectExtractiveSentences({ question: 'How many savepoints can a transaction hold?', windows: [window('w1', text)] });
    expect(how.candidates.every((c) => !c.definition)).toBe(true);
    // A glossary, as the Python glossary reads once cleaned: the term's line runs into its definition's sentence.
    const glossary = [
      'generator expression',
      'An expression that returns an iterator; a generator expression yields a generator of generator values.',
      '',
      'generator',
      'A function which returns a generator iterator.',
    ].join('\n');
    const entry = selectExtractiveSentences({ question: 'What is a generator?', windows: [window('g', glossary)] });
    expect(entry.selected[0]!.text).toMatch(/A function which returns a generator iterator\.$/);
    expect(entry.selected[0]!.definition).toBe(true);
  });

  it('definedTerm and defines: the thing a "What is …?" question asks about, and a sentence saying what it is', () => {
    expect(definedTerm('What is a generated column?')).toEqual(['generat', 'column']);
    expect(definedTerm('what are the Invariant Sections?')).toEqual(['invariant', 'section']);
    expect(definedTerm('How is jsonb stored?')).toBeUndefined();
    expect(definedTerm('What is it?')).toBeUndefined();
    const term = definedTerm('What is a generated column?')!;
    expect(defines(term, 'A generated column is a special column that is always computed from other columns.')).toBe(true);
    expect(defines(term, 'Generated columns are computed.')).toBe(true);
    expect(defines(term, 'Foreign tables can have generated columns.')).toBe(false);
    // The words before the verb must be the term's, its first among them.
    expect(defines(term, 'A column is generated when asked.')).toBe(false);
    expect(defines(term, 'The stored generated column is a kind of column.')).toBe(false);
    // A line naming the term alone, right before the sentence or opening it.
    const at = (text: string, sentence: string) => ({ text, offset: text.indexOf(sentence), length: sentence.length });
    const below = 'Generated column\nComputed from other columns.';
    expect(defines(term, 'Computed from other columns.', at(below, 'Computed from other columns.'))).toBe(true);
    expect(defines(term, 'Computed from other columns.', at('Generated column kinds\nComputed from other columns.', 'Computed from other columns.'))).toBe(
      false,
    );
    expect(defines(term, below, at(below, below))).toBe(true);
    expect(defines(term, 'Generated column', at('Generated column', 'Generated column'))).toBe(false);
  });

  it('falls back to the first sentence of the top window when nothing overlaps', () => {
    const windows = [window('w1', 'Gulls nest on the cliffs. The sea is cold.'), window('w2', 'Boats return at dusk.')];
    const selection = selectExtractiveSentences({ question: 'Who designed the cathedral clock?', windows });
    expect(selection.outcome).toBe('no-overlap');
    expect(selection.selected.map((s) => [s.text, s.window])).toEqual([['Gulls nest on the cliffs.', 1]]);
  });
});

describe('createExtractiveGenerator', () => {
  it('answers from real fixture windows with labelled text and citations of the windows used', async () => {
    const all = fixtureWindows('Novel-90001');
    // Hand the windows over in reverse so that the answer window is not simply the first.
    const windows = [...all].reverse();
    const generator = createExtractiveGenerator();
    const answer = await generator.generate({ question: question('What did Mara pack before the voyage?'), windows });
    expect(answer.generator).toBe('extractive');
    expect(answer.extractive).toBe(true);
    expect(answer.text.startsWith('Extractive answer')).toBe(true);
    expect(answer.text).toContain("Mara packed a brass compass, her grandmother's map, and a tin of ginger biscuits.");
    const cited = answer.citations[0]!;
    expect(windows[cited.window - 1]!.id).toBe(cited.windowId);
    expect(windows[cited.window - 1]!.text).toContain('Mara packed a brass compass');
    expect(answer.text).toContain(`biscuits. [${cited.window}]`);
    // Only windows actually quoted are cited.
    for (const citation of answer.citations) expect(answer.text).toContain(`[${citation.window}]`);
  });

  it('is deterministic', async () => {
    const windows = fixtureWindows('Medical');
    const generator = createExtractiveGenerator();
    const q = question('What are the symptoms of Morrow syndrome?');
    const a = await generator.generate({ question: q, windows });
    const b = await createExtractiveGenerator().generate({ question: q, windows });
    expect(a).toEqual(b);
    expect(a.text).toContain('Common symptoms of Morrow syndrome include joint stiffness.');
  });

  it('answers without citations when there are no windows', async () => {
    const answer = await createExtractiveGenerator().generate({ question: question('Anything?'), windows: [] });
    expect(answer.citations).toEqual([]);
    expect(answer.extractive).toBe(true);
  });

  it('honours abort signals and rejects invalid options', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createExtractiveGenerator().generate({ question: question('x'), windows: [], abortSignal: controller.signal })).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
    expect(() => createExtractiveGenerator({ maxSentences: 0 })).toThrowError(expect.objectContaining({ name: 'MosaicInvalidArgumentError' }));
  });

  it('passes the generator conformance check', async () => {
    const result = await checkGeneratorConformance({ generator: createExtractiveGenerator() });
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it('the conformance check catches a generator that cites a window it was not given', async () => {
    const broken = {
      specificationVersion: 'v1' as const,
      id: 'broken',
      async generate() {
        return { text: 'x [9]', citations: [{ window: 9, windowId: 'nope' }], generator: 'broken', extractive: false };
      },
    };
    const result = await checkGeneratorConformance({ generator: broken });
    expect(result.passed).toBe(false);
    expect(result.failures.length).toBeGreaterThanOrEqual(3); // bad window, cites without windows, ignores abort
  });
});
