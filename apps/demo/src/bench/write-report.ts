import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyComparison } from './policy-comparison.js';
import type { BenchReport } from './run-bench.js';
import type { RunMetadata } from './run-metadata.js';
import { markdownJudgeSection } from './answer-judge.js';
import { boxPlot, groupedBarChart } from './svg-charts.js';

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : (v * 100).toFixed(1));
const ms = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(1));
const count = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(1));

/** The summary table printed by `mosaic bench` and placed at the top of the report. */
export function summaryTable(report: BenchReport): string {
  const [hi, lo] = [String(report.windows[0]), String(report.windows[report.windows.length - 1])];
  const head = `| system | ER@${hi} | ER_soft@${hi} | ans@${hi} | ER@${lo} | ans@${lo} | chars@${hi} | retrieval p50 ms | p95 ms | paths eval. | depth | sel. paths | evidence | reach windows | reach er | beam windows | beam er |`;
  const rule = `|${'---|'.repeat(17)}`;
  const rows = report.systems.map((s) => {
    const a = s.metrics[hi].overall;
    const b = s.metrics[lo].overall;
    const lat = s.latency.retrieval;
    const e = s.effort;
    const reach = s.reach;
    const beam = s.beamReach;
    return `| ${s.name} | ${pct(a.er)} | ${pct(a.er_soft)} | ${pct(a.ans)} | ${pct(b.er)} | ${pct(b.ans)} | ${Math.round(a.chars)} | ${ms(lat?.p50)} | ${ms(lat?.p95)} | ${e ? e.pathsEvaluated.toFixed(1) : '–'} | ${e ? e.depthReached.toFixed(2) : '–'} | ${e ? e.selectedPaths.toFixed(1) : '–'} | ${e ? e.retainedEvidence.toFixed(2) : '–'} | ${count(reach?.windowsPerQuestion)} | ${reach ? pct(reach.er) : '–'} | ${count(beam?.windowsPerQuestion)} | ${beam ? pct(beam.er) : '–'} |`;
  });
  return [head, rule, ...rows].join('\n');
}

/** The ceiling under the summary table: ER with every window as a context, overall and per type. */
export function ceilingLine(ceiling: NonNullable<BenchReport['ceiling']>): string {
  const types = Object.entries(ceiling.byType)
    .map(([type, er]) => `${type} ${pct(er)}`)
    .join(', ');
  return `Ceiling (ER with every window of the corpus as a context; no retriever of these windows can exceed it): ${pct(ceiling.er)}${types ? ` (${types})` : ''}.`;
}

/**
 * One line per reranker under the ceiling: what a perfect per-question choice among the fixed
 * policies would score, and how each question-aware system fares against the best fixed policy.
 */
export function policyLine(comparison: PolicyComparison): string {
  const { reranker, fixed, questions, er, bestFixed } = comparison;
  const oracle =
    fixed.length > 1
      ? `the best of ${fixed.join(', ')} per question would hold ${pct(comparison.oracleEr)} (${bestFixed} alone ${pct(er[bestFixed])})`
      : `${bestFixed} holds ${pct(er[bestFixed])}`;
  const aware = comparison.questionAware.map(({ name, versus }) => {
    const v = versus.find((x) => x.fixed === bestFixed)!;
    return `${name} ${pct(er[name])}, against ${bestFixed} higher on ${v.better}, equal on ${v.equal}, lower on ${v.worse} questions`;
  });
  return `Policy choice (${reranker} reranker, ${questions} questions): ${[oracle, ...aware].join('; ')}.`;
}

/**
 * Where each graph system loses evidence on the way to its top k: the best k of the windows its
 * traversal's paths reach (beam), the best k of those its retained evidence reaches, and the k its
 * reranker put first; for a fusion-ranked system, also the best k of every window it ranked. Best k =
 * chosen by greedy coverage of the gold statements (`coverContexts`).
 * Undefined when no system has these figures, or with the graph off (they would all be 0).
 */
export function lossLine(report: BenchReport): string | undefined {
  if (report.graph === false) return undefined;
  const k = report.windows[0];
  const rows = report.systems.filter((s) => s.reach?.best && s.beamReach?.best);
  if (rows.length === 0) return undefined;
  const figures = rows.map((s) => {
    const chain = `${s.name} ${pct(s.beamReach!.best!.er)} → ${pct(s.reach!.best!.er)} → ${pct(s.metrics[String(k)].overall.er)}`;
    const ranked = s.rankedCandidates;
    return ranked?.best ? `${chain} (the best ${k} of the ${count(ranked.windowsPerQuestion)} windows it ranked: ${pct(ranked.best.er)})` : chain;
  });
  return `Where evidence is lost, ER of the best ${k} of the traversal's windows → the best ${k} of the retained evidence's windows → the reranker's top ${k} (best ${k} = the ${k} holding the most gold statements, chosen greedily; a fusion-ranked system also ranks the whole-corpus BM25 and dense top 50): ${figures.join('; ')}.`;
}

