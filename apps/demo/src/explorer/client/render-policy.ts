/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { PolicyControls } from '@mosaic/spec';
import type { ExplorerAskResponse, PolicyDefaultsResponse } from '../explorer-types.js';
import { SEED_COLOR, targetColor } from './colors.js';
import { h } from './dom.js';

function show(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (value === undefined) return '–';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The policy panel: each control next to its default, what validation changed, the analyzer's rationale, targets and facets. */
export function renderPolicy(data: ExplorerAskResponse, defaults: PolicyDefaultsResponse | undefined): HTMLElement {
  const { policy, analysis } = data;
  const controls = (defaults?.controls ?? (Object.keys(data.defaults) as (keyof PolicyControls)[])).filter((c) => c in data.defaults);
  const changeOf = new Map(analysis.changes.map((c) => [c.field, c]));
  const fixed = analysis.analyzer.startsWith('fixed:');

  const head = h(
    'p',
    { class: 'muted' },
    fixed ? `Fixed baseline '${data.policyRequest}': the analyzer was not asked.` : `Chosen by the ${analysis.analyzer} analyzer`,
    analysis.cacheHit ? ' (cached)' : '',
    ` in ${analysis.latencyMs.toFixed(1)} ms.`,
  );
  const rows = controls.map((control) => {
    const used = policy[control];
    const def = data.defaults[control];
    const change = changeOf.get(control);
    const differs = used !== def;
    return h(
      'tr',
      { class: differs || change ? 'changed' : undefined, 'data-control': control },
      h('td', {}, control),
      h('td', { class: 'num' }, h('strong', {}, show(used)), change ? h('div', { class: 'note' }, `${change.kind} from ${show(change.received)}`) : null),
      h('td', { class: 'num muted' }, show(def)),
    );
  });
  const table = h(
    'table',
    { class: 'policy-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'control'), h('th', {}, 'used'), h('th', {}, 'default'))),
    h('tbody', {}, rows),
  );

  const validation = fixed
    ? null
    : analysis.changes.length === 0
      ? h(
          'p',
          { class: 'muted' },
          "Validation changed nothing in the analyzer's output",
          analysis.defaulted.length ? ` (defaulted: ${analysis.defaulted.join(', ')}).` : '.',
        )
      : h(
          'div',
          {},
          h('strong', {}, 'Validation changed:'),
          h(
            'ul',
            { class: 'changes' },
            analysis.changes.map((c) => h('li', {}, h('code', {}, c.field), ` ${c.kind}: ${show(c.received)} → ${show(c.used)} — ${c.reason}`)),
          ),
          analysis.defaulted.length ? h('p', { class: 'muted' }, `Defaulted: ${analysis.defaulted.join(', ')}.`) : null,
        );

  const targets = policy.targetEntities.length
    ? h(
        'div',
        { class: 'chips' },
        policy.targetEntities.map((t, i) => h('span', { class: 'chip target', 'data-target': i, title: `target ${i}` }, t)),
      )
    : h('span', { class: 'muted' }, 'none');
  for (const [i, chip] of [...(targets.children as HTMLCollectionOf<HTMLElement>)].entries()) chip.style.background = targetColor(i);
  const facets = policy.targetFacets.length
    ? h(
        'div',
        { class: 'chips' },
        policy.targetFacets.map((f) => h('span', { class: 'chip' }, f)),
      )
    : h('span', { class: 'muted' }, 'none');
  const seeds = h(
    'div',
    { class: 'chips' },
    data.seeds.map((s, i) => {
      const chip = h(
        'span',
        {
          class: 'chip target',
          title: `seed score ${s.score.toFixed(3)} (entity ${s.entityScore.toFixed(3)}, relation ${s.relationScore.toFixed(3)}) from query “${s.query}”`,
        },
        `S${i + 1} ${s.name}`,
      );
      chip.style.background = s.targetIndex !== undefined ? targetColor(s.targetIndex) : SEED_COLOR;
      return chip;
    }),
  );

  return h(
    'div',
    {},
    data.notices.map((n) => h('div', { class: 'notice' }, n)),
    head,
    table,
    validation,
    h(
      'dl',
      { class: 'kv' },
      h('dt', {}, 'targets'),
      h('dd', {}, targets),
      h('dt', {}, 'facets'),
      h('dd', {}, facets),
      h('dt', {}, 'rationale'),
      h('dd', {}, policy.rationale || '–'),
      h('dt', {}, 'risk'),
      h('dd', {}, policy.retrievalRisk || '–'),
      h('dt', {}, 'seed queries'),
      h(
        'dd',
        {},
        data.seedQueries.map((q) => h('div', {}, `“${q}”`)),
      ),
      h('dt', {}, 'seeds'),
      h('dd', {}, seeds),
    ),
  );
}
