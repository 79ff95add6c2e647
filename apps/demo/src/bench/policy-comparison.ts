/**
 * Does the policy decide what is found? Per question, a question-aware system's ER against each fixed
 * policy's under the same reranker, and the oracle: the ER a perfect per-question choice among the
 * fixed policies would reach. An analyzer that only chooses among the fixed shapes gains at most the
 * oracle's margin over the best fixed policy; beyond it, it must find windows that no fixed policy
 * finds. The comparison puts that bound next to what the analyzer achieved.
 */

/** ER of one system per question id (the bench's largest windows budget). Null or absent: not scored. */
export type PerQuestionEr = ReadonlyMap<string, number | null>;

/** A graph system's per-question scores, with what the comparison groups it by. */
export interface ScoredSystem {
  name: string;
  /** The reranker its windows were ranked by: only systems with the same reranker are compared. */
  reranker: string;
  /** The fixed policy it ran, if any; otherwise it is question-aware (an analyzer chose the policy). */
  fixedPolicy?: string;
  scores: PerQuestionEr;
}

/** One question-aware system against one fixed policy, question by question. */
export interface HeadToHead {
  fixed: string;
  /** Questions where the question-aware system's ER is higher, equal (within 1e-9) and lower. */
  better: number;
  equal: number;
  worse: number;
}

export interface PolicyComparison {
  reranker: string;
  /** The fixed-policy systems compared, in bench order. */
  fixed: string[];
  /** Questions that every compared system scored (a question without evidence statements or whose retrieval failed is left out). */
  questions: number;
  /** Mean ER over those questions of each compared system. */
  er: Record<string, number>;
  /** Mean ER over those questions when each question takes the windows of its best fixed policy. */
  oracleEr: number;
  /** The fixed policy with the highest mean ER (the first in bench order on a tie). */
  bestFixed: string;
  /** Every question-aware system with this reranker, against every fixed policy. */
  questionAware: { name: string; versus: HeadToHead[] }[];
}

const EPSILON = 1e-9;

/**
 * Groups the systems by reranker and, for every group with at least one fixed policy and at least two
 * systems, compares them over the questions all of them scored. Groups come out in the order their
 * first system appears.
 */
export function comparePolicies(systems: readonly ScoredSystem[]): PolicyComparison[] {
  const groups = new Map<string, ScoredSystem[]>();
  for (const system of systems) {
    const group = groups.get(system.reranker) ?? [];
    group.push(system);
    groups.set(system.reranker, group);
  }
  const out: PolicyComparison[] = [];
  for (const [reranker, group] of groups) {
    const fixed = group.filter((s) => s.fixedPolicy !== undefined);
    const aware = group.filter((s) => s.fixedPolicy === undefined);
    if (fixed.length === 0 || group.length < 2) continue;
    const ids = [...group[0]!.scores.keys()].filter((id) => group.every((s) => typeof s.scores.get(id) === 'number'));
    if (ids.length === 0) continue;
    const score = (s: ScoredSystem, id: string) => s.scores.get(id) as number;
    const mean = (f: (id: string) => number) => ids.reduce((sum, id) => sum + f(id), 0) / ids.length;
    const er: Record<string, number> = {};
    for (const s of group) er[s.name] = mean((id) => score(s, id));
    let bestFixed = fixed[0]!.name;
    for (const s of fixed) if (er[s.name]! > er[bestFixed]! + EPSILON) bestFixed = s.name;
    out.push({
      reranker,
      fixed: fixed.map((s) => s.name),
      questions: ids.length,
      er,
      oracleEr: mean((id) => Math.max(...fixed.map((s) => score(s, id)))),
      bestFixed,
      questionAware: aware.map((s) => ({
        name: s.name,
        versus: fixed.map((f) => {
          const tally: HeadToHead = { fixed: f.name, better: 0, equal: 0, worse: 0 };
          for (const id of ids) {
            const d = score(s, id) - score(f, id);
            if (d > EPSILON) tally.better += 1;
            else if (d < -EPSILON) tally.worse += 1;
            else tally.equal += 1;
          }
          return tally;
        }),
      })),
    });
  }
  return out;
}