/** The lines printed under the summary table: the ceiling, where evidence is lost, then one policy-choice line per reranker. */
export function summaryNotes(report: BenchReport): string[] {
  const loss = lossLine(report);
  return [...(report.ceiling ? [ceilingLine(report.ceiling)] : []), ...(loss ? [loss] : []), ...(report.policyComparison ?? []).map(policyLine)];
}

/** Command, commit and machine of a run, as one markdown line. */
export function runLine(run: RunMetadata): string {
  const { machine } = run;
  return `Command: \`${run.command}\`; commit ${run.commit ?? 'unknown'}; ${run.date}; ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, load average ${machine.loadAverage.join(' / ')} at the start.`;
}

export function markdownReport(report: BenchReport): string {
  const out: string[] = [];
  const hi = String(report.windows[0]);
  out.push('# Mosaic bench', '');
  out.push(
    `${report.questions} questions, ${report.createdAt}. Metrics as ../shared/docs/METRICS.md defines them (lexical proxies, no LLM judge); percentages.`,
    '',
  );
  if (report.run) out.push(runLine(report.run), '');
  if (report.reranker !== undefined || report.graph !== undefined) {
    const graph = report.graph === false ? 'off (ablation: no seeds, traversal or evidence; Mosaic system names end in -nograph)' : 'on';
    out.push(`Reranker of the fixed and adaptive systems: ${report.reranker ?? 'fusion'}; graph evidence: ${graph}.`, '');
  }
  out.push(
    'Reach windows: mean windows per question that the retained graph evidence maps to (as the rerankers map evidence to windows); reach er: evidence recall with all of those windows as contexts (no cut). Beam windows / beam er: the same for the evidence that every path the traversal scored would yield (the evidence selector run again over all of them with no budget cut): what traversal found, before selection.',
    '',
  );
  out.push(summaryTable(report), '');
  for (const line of summaryNotes(report)) out.push(line, '');
  out.push('Systems:', '');
  for (const s of report.systems)
    out.push(`- **${s.name}**: ${s.description}${s.errors.length ? ` (${s.errors.length} errors, first: ${s.errors[0].message})` : ''}`);
  out.push('');
  for (const budget of report.windows) {
    out.push(`## Evidence recall by question type, ${budget} windows`, '');
    const types = Object.keys(report.systems[0]?.metrics[String(budget)].byType ?? {});
    out.push(`| system | ${types.map((t) => `${t} ER (n)`).join(' | ')} | ${types.map((t) => `${t} ans`).join(' | ')} |`);
    out.push(`|${'---|'.repeat(1 + types.length * 2)}`);
    for (const s of report.systems) {
      const by = s.metrics[String(budget)].byType;
      out.push(`| ${s.name} | ${types.map((t) => `${pct(by[t]?.er)} (${by[t]?.n ?? 0})`).join(' | ')} | ${types.map((t) => pct(by[t]?.ans)).join(' | ')} |`);
    }
    out.push('');
  }
  const withReach = report.systems.filter((s) => s.reach);
  if (withReach.length > 0) {
    out.push('## Graph reach by question type (windows per question / ER over all reached windows)', '');
    const types = [...new Set(withReach.flatMap((s) => Object.keys(s.reach!.byType)))].sort();
    out.push(`| system | overall | ${types.join(' | ')} |`, `|${'---|'.repeat(types.length + 2)}`);
    const cell = (f: { windowsPerQuestion: number; er: number | null } | undefined) => (f ? `${count(f.windowsPerQuestion)} / ${pct(f.er)}` : '–');
    for (const s of withReach) out.push(`| ${s.name} | ${cell(s.reach)} | ${types.map((t) => cell(s.reach!.byType[t])).join(' | ')} |`);
    out.push('');
  }
  for (const comparison of report.policyComparison ?? []) {
    out.push(`## Policy choice per question (${comparison.reranker} reranker, ER@${hi}, ${comparison.questions} questions)`, '');
    out.push(
      `Oracle (each question takes the windows of its best fixed policy): ${pct(comparison.oracleEr)}. Each cell: questions where the row's system scores higher / equal / lower than the column's fixed policy.`,
      '',
    );
    out.push(
      `| system | ER | ${comparison.fixed.map((f) => `vs ${f} (${pct(comparison.er[f])})`).join(' | ')} |`,
      `|${'---|'.repeat(comparison.fixed.length + 2)}`,
    );
    for (const { name, versus } of comparison.questionAware)
      out.push(`| ${name} | ${pct(comparison.er[name])} | ${versus.map((v) => `${v.better} / ${v.equal} / ${v.worse}`).join(' | ')} |`);
    out.push('');
  }
  out.push('## Latency per stage (ms, p50 / p95)', '');
  const stages = ['analyze', 'encode', 'seeds', 'traverse', 'evidence', 'rerank', 'ground', 'retrieval'] as const;
  out.push(`| system | ${stages.join(' | ')} |`, `|${'---|'.repeat(stages.length + 1)}`);
  for (const s of report.systems)
    out.push(`| ${s.name} | ${stages.map((st) => (s.latency[st] ? `${ms(s.latency[st]!.p50)} / ${ms(s.latency[st]!.p95)}` : '–')).join(' | ')} |`);
  out.push('');
  out.push('## Policy distribution (report §7.4)', '');
  for (const s of report.systems.filter((x) => x.policy)) {
    const p = s.policy!;
    const depth = Object.entries(p.depthDistribution)
      .map(([d, v]) => `${d}: ${pct(v)}%`)
      .join(', ');
    out.push(
      `- **${s.name}**: ${p.uniquePolicies} unique policies; depth ${depth}; seeds ${p.seedRange.min}–${p.seedRange.max}; evidence ${p.evidenceRange.min}–${p.evidenceRange.max}; connector ${pct(p.activation.connector)}%, adaptive evidence ${pct(p.activation.adaptiveEvidence)}%, hybrid ${pct(p.activation.hybridSelection)}%, per-target ${pct(p.activation.perTargetSeeding)}%`,
    );
  }
  out.push('');
  if (report.answerCorrectness) out.push(markdownJudgeSection(report.answerCorrectness), '');
  out.push('## Indexes', '');
  out.push('| corpus | chunks | windows | entities | relations | encoder | build s | peak RSS MB |', '|---|---|---|---|---|---|---|---|');
  for (const m of report.indexes) {
    out.push(
      `| ${m.corpus} | ${m.counts.chunks} | ${m.counts.windows} | ${m.counts.entities} | ${m.counts.relations} | ${m.encoder.id} | ${(m.buildTimeMs / 1000).toFixed(1)} | ${m.peakRssBytes ? (m.peakRssBytes / 2 ** 20).toFixed(0) : '–'} |`,
    );
  }
  out.push('', `Charts: er-by-type.svg (ER@${hi}), latency.svg, policy-distribution.svg; raw figures: report.json; per-system lines: runs/*.jsonl.`, '');
  return out.join('\n');
}

