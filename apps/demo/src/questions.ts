import { readFileSync, statSync } from 'node:fs';
import type { GoldQuestion } from '@mosaic/evaluation';
import { CliError } from './cli-error.js';
import { questionProblem } from './question-input.js';

/** An item of a questions file that cannot be used, and why. */
export interface RejectedQuestion {
  /** 0-based position in the file's array. */
  index: number;
  /** Its id, when it has a usable one. */
  id?: string;
  /** What is wrong, e.g. "the question is empty". */
  problem: string;
}

/** A questions file split into the usable questions (file order) and the rejected items. */
export interface QuestionFile {
  questions: GoldQuestion[];
  /** The 0-based position in the file of each of `questions`. */
  positions: number[];
  rejected: RejectedQuestion[];
}

export interface ParseQuestionsOptions {
  /** The parsed JSON of the file. */
  data: unknown;
  /** The file, named in errors. */
  source: string;
  /** Only the first `limit` items of the file. */
  limit?: number;
}

const OPTIONAL_STRINGS = ['source', 'answer', 'question_type'] as const;

/** What is wrong with one item of a questions file (ids already taken by earlier items in `seen`). */
function itemProblem(item: unknown, seen: ReadonlySet<string>): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'not an object';
  const record = item as Record<string, unknown>;
  if (typeof record.id !== 'string' || record.id.trim().length === 0) return "no 'id' (a non-empty string)";
  if (seen.has(record.id)) return 'its id is used by an earlier item';
  if (typeof record.question !== 'string') return "no 'question' (a string)";
  const problem = questionProblem(record.question);
  if (problem) return problem;
  for (const field of OPTIONAL_STRINGS) {
    if (record[field] !== undefined && typeof record[field] !== 'string') return `'${field}' is not a string`;
  }
  const evidence = record.evidence;
  if (evidence !== undefined && typeof evidence !== 'string' && !(Array.isArray(evidence) && evidence.every((e) => typeof e === 'string'))) {
    return "'evidence' is neither a string nor an array of strings";
  }
  return undefined;
}

/** One line naming a rejected item: `item 3 (id "q-17"): the question is empty`. */
export function describeRejected(rejected: RejectedQuestion): string {
  const id = rejected.id === undefined ? undefined : rejected.id.length > 80 ? `${rejected.id.slice(0, 77)}...` : rejected.id;
  return `item ${rejected.index}${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}: ${rejected.problem}`;
}

/**
 * Splits the parsed JSON of a GraphRAG-Bench questions file (an array of {id, question, source?,
 * answer?, question_type?, evidence?}) into usable questions and rejected items. Anything but an
 * array → CliError naming the file; a bad item (not an object, no id, a duplicate id, an empty or
 * over-long question, a field of the wrong type) is rejected with its index and id, never thrown.
 */
export function parseQuestions(options: ParseQuestionsOptions): QuestionFile {
  const { data, source } = options;
  if (!Array.isArray(data)) throw new CliError(`--questions ${source}: expected a JSON array of questions`);
  const items = options.limit ? data.slice(0, options.limit) : data;
  const questions: GoldQuestion[] = [];
  const positions: number[] = [];
  const rejected: RejectedQuestion[] = [];
  const seen = new Set<string>();
  items.forEach((item: unknown, index) => {
    const problem = itemProblem(item, seen);
    const id = typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'string' ? (item as { id: string }).id : undefined;
    if (problem) {
      rejected.push({ index, ...(id !== undefined && id.trim() !== '' ? { id } : {}), problem });
      return;
    }
    seen.add(id!);
    questions.push(item as GoldQuestion);
    positions.push(index);
  });
  return { questions, positions, rejected };
}

/** Reads and splits a questions file (see parseQuestions); a missing or non-JSON file → CliError. */
export function readQuestionFile(options: { path: string; limit?: number }): QuestionFile {
  const { path } = options;
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new CliError(`--questions ${path}: is a directory, not a file`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw new CliError(`--questions ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--questions ${path}: invalid JSON (${(error as Error).message})`);
  }
  return parseQuestions({ data, source: path, limit: options.limit });
}

/** Reads a questions file whose every item must be usable: the first bad items are named in one CliError. */
export function readQuestions(path: string, limit?: number): GoldQuestion[] {
  const { questions, rejected } = readQuestionFile({ path, limit });
  if (rejected.length > 0) {
    const shown = rejected.slice(0, 3).map(describeRejected).join('; ');
    throw new CliError(`--questions ${path}: ${rejected.length} bad item(s): ${shown}${rejected.length > 3 ? '; ...' : ''}`);
  }
  return questions;
}
