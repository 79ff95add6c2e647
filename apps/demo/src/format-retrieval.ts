import { CONTROL_FIELDS, DEFAULT_POLICY } from '@mosaic/policy-schema';
import type { AskResult, Retrieval } from '@mosaic/pipeline';
import { describeSource } from '@mosaic/pipeline/internal';
import type { CorpusIndex, PolicyControls, RankedWindow } from '@mosaic/spec';
import { isFusionRerankTrace } from '@mosaic/window-reranker';

/** Text on one line, cut at a word boundary to at most `max` characters (with '…' where cut). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** A window's text as a snippet: starting at its first whole word, cut at a word boundary. */
export function snippet(window: Pick<RankedWindow, 'text' | 'start'>, max: number): string {
  let text = window.text.replace(/\s+/g, ' ').trim();
  // A window starting mid-word (it was cut at a fixed offset) starts at its next word.
  if (window.start > 0 && /^\w/.test(text)) {
    const space = text.indexOf(' ');
    if (space > 0 && space < 40) text = `…${text.slice(space + 1)}`;
  }
  return clip(text, max);
}

/** Names of the entities and relations on the selected paths (ids → names), for the verbose view. */
export async function pathNames(index: Pick<CorpusIndex, 'graph'>, result: Retrieval): Promise<Map<string, string>> {
  const nodeIds = [...new Set(result.paths.flatMap((path) => path.nodes))];
  const edgeIds = [...new Set(result.paths.flatMap((path) => path.edges))];
  const names = new Map<string, string>();
  const [nodes, edges] = await Promise.all([index.graph.getNodes(nodeIds), index.graph.getEdges(edgeIds)]);
  for (const node of nodes) names.set(node.id, node.name);
  for (const edge of edges) names.set(edge.id, edge.label);
  return names;
}

export interface FormatOptions {
  /** Windows shown (default 5 in the verbose view, 3 otherwise; windows an answer quotes are always shown). */
  windows?: number;
  /** The full account in the method's terms: policy controls, seeds, paths, traversal, timings. */
  verbose?: boolean;
  /** Entity and relation names by id (see `pathNames`), so that paths read as names. */
  names?: ReadonlyMap<string, string>;
}

/**
 * A person's account of one retrieval (and answer): what was searched, what was found and where, how
 * sure; with `verbose`, the method's account (policy controls, seeds, paths, stop, windows, timings).
 */
export function formatRetrieval(result: Retrieval | AskResult, options: FormatOptions = {}): string {
  return options.verbose ? formatVerbose(result, options) : formatPlain(result, options);
}