export function writeReport(report: BenchReport, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const hi = String(report.windows[0]);
  const types = Object.keys(report.systems[0]?.metrics[hi].byType ?? {});
  const files: Record<string, string> = {
    'report.md': markdownReport(report),
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'er-by-type.svg': groupedBarChart({
      title: `Evidence recall by question type (${hi} windows)`,
      categories: [...types, 'overall'],
      series: report.systems.map((s) => ({
        name: s.name,
        values: [...types.map((t) => s.metrics[hi].byType[t]?.er ?? null), s.metrics[hi].overall.er],
      })),
      yMax: 1,
      yLabel: 'ER',
    }),
    'latency.svg': boxPlot({
      title: 'Retrieval latency per question',
      rows: report.systems.map((s) => ({ name: s.name, values: s.retrievalLatencies })),
    }),
  };
  const withPolicy = report.systems.filter((s) => s.policy);
  if (withPolicy.length > 0) {
    files['policy-distribution.svg'] = groupedBarChart({
      title: 'Policy distribution: depth shares and activation rates',
      categories: ['depth 2', 'depth 3', 'depth 4', 'depth 5', 'connector', 'adaptive ev.', 'hybrid', 'per-target'],
      series: withPolicy.map((s) => {
        const p = s.policy!;
        return {
          name: s.name,
          values: [2, 3, 4, 5]
            .map((d) => p.depthDistribution[d] ?? 0)
            .concat([p.activation.connector, p.activation.adaptiveEvidence, p.activation.hybridSelection, p.activation.perTargetSeeding]),
        };
      }),
      yMax: 1,
      yLabel: 'share of questions',
    });
  }
  for (const [name, content] of Object.entries(files)) writeFileSync(join(outDir, name), content);
  return Object.keys(files).map((f) => join(outDir, f));
}
