/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { ExplorerAskResponse, ExplorerPath, ExplorerWindow } from '../explorer-types.js';
import { describeSource } from './describe-source.js';
import { h, fixed } from './dom.js';

/** What a click in a list asks the page to emphasise. */
export type FocusRequest = { kind: 'path'; id: string } | { kind: 'evidence'; id: string } | { kind: 'window'; rank: number };

export interface ResultHandlers {
  onFocus(request: FocusRequest): void;
  onDepth(depth: number): void;
}

function pathLine(names: readonly string[], labels: readonly string[]): HTMLElement {
  const line = h('span', { class: 'path-line' });
  names.forEach((name, i) => {
    line.append(h('span', {}, name));
    if (i < labels.length) line.append(h('span', { class: 'rel' }, ` –${labels[i]}→ `));
  });
  return line;
}

/** The stop decision per depth: gain against ε, completeness against its minimum, the decision in words. */
export function renderStopTable(data: ExplorerAskResponse, currentDepth: number, handlers: ResultHandlers): HTMLElement {
  const { traversal } = data;
  const rows = traversal.depths.map((d) =>
    h(
      'tr',
      { class: ['clickable', d.depth === currentDepth ? 'current' : '', d.stop ? 'stop' : ''].join(' ').trim(), 'data-depth': d.depth, title: d.decision },
      h('td', { class: 'num' }, d.depth),
      h('td', { class: 'num' }, `${d.candidates}`, d.connectorCandidates ? h('span', { class: 'muted' }, ` (${d.connectorCandidates} conn.)`) : null),
      h('td', { class: 'num' }, d.beam.length),
      h('td', { class: 'num' }, `+${d.newNodes} / +${d.newEdges}`),
      h('td', { class: 'num' }, `${fixed(d.gain)} ${d.gain <= d.threshold ? '≤' : '>'} ${d.threshold}`),
      h('td', { class: 'num' }, `${fixed(d.completeness, 2)} ${d.completeness >= d.minCompleteness ? '≥' : '<'} ${d.minCompleteness}`),
      h('td', {}, d.stop ? h('strong', {}, 'stop') : 'go on'),
    ),
  );
  for (const row of rows) row.addEventListener('click', () => handlers.onDepth(Number(row.dataset.depth)));
  const last = traversal.depths[traversal.depths.length - 1];
  return h(
    'div',
    {},
    h(
      'table',
      { class: 'stop-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'd'),
          h('th', {}, 'cand.'),
          h('th', {}, 'kept'),
          h('th', {}, 'new n/e'),
          h('th', {}, 'gain vs ε'),
          h('th', {}, 'complete vs min'),
          h('th', {}, ''),
        ),
      ),
      h('tbody', {}, rows),
    ),
    h(
      'p',
      { class: 'muted' },
      `Stop reason: ${traversal.stopReason} at depth ${traversal.depthReached}; ${traversal.pathsEvaluated} paths evaluated. `,
      last ? last.decision : 'No depth was traversed.',
    ),
    h('p', { class: 'muted' }, 'A low-gain stop fires from depth 2 when the gain is at most ε and the completeness has reached its minimum.'),
  );
}

/** The beam kept at one depth. */
export function renderBeam(data: ExplorerAskResponse, depth: number, handlers: ResultHandlers): HTMLElement {
  const trace = data.traversal.depths.find((d) => d.depth === depth);
  if (!trace) return h('p', { class: 'muted' }, depth === 0 ? `Depth 0: the ${data.seeds.length} seeds.` : `Nothing kept at depth ${depth}.`);
  const names = new Map(data.graph.nodes.map((n) => [n.id, n.name]));
  const labels = new Map(data.graph.edges.map((e) => [e.id, e.label]));
  return h(
    'div',
    {},
    h('strong', {}, `Beam kept at depth ${depth} (${trace.beam.length}): `),
    h('span', { class: 'muted' }, trace.decision),
    h(
      'ol',
      {},
      trace.beam.map((p) => {
        const item = h(
          'li',
          { class: 'clickable', 'data-path': p.id },
          h('span', { class: `badge origin-${p.origin}` }, p.origin),
          h('span', { class: 'num' }, `${fixed(p.score)} `),
          pathLine(
            p.nodes.map((n) => names.get(n) ?? n),
            p.edges.map((e) => labels.get(e) ?? e),
          ),
        );
        item.addEventListener('click', () => handlers.onFocus({ kind: 'path', id: p.id }));
        return item;
      }),
    ),
  );
}

export function renderPaths(paths: readonly ExplorerPath[], handlers: ResultHandlers): HTMLElement[] {
  if (paths.length === 0) return [h('li', { class: 'muted' }, 'No path was selected.')];
  return paths.map((p) => {
    const item = h(
      'li',
      {
        'data-path': p.id,
        class: 'clickable',
        title: Object.entries(p.terms)
          .map(([k, v]) => `${k} ${fixed(v, 2)}`)
          .join(', '),
      },
      h('span', { class: `badge role-${p.role}` }, p.role),
      h('span', { class: 'num muted' }, `#${p.rank} · ${fixed(p.score)} · depth ${p.depth}${p.origin === 'connector' ? ' · connector' : ''} `),
      h('div', {}, pathLine(p.names, p.labels)),
    );
    item.addEventListener('click', () => handlers.onFocus({ kind: 'path', id: p.id }));
    return item;
  });
}

