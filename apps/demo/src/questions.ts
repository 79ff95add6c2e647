import { readFileSync, existsSync } from 'node:fs';
import type { GoldQuestion } from '@mosaic/evaluation';
import { CliError } from './cli-error.js';

/** Reads a GraphRAG-Bench question file: a JSON array of {id, source, question, ...}. */
export function readQuestions(path: string, limit?: number): GoldQuestion[] {
  if (!existsSync(path)) throw new CliError(`--questions ${path}: no such file`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`--questions ${path}: invalid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) throw new CliError(`--questions ${path}: expected a JSON array of questions`);
  data.forEach((q, i) => {
    if (typeof q !== 'object' || q === null) throw new CliError(`--questions ${path}: item ${i} is not an object`);
    for (const field of ['id', 'question'] as const) {
      if (typeof (q as Record<string, unknown>)[field] !== 'string') throw new CliError(`--questions ${path}: item ${i} has no string '${field}'`);
    }
  });
  return (limit ? data.slice(0, limit) : data) as GoldQuestion[];
}