function formatPlain(result: Retrieval | AskResult, options: FormatOptions): string {
  const lines: string[] = [];
  const { support } = result;
  const answer = 'answer' in result ? result.answer : undefined;
  lines.push(`Question: ${result.question.text}`);
  lines.push('');
  const cited = new Set<number>();
  if (answer?.abstained) {
    lines.push(`No passage in this corpus answers this question: ${support.explanation}.`);
  } else if (answer) {
    const quotes = answer.quotes ?? [];
    if (quotes.length > 0) {
      const documents = [...new Set(quotes.map((quote) => quote.source.documentId))];
      lines.push(`Answer, quoted from ${documents.join(' and ')}:`);
      for (const quote of quotes) {
        cited.add(quote.window);
        lines.push(`  “${quote.text}”`);
        lines.push(`      — ${describeSource(quote.source)}  [${quote.window}]`);
      }
    } else {
      lines.push(`Answer (${answer.generator}):`);
      lines.push(`  ${answer.text}`);
      for (const citation of answer.citations) cited.add(citation.window);
    }
  } else if (support.abstain) {
    lines.push(`No passage in this corpus answers this question: ${support.explanation}.`);
  }
  for (const warning of [...new Set([...(answer?.warnings ?? []), ...support.warnings])]) lines.push(`Warning: ${warning}`);
  if (!support.abstain) lines.push(`How sure: ${sureness(support.coverage)} — ${support.explanation}.`);
  lines.push('');
  const seeds = result.seeds.map((seed) => seed.name);
  const searched =
    result.trace.graph === 'off'
      ? `the question's words and meaning over every passage (graph evidence off)`
      : `the question's words and meaning over every passage, and the corpus graph from ${seeds.length} starting point${seeds.length === 1 ? '' : 's'}${seeds.length > 0 ? ` (${seeds.slice(0, 5).join(', ')}${seeds.length > 5 ? ', …' : ''})` : ''}, following ${result.paths.length} chain${result.paths.length === 1 ? '' : 's'} of relations`;
  lines.push(`Searched: ${searched}.`);
  // A question with nothing to search for (no words, or a script the encoder cannot read) has no closest passages.
  const unsearchable = support.reason === 'no-content-words' || support.reason === 'unreadable-script';
  const count = unsearchable ? 0 : (options.windows ?? 3);
  const shownNumbers = [...new Set([...Array.from({ length: Math.min(count, result.windows.length) }, (_, i) => i + 1), ...[...cited].sort((a, b) => a - b)])];
  if (shownNumbers.length > 0) {
    lines.push(`${support.abstain ? 'Closest passages, not answers' : 'Passages found'} (${shownNumbers.length} of ${result.windows.length}, best first):`);
  }
  for (const number of shownNumbers) {
    const window = result.windows[number - 1];
    if (!window) continue;
    lines.push(`  [${number}] ${describeSource(window.source ?? window)}`);
    lines.push(`      ${snippet(window, 200)}`);
  }
  lines.push('');
  lines.push(`(${(result.timings.total / 1000).toFixed(2)} s; --verbose for the policy, seeds and paths, --json for everything)`);
  return lines.join('\n');
}

function sureness(coverage: number): string {
  if (coverage >= 0.8) return 'good match';
  if (coverage >= 0.6) return 'fair match';
  return 'partial match';
}

function formatVerbose(result: Retrieval | AskResult, options: FormatOptions): string {
  const names = options.names;
  const named = (id: string) => names?.get(id) ?? id;
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
  for (const p of result.paths) {
    // v0 –e1→ v1 …, as names when they were looked up.
    const hops = p.nodes.map((node, i) => (i === 0 ? named(node) : `–${named(p.edges[i - 1] ?? '')}→ ${named(node)}`));
    lines.push(`  [${p.role}] ${p.score.toFixed(3)}  ${names ? hops.join(' ') : p.id}`);
  }
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
    lines.push(`  [${i + 1}] ${w.score.toFixed(3)} ${describeSource(w.source ?? w)}: ${snippet(w, 160)}`);
  });
  lines.push(
    `Support: ${result.support.abstain ? `abstain (${result.support.reason})` : 'answer'}, coverage ${result.support.coverage}: ${result.support.explanation}`,
  );
  if ('answer' in result) {
    lines.push('');
    lines.push(`Answer (${result.answer.generator}${result.answer.abstained ? `, abstained: ${result.answer.reason}` : ''}):`);
    lines.push(`  ${result.answer.text}`);
    for (const quote of result.answer.quotes ?? []) lines.push(`    [${quote.window}] ${describeSource(quote.source)}`);
  }
  const tm = result.timings;
  lines.push('');
  lines.push(
    `Timings (ms): analyze ${tm.analyze.toFixed(1)}, encode ${tm.encode.toFixed(1)}, seeds ${tm.seeds.toFixed(1)}, traverse ${tm.traverse.toFixed(1)}, evidence ${tm.evidence.toFixed(1)}, rerank ${tm.rerank.toFixed(1)}${tm.ground !== undefined ? `, ground ${tm.ground.toFixed(1)}` : ''}${tm.generate !== undefined ? `, generate ${tm.generate.toFixed(1)}` : ''}, total ${tm.total.toFixed(1)}`,
  );
  return lines.join('\n');
}