export function renderEvidence(data: ExplorerAskResponse, handlers: ResultHandlers): HTMLElement[] {
  if (data.evidence.length === 0) return [h('li', { class: 'muted' }, 'No evidence unit was retained.')];
  return data.evidence.map((unit, i) => {
    const item = h(
      'li',
      { id: `evidence-${i + 1}`, 'data-evidence': unit.id, class: 'clickable' },
      h('span', { class: 'badge' }, unit.kind),
      h(
        'span',
        { class: 'num muted' },
        `E${i + 1} · ${fixed(unit.score, 2)}${unit.restored ? ' · restored by the floor' : ''} · windows ${unit.windowRanks.length ? unit.windowRanks.map((r) => `#${r}`).join(' ') : '–'} `,
      ),
      h('div', {}, unit.text),
    );
    item.addEventListener('click', () => handlers.onFocus({ kind: 'evidence', id: unit.id }));
    return item;
  });
}

function windowText(window: ExplorerWindow, evidenceIndex: ReadonlyMap<string, number>): HTMLElement {
  const text = h('p', { class: 'window-text' });
  for (const segment of window.segments) {
    const title = segment.evidenceIds.map((id) => `E${evidenceIndex.get(id) ?? '?'}`).join(', ');
    if (segment.termOf) {
      text.append(h('mark', { 'data-evidence': segment.termOf, title: `term of E${evidenceIndex.get(segment.termOf) ?? '?'}` }, segment.text));
    } else if (segment.evidenceIds.length > 0) {
      text.append(h('span', { class: 'ev', 'data-evidence': segment.evidenceIds.join(' '), title: `source of ${title}` }, segment.text));
    } else {
      text.append(segment.text);
    }
  }
  return text;
}

/** The top windows with the source text highlighted and chips linking to the evidence that brought them in. */
export function renderWindows(
  data: ExplorerAskResponse,
  handlers: ResultHandlers,
  options: { limit?: number; compact?: boolean; mark?: (window: ExplorerWindow) => string | undefined } = {},
): HTMLElement[] {
  const evidenceIndex = new Map(data.evidence.map((u, i) => [u.id, i + 1]));
  const windows = data.windows.slice(0, options.limit ?? data.windows.length);
  if (windows.length === 0) return [h('li', { class: 'muted' }, 'No window was retrieved.')];
  return windows.map((w) => {
    const chips = w.evidenceIds.map((id) => {
      const chip = h(
        'button',
        { type: 'button', class: 'chip', 'data-evidence': id, title: data.evidence.find((u) => u.id === id)?.text ?? id },
        `E${evidenceIndex.get(id) ?? '?'}`,
      );
      chip.addEventListener('click', (event) => {
        event.stopPropagation();
        handlers.onFocus({ kind: 'evidence', id });
      });
      return chip;
    });
    const marker = options.mark?.(w);
    const item = h(
      'li',
      { id: options.compact ? undefined : `window-${w.rank}`, 'data-window': w.rank, class: 'window' },
      h(
        'div',
        { class: 'window-head' },
        h('span', { class: 'rank' }, `#${w.rank}`),
        h('span', { class: 'num' }, fixed(w.score)),
        h('span', { class: 'source', title: `${w.documentId} @ ${w.start}–${w.end}` }, describeSource(w)),
        w.cited ? h('span', { class: 'cited' }, 'cited') : null,
        marker ? h('span', { class: 'only' }, marker) : null,
        options.compact ? null : h('span', { class: 'chips' }, 'from ', chips),
      ),
      windowText(w, evidenceIndex),
    );
    item.addEventListener('click', () => handlers.onFocus({ kind: 'window', rank: w.rank }));
    return item;
  });
}

/** The answer with its citations linked to the windows. */
export function renderAnswer(data: ExplorerAskResponse, options: { compact?: boolean } = {}): HTMLElement {
  const { answer } = data;
  const text = h('p', { class: 'answer-text', 'data-testid': 'answer' });
  const parts = answer.text.split(/(\[\d+\])/);
  for (const part of parts) {
    const cite = /^\[(\d+)\]$/.exec(part);
    if (cite && !options.compact && Number(cite[1]) <= data.windows.length) text.append(h('a', { href: `#window-${cite[1]}` }, part));
    else text.append(part);
  }
  return h(
    'div',
    {},
    text,
    h(
      'p',
      { class: 'muted' },
      `${answer.generator}${answer.extractive ? ' (extractive: sentences quoted from the windows)' : ''} · cites ${answer.citations.length ? answer.citations.map((c) => `#${c.window}`).join(', ') : 'nothing'}`,
    ),
  );
}
