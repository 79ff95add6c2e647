import { CONTROL_FIELDS, DEFAULT_POLICY } from '@mosaic/policy-schema';
import type { AskResult, Retrieval } from '@mosaic/pipeline';
import type { PolicyControls } from '@mosaic/spec';
import { isFusionRerankTrace } from '@mosaic/window-reranker';

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Human-readable account of one retrieval (and answer): policy, seeds, paths, stop, windows. */
export function formatRetrieval(result: Retrieval | AskResult, options: { windows?: number } = {}): string {
  const lines: string[] = [];
  const { analysis, policy, trace } = result;
  lines.push(`Question: ${result.question.text}`);
  lines.push('');
  lines.push(
    `Policy (${analysis.analyzer}${analysis.cacheHit ? ', cached' : ''}${analysis.fallback ? `, fallback from ${analysis.fallback.from}: ${analysis.fallback.reason}` : ''}):`,
  );
  for (const control of CONTROL_FIELDS) {
    const value = policy[control];
    const def = (DEFAULT_POLICY as PolicyControls)[control];
    lines.push(`  ${control.padEnd(22)} ${String(value).padEnd(14)}${value === def ? '' : `(default ${String(def)})`}`);
  }
  if (policy.targetEntities.length) lines.push(`  targets: ${policy.targetEntities.join(' | ')}`);
  if (policy.targetFacets.length) lines.push(`  facets: ${policy.targetFacets.join(', ')}`);
  if (policy.rationale) lines.push(`  rationale: ${clip(policy.rationale, 300)}`);
  const changes = analysis.changes.filter((c) => c.kind !== 'defaulted');
  if (changes.length) {
    lines.push('  validation changed:');
    for (const c of changes) lines.push(`    ${c.field}: ${c.kind} ${JSON.stringify(c.received)} → ${JSON.stringify(c.used)} (${c.reason})`);
  }
  lines.push('');
  lines.push(`Seeds (${result.seeds.length}):`);
  for (const s of result.seeds) {
    lines.push(
      `  ${s.name.padEnd(40)} seed ${s.score.toFixed(3)}  ent ${s.entityScore.toFixed(3)}  rel ${s.relationScore.toFixed(3)}${s.targetIndex !== undefined ? `  target #${s.targetIndex}` : ''}`,
    );
  }
  lines.push('');
  const t = trace.traversal;
  lines.push(`Traversal: depth ${t.depthReached}, ${t.pathsEvaluated} paths evaluated, stop: ${t.stopReason}`);
  for (const d of t.depths) {
    // The beam traverser's trace also counts the relations of hubs it did not expand.
    const cut = (d as { neighborsCut?: unknown }).neighborsCut;
    const cutNote = typeof cut === 'number' && cut > 0 ? `, ${cut} relations of large nodes not expanded` : '';
    lines.push(
      `  depth ${d.depth}: ${d.candidates} candidates (${d.connectorCandidates} connector)${cutNote}, gain ${d.gain.toFixed(3)} vs ε ${d.threshold}, completeness ${d.completeness.toFixed(2)}${d.stop ? '  → stop' : ''}`,
    );
  }
  lines.push('');
  lines.push(`Selected paths (${result.paths.length}):`);
  for (const p of result.paths) lines.push(`  [${p.role}] ${p.score.toFixed(3)}  ${p.id}`);
  lines.push(`Evidence units: ${result.evidence.length}`);
  lines.push('');
  const shown = result.windows.slice(0, options.windows ?? 5);
  lines.push(`Top windows (${shown.length} of ${result.windows.length}):`);
  // The fusion reranker's diversified choice: windows of the plain top N left out for repeating text above them.
  const passedOver = isFusionRerankTrace(trace.rerank) ? (trace.rerank.diversity?.passedOver.length ?? 0) : 0;
  if (passedOver > 0) {
    lines.push(`  (${passedOver} of the top ${result.windows.length} by fused score passed over: each shares text with a window chosen before it)`);
  }
  shown.forEach((w, i) => {
    lines.push(`  [${i + 1}] ${w.score.toFixed(3)} ${w.documentId}@${w.start}: ${clip(w.text, 160)}`);
  });
  if ('answer' in result) {
    lines.push('');
    lines.push(`Answer (${result.answer.generator}${result.answer.extractive && result.answer.generator !== 'extractive' ? ', extractive' : ''}):`);
    lines.push(`  ${result.answer.text}`);
  }
  const tm = result.timings;
  lines.push('');
  lines.push(
    `Timings (ms): analyze ${tm.analyze.toFixed(1)}, encode ${tm.encode.toFixed(1)}, seeds ${tm.seeds.toFixed(1)}, traverse ${tm.traverse.toFixed(1)}, evidence ${tm.evidence.toFixed(1)}, rerank ${tm.rerank.toFixed(1)}${tm.generate !== undefined ? `, generate ${tm.generate.toFixed(1)}` : ''}, total ${tm.total.toFixed(1)}`,
  );
  return lines.join('\n');
}
