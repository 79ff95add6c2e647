import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { MAX_QUESTION_CHARS } from './question-input.js';
import { describeRejected, parseQuestions, readQuestionFile, readQuestions, type QuestionFile } from './questions.js';

/** Fixed seed and run count: the fuzz run is the same on every machine; the test names print the count. */
const SEED = 14;
const RUNS = 2_000;

const dir = mkdtempSync(join(tmpdir(), 'mosaic-questions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Inputs actually read, printed once at the end (the CI log shows it). */
let tried = 0;
afterAll(() => console.log(`fuzz questions-file reader: ${tried} inputs tried (seed ${SEED})`));

/** Reads `text` as a questions file; returns the result or the typed refusal, anything else thrown fails the property. */
function outcome(text: string): QuestionFile | CliError {
  tried += 1;
  const path = join(dir, 'fuzz.json');
  writeFileSync(path, text);
  try {
    return readQuestionFile({ path });
  } catch (error) {
    if (!CliError.isInstance(error)) throw error;
    return error;
  }
}

/** The invariants of a split: every item is either a usable question or rejected with its position. */
function expectSplit(items: unknown[], file: QuestionFile): void {
  expect(file.questions.length + file.rejected.length).toBe(items.length);
  expect(file.positions).toHaveLength(file.questions.length);
  const positions = [...file.positions, ...file.rejected.map((r) => r.index)].sort((a, b) => a - b);
  expect(positions).toEqual(items.map((_, i) => i));
  file.questions.forEach((q, i) => {
    expect(q).toBe(items[file.positions[i]!]);
    expect(q.id.trim().length).toBeGreaterThan(0);
    expect(q.question.trim().length).toBeGreaterThan(0);
    expect(q.question.trim().length).toBeLessThanOrEqual(MAX_QUESTION_CHARS);
  });
  expect(new Set(file.questions.map((q) => q.id)).size).toBe(file.questions.length);
  for (const rejected of file.rejected) {
    expect(rejected.problem.length).toBeGreaterThan(0);
    expect(describeRejected(rejected)).toMatch(new RegExp(`^item ${rejected.index}\\b`));
  }
}

/** Items shaped like questions, with each field sometimes missing or of another type. */
const questionLike = fc.record(
  {
    id: fc.oneof(fc.string({ maxLength: 6 }), fc.jsonValue()),
    question: fc.oneof(fc.string(), fc.constant(''), fc.constant('   '), fc.jsonValue()),
    source: fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue()),
    answer: fc.oneof(fc.string(), fc.jsonValue()),
    question_type: fc.oneof(fc.string(), fc.jsonValue()),
    evidence: fc.oneof(fc.string(), fc.array(fc.string()), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('questions file reader', () => {
  it(`fuzz: arbitrary JSON text (${RUNS} inputs, seed ${SEED}) is split or refused with CliError, never an uncaught exception`, () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), (text) => {
        const result = outcome(text);
        if (CliError.isInstance(result)) {
          expect(result.message).toMatch(/^--questions .*fuzz\.json: /);
          return;
        }
        expectSplit(JSON.parse(text) as unknown[], result);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`fuzz: arrays of question-like and arbitrary items (${RUNS} inputs, seed ${SEED}) keep every good item and name every bad one`, () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(questionLike, fc.jsonValue()), { maxLength: 12 }), (items) => {
        tried += 1;
        expectSplit(items, parseQuestions({ data: items, source: 'fuzz.json' }));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('names each bad item by position and id, and keeps the good ones', () => {
    const items = [
      { id: 'a', question: 'What is X?' },
      { id: 'b', question: '' },
      'text',
      { id: 'c', question: 'q'.repeat(MAX_QUESTION_CHARS + 1) },
      { id: 'a', question: 'Again?' },
      { id: 'd', question: 'Why?', evidence: 5 },
      { id: 'e', question: 'How?', source: 'Medical' },
    ];
    const file = parseQuestions({ data: items, source: 'q.json' });
    expect(file.questions.map((q) => q.id)).toEqual(['a', 'e']);
    expect(file.positions).toEqual([0, 6]);
    expect(file.rejected.map(describeRejected)).toEqual([
      'item 1 (id "b"): the question is empty',
      'item 2: not an object',
      `item 3 (id "c"): the question is ${MAX_QUESTION_CHARS + 1} characters long, more than the limit of ${MAX_QUESTION_CHARS}`,
      'item 4 (id "a"): its id is used by an earlier item',
      'item 5 (id "d"): \'evidence\' is neither a string nor an array of strings',
    ]);
    // --limit counts items of the file, good or bad.
    expect(parseQuestions({ data: items, source: 'q.json', limit: 2 }).rejected).toHaveLength(1);
  });

  it('readQuestions (bench, policies, explore, demo) refuses a file with a bad item, naming it', () => {
    const path = join(dir, 'one-bad.json');
    writeFileSync(
      path,
      JSON.stringify([
        { id: 'ok', question: 'Fine?' },
        { id: 'empty', question: ' ' },
      ]),
    );
    expect(() => readQuestions(path)).toThrow(/item 1 \(id "empty"\): the question is empty/);
    expect(() => readQuestions(join(dir, 'missing.json'))).toThrow(/missing\.json: no such file/);
  });
});
