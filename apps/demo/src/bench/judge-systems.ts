import { createOpenAIGenerator } from '@mosaic/generation';
import type { GoldQuestion } from '@mosaic/evaluation';
import type { RankedWindow } from '@mosaic/spec';
import type { RetrievalLine } from '../retrieval-line.js';
import { judgeAnswers, type AnswerJudgement, type JudgeItem } from './answer-judge.js';

export interface JudgeSystemsOptions {
  questions: readonly GoldQuestion[];
  /** Output lines per system name. */
  lines: ReadonlyMap<string, readonly RetrievalLine[]>;
  systems: readonly string[];
  model?: string;
  onProgress?(event: { system: string; stage: 'generate' | 'judge'; done: number; total: number }): void;
}

/**
 * GraphRAG-Bench-style answer correctness: for each judged system, the OpenAI-compatible generator
 * answers from that system's contexts, then an LLM judge compares each answer with the gold answer.
 */
export async function judgeSystems(options: JudgeSystemsOptions): Promise<Record<string, AnswerJudgement>> {
  const generator = createOpenAIGenerator({ onFailure: 'extractive', ...(options.model ? { model: options.model } : {}) });
  const out: Record<string, AnswerJudgement> = {};
  for (const system of options.systems) {
    const byId = new Map((options.lines.get(system) ?? []).map((l) => [l.id, l]));
    const items: JudgeItem[] = [];
    const gold = options.questions.filter((q) => q.answer && byId.has(q.id));
    for (const q of gold) {
      const line = byId.get(q.id)!;
      const windows: RankedWindow[] = line.contexts.map((text, i) => ({
        id: `${q.id}#${i + 1}`,
        text,
        score: 0,
        documentId: '',
        start: 0,
        end: text.length,
        evidenceIds: [],
      }));
      const answer = await generator.generate({ question: { id: q.id, text: q.question }, windows });
      items.push({ id: q.id, question: q.question, goldAnswer: q.answer!, answer: answer.text, questionType: q.question_type ?? 'unknown' });
      options.onProgress?.({ system, stage: 'generate', done: items.length, total: gold.length });
    }
    out[system] = await judgeAnswers({
      items,
      ...(options.model ? { model: options.model } : {}),
      onProgress: ({ done, total }) => options.onProgress?.({ system, stage: 'judge', done, total }),
    });
  }
  return out;
}
