import { InvalidArgumentError } from '@mosaic/spec';
import { metricTokenSet } from '@mosaic/stage-utils';
import { evidenceStatements } from './evidence-statements.js';
import { coverage, type GoldQuestion } from './metrics.js';

/** What `coverContexts` chose for one question. */
export interface ContextCover {
  /** Indices into the contexts given, in the order they were chosen. */
  chosen: number[];
  /** Evidence statements that one chosen context covers to τ (METRICS.md `er`'s rule). */
  covered: number;
  /** Evidence statements that one of all the contexts covers: their `er` is coverable / statements. */
  coverable: number;
  /** The question's evidence statements; `er` of the chosen contexts is covered / statements. */
  statements: number;
  /** covered / statements; null when the question has no statement. */
  er: number | null;
}

/**
 * Which `k` of a question's contexts hold the most of its gold evidence: greedy maximum coverage.
 * Each step takes the context that covers (to `tau`, as METRICS.md `er` counts) the most statements
 * that no chosen context covers yet; ties go to the earlier context; it stops early when no context
 * adds a statement. The result is a lower bound on the best `k` contexts' `er` (greedy coverage
 * reaches at least 1 − 1/e of the best), and it is exact when it equals the `er` of all the contexts
 * (`coverable` / `statements`, from the same pass over the contexts).
 * Used by `mosaic bench` to say how much of the evidence a set of windows holds in its best 15.
 */
export function coverContexts(options: { gold: GoldQuestion; contexts: readonly string[]; k: number; tau?: number }): ContextCover {
  const { gold, contexts, k } = options;
  const tau = options.tau ?? 0.6;
  if (!Number.isInteger(k) || k < 0) throw new InvalidArgumentError({ argument: 'k', message: `must be a non-negative integer, got ${k}` });
  if (!(tau > 0 && tau <= 1)) throw new InvalidArgumentError({ argument: 'tau', message: `must lie in (0, 1], got ${tau}` });
  const statements = evidenceStatements(gold.evidence).map(metricTokenSet);
  // covers[c] = the statements context c covers to tau.
  const covers = contexts.map((context) => {
    const tokens = metricTokenSet(context);
    const held: number[] = [];
    statements.forEach((statement, i) => {
      if (coverage(statement, tokens) >= tau) held.push(i);
    });
    return held;
  });
  const coverable = new Set(covers.flat()).size;
  const done = new Set<number>();
  const chosen: number[] = [];
  const open = new Set(covers.map((_, c) => c));
  while (chosen.length < k) {
    let pick = -1;
    let gain = 0;
    for (const c of open) {
      let adds = 0;
      for (const i of covers[c]!) if (!done.has(i)) adds += 1;
      if (adds > gain) {
        pick = c;
        gain = adds;
      }
    }
    if (pick < 0) break;
    chosen.push(pick);
    open.delete(pick);
    for (const i of covers[pick]!) done.add(i);
  }
  return { chosen, covered: done.size, coverable, statements: statements.length, er: statements.length === 0 ? null : done.size / statements.length };
}
