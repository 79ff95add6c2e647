/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The explorer page's client: asks /api/ask and draws the answer. Bundled for the browser (IIFE).
import type { PathRole } from '@mosaic/spec';
import type { AskRequest, CorporaResponse, ExplorerAskResponse, ExplorerErrorBody, PolicyDefaultsResponse, PolicyRequest } from '../explorer-types.js';
import { BEAM_EDGE_COLOR, CONNECTOR_EDGE_COLOR, HUB_COLOR, ROLE_COLORS, ROLE_ORDER, SEED_COLOR, depthColor, targetColor } from './colors.js';
import { byId, clear, h } from './dom.js';
import { createGraphView, type GraphFocus, type GraphView } from './graph-view.js';
import { renderPolicy } from './render-policy.js';
import {
  renderAnswer,
  renderBeam,
  renderEvidence,
  renderPaths,
  renderStopTable,
  renderWindows,
  type FocusRequest,
  type ResultHandlers,
} from './render-results.js';

/** A failed API call, with the server's error body when it sent one. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ExplorerErrorBody | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ExplorerApiError';
  }
}

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, undefined, `The explorer server did not answer (${(error as Error).message}). Is it still running?`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const body = (parsed as { error?: ExplorerErrorBody } | undefined)?.error;
    throw new ApiError(response.status, body, body?.message ?? `HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  if (parsed === undefined) throw new ApiError(response.status, undefined, `The server sent an unreadable answer: ${text.slice(0, 200)}`);
  return parsed as T;
}

function errorBox(error: unknown, what: string): HTMLElement {
  if (error instanceof ApiError && error.body) {
    const b = error.body;
    const title =
      b.stage === 'generator'
        ? 'The generator failed'
        : b.stage === 'retrieval'
          ? 'Retrieval failed'
          : b.stage === 'index'
            ? 'The index could not be opened'
            : b.code === 'busy'
              ? 'The server is busy'
              : b.status >= 500
                ? 'The server failed'
                : 'The request was refused';
    return h(
      'div',
      { class: 'error-box', role: 'alert', 'data-testid': 'error' },
      h('strong', {}, `${title} (HTTP ${b.status}, ${b.name}, ${b.code}${b.field ? `, field ${b.field}` : ''})`),
      b.message,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return h('div', { class: 'error-box', role: 'alert', 'data-testid': 'error' }, h('strong', {}, what), message);
}

interface AppState {
  defaults?: PolicyDefaultsResponse;
  corpora?: CorporaResponse;
  current?: ExplorerAskResponse;
  view?: GraphView;
  compareViews: GraphView[];
  depth: number;
  focus?: string;
  playTimer?: number;
  generation: number;
}

const state: AppState = { compareViews: [], depth: 0, generation: 0 };

function setPageState(value: 'booting' | 'ready' | 'asking' | 'done' | 'error'): void {
  document.body.dataset.state = value;
}

function status(content: string | HTMLElement, isError = false): void {
  const element = byId('status');
  element.classList.toggle('error', isError);
  element.replaceChildren(content);
}

function legend(data: ExplorerAskResponse): HTMLElement[] {
  const dot = (color: string, text: string, line = false) => {
    const swatch = h('span', { class: line ? 'swatch line' : 'swatch' });
    swatch.style.background = color;
    return h('span', {}, swatch, text);
  };
  const items = [dot(SEED_COLOR, 'seed (whole-question query)')];
  data.policy.targetEntities.forEach((t, i) => {
    items.push(dot(targetColor(i), `target: ${t}`));
  });
  items.push(dot(HUB_COLOR, `hub (degree ≥ ${data.graph.hubDegree})`));
  for (let d = 1; d <= Math.max(1, data.traversal.depthReached); d++) items.push(dot(depthColor(d), `reached at depth ${d}`));
  items.push(dot(BEAM_EDGE_COLOR, 'beam edge', true), dot(CONNECTOR_EDGE_COLOR, 'connector edge', true));
  const roles = new Set<PathRole>(data.paths.map((p) => p.role));
  for (const role of ROLE_ORDER) if (roles.has(role)) items.push(dot(ROLE_COLORS[role], `selected: ${role}`, true));
  return items;
}

function focusSets(data: ExplorerAskResponse, request: FocusRequest): GraphFocus & { evidence: Set<string>; paths: Set<string>; windows: Set<number> } {
  const nodes = new Set<string>();
  const edges = new Set<string>();
  const evidence = new Set<string>();
  const paths = new Set<string>();
  const windows = new Set<number>();
  const allPaths = new Map<string, { nodes: string[]; edges: string[] }>();
  for (const d of data.traversal.depths) for (const p of d.beam) allPaths.set(p.id, p);
  for (const p of data.paths) allPaths.set(p.id, p);
  const addPath = (id: string) => {
    const path = allPaths.get(id);
    if (!path) return;
    paths.add(id);
    path.nodes.forEach((n) => {
      nodes.add(n);
    });
    path.edges.forEach((e) => {
      edges.add(e);
    });
  };
  const addEvidence = (id: string) => {
    const unit = data.evidence.find((u) => u.id === id);
    if (!unit) return;
    evidence.add(id);
    unit.pathIds.forEach(addPath);
    if (unit.kind === 'entity') nodes.add(unit.refId);
    else {
      edges.add(unit.refId);
      const edge = data.graph.edges.find((e) => e.id === unit.refId);
      if (edge) nodes.add(edge.source).add(edge.target);
    }
    unit.windowRanks.forEach((r) => {
      windows.add(r);
    });
  };
  if (request.kind === 'path') addPath(request.id);
  else if (request.kind === 'evidence') addEvidence(request.id);
  else {
    windows.add(request.rank);
    data.windows.find((w) => w.rank === request.rank)?.evidenceIds.forEach(addEvidence);
  }
  return { nodes: [...nodes], edges: [...edges], evidence, paths, windows };
}

function applyFocus(request: FocusRequest | undefined): void {
  const data = state.current;
  if (!data || !state.view) return;
  const key = request ? JSON.stringify(request) : undefined;
  if (key !== undefined && key === state.focus) {
    applyFocus(undefined);
    return;
  }
  state.focus = key;
  const sets = request ? focusSets(data, request) : undefined;
  state.view.focus(sets);
  for (const item of document.querySelectorAll<HTMLElement>('#paths li, #beam-list li'))
    item.classList.toggle('focused', !!sets?.paths.has(item.dataset.path ?? ''));
  for (const item of document.querySelectorAll<HTMLElement>('#evidence li'))
    item.classList.toggle('focused', !!sets?.evidence.has(item.dataset.evidence ?? ''));
  for (const item of document.querySelectorAll<HTMLElement>('#windows li')) item.classList.toggle('focused', !!sets?.windows.has(Number(item.dataset.window)));
  if (request?.kind === 'evidence') {
    const index = data.evidence.findIndex((u) => u.id === request.id);
    document.getElementById(`evidence-${index + 1}`)?.scrollIntoView({ block: 'nearest' });
  }
}

const handlers: ResultHandlers = {
  onFocus: (request) => applyFocus(request),
  onDepth: (depth) => setDepth(depth),
};

function setDepth(depth: number): void {
  const data = state.current;
  if (!data) return;
  const max = data.traversal.depthReached;
  state.depth = Math.max(0, Math.min(max, depth));
  byId<HTMLInputElement>('depth-slider').value = String(state.depth);
  byId('depth-label').textContent = `depth ${state.depth} of ${max}${state.depth === max ? ` · stop: ${data.traversal.stopReason}` : ''}`;
  state.view?.setDepth(state.depth);
  byId('stop-body').replaceChildren(renderStopTable(data, state.depth, handlers));
  byId('beam-list').replaceChildren(renderBeam(data, state.depth, handlers));
}

function stopPlaying(): void {
  if (state.playTimer !== undefined) window.clearInterval(state.playTimer);
  state.playTimer = undefined;
  byId('depth-play').textContent = 'Step through';
}

function play(): void {
  const data = state.current;
  if (!data) return;
  if (state.playTimer !== undefined) {
    stopPlaying();
    return;
  }
  setDepth(0);
  byId('depth-play').textContent = 'Stop';
  state.playTimer = window.setInterval(() => {
    if (state.depth >= data.traversal.depthReached) return stopPlaying();
    setDepth(state.depth + 1);
  }, 1100);
}

function drawGraph(container: HTMLElement, data: ExplorerAskResponse, compact: boolean): GraphView | undefined {
  clear(container);
  try {
    return createGraphView(container, data, { compact });
  } catch (error) {
    container.append(
      h(
        'div',
        { class: 'graph-fallback', role: 'alert' },
        `The graph could not be drawn (${(error as Error).message}). The browser needs WebGL for sigma.js; the tables still show every depth.`,
      ),
    );
    return undefined;
  }
}

function render(data: ExplorerAskResponse): void {
  stopPlaying();
  state.view?.kill();
  state.current = data;
  state.focus = undefined;
  byId('result').hidden = false;
  byId('policy-title').textContent = `Policy · ${data.policyRequest === 'adaptive' ? data.analysis.analyzer : `fixed ${data.policyRequest}`}`;
  byId('policy-body').replaceChildren(renderPolicy(data, state.defaults));
  byId('graph-title').textContent = `Explored subgraph · ${data.graph.nodes.length} nodes, ${data.graph.edges.length} edges`;
  state.view = drawGraph(byId('graph'), data, false);
  const slider = byId<HTMLInputElement>('depth-slider');
  slider.max = String(data.traversal.depthReached);
  byId('graph-legend').replaceChildren(...legend(data));
  byId('paths').replaceChildren(...renderPaths(data.paths, handlers));
  byId('evidence').replaceChildren(...renderEvidence(data, handlers));
  byId('windows').replaceChildren(...renderWindows(data, handlers));
  byId('answer').replaceChildren(renderAnswer(data));
  setDepth(data.traversal.depthReached);
}

function compareColumn(
  policy: PolicyRequest,
  data: ExplorerAskResponse,
  reference: ExplorerAskResponse | undefined,
): { element: HTMLElement; graph: HTMLElement } {
  const graph = h('div', { class: 'graph', 'data-testid': `compare-graph-${policy}` });
  const referenceIds = new Set(reference?.windows.map((w) => w.id) ?? []);
  const shared = data.windows.filter((w) => referenceIds.has(w.id)).length;
  const p = data.policy;
  const metrics = h(
    'table',
    {},
    h(
      'tbody',
      {},
      [
        ['seeds · width · depth cap', `${p.seedLimit} · ${p.beamWidth} · ${p.maxDepth}`],
        ['stop regime · connector', `${p.stopRegime} · ${p.useConnector ? 'on' : 'off'}`],
        ['evidence cap · floor', `${p.evidenceCount} · ${p.minEvidence}`],
        ['depth reached · stop', `${data.traversal.depthReached} · ${data.traversal.stopReason}`],
        ['paths evaluated', String(data.traversal.pathsEvaluated)],
        ['selected paths · evidence', `${data.paths.length} · ${data.evidence.length}`],
        ['subgraph', `${data.graph.nodes.length} nodes · ${data.graph.edges.length} edges`],
        [
          reference ? `windows shared with ${reference.policyRequest}` : 'windows',
          reference ? `${shared} of ${data.windows.length}` : String(data.windows.length),
        ],
        ['retrieval time', `${data.timings.retrieval.toFixed(0)} ms`],
      ].map(([k, v]) => h('tr', {}, h('td', { class: 'muted' }, k!), h('td', { class: 'num' }, v!))),
    ),
  );
  const windows = h(
    'ol',
    { class: 'windows' },
    renderWindows(
      data,
      { onFocus: () => undefined, onDepth: () => undefined },
      { limit: 5, compact: true, mark: (w) => (reference && !referenceIds.has(w.id) ? `not in ${reference.policyRequest}` : undefined) },
    ),
  );
  const element = h(
    'div',
    { class: 'panel compare-col', 'data-policy': policy },
    h('h3', {}, policy[0]!.toUpperCase() + policy.slice(1)),
    metrics,
    graph,
    renderAnswer(data, { compact: true }),
    h('strong', {}, 'Top 5 windows'),
    windows,
  );
  return { element, graph };
}

async function runCompare(): Promise<void> {
  const current = state.current;
  const section = byId('compare');
  for (const view of state.compareViews) view.kill();
  state.compareViews = [];
  if (!byId<HTMLInputElement>('compare-switch').checked || !current) {
    section.hidden = true;
    return;
  }
  const generation = state.generation;
  section.hidden = false;
  const body = byId('compare-body');
  const policies: PolicyRequest[] = ['narrow', 'medium', 'wide'];
  const slots = policies.map((policy) =>
    h('div', { class: 'panel compare-col', 'data-policy': policy }, h('h3', {}, policy), h('p', { class: 'muted' }, 'Asking…')),
  );
  body.replaceChildren(...slots);
  // One after another: the server shares two cores with everything else.
  for (const [i, policy] of policies.entries()) {
    try {
      const data = await api<ExplorerAskResponse>('/api/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: current.question, policy, corpus: current.corpus } satisfies AskRequest),
      });
      if (generation !== state.generation) return;
      const reference = current.policyRequest === policy ? undefined : current;
      const column = compareColumn(policy, data, reference);
      slots[i]!.replaceWith(column.element);
      const view = drawGraph(column.graph, data, true);
      if (view) state.compareViews.push(view);
    } catch (error) {
      if (generation !== state.generation) return;
      slots[i]!.replaceChildren(h('h3', {}, policy), errorBox(error, `The ${policy} run failed`));
    }
  }
  section.dataset.state = 'done';
}

async function ask(): Promise<void> {
  const question = byId<HTMLTextAreaElement>('question').value.trim();
  if (!question) {
    status(errorBox(new Error('Type a question first.'), 'Nothing to ask'), true);
    return;
  }
  const policy = byId<HTMLSelectElement>('policy').value as PolicyRequest;
  const corpus = byId<HTMLSelectElement>('corpus').value || undefined;
  const button = byId<HTMLButtonElement>('ask-button');
  const generation = ++state.generation;
  button.disabled = true;
  setPageState('asking');
  byId('compare').dataset.state = '';
  status(`Asking (${policy})…`);
  try {
    const data = await api<ExplorerAskResponse>('/api/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, policy, corpus } satisfies AskRequest),
    });
    if (generation !== state.generation) return;
    render(data);
    status(
      `${data.corpus}: ${data.seeds.length} seeds, depth ${data.traversal.depthReached} (${data.traversal.stopReason}), ${data.paths.length} paths, ${data.windows.length} windows in ${data.timings.total.toFixed(0)} ms.`,
    );
    setPageState('done');
    await runCompare();
  } catch (error) {
    if (generation !== state.generation) return;
    status(errorBox(error, 'The question could not be answered'), true);
    setPageState('error');
  } finally {
    if (generation === state.generation) button.disabled = false;
  }
}

async function boot(): Promise<void> {
  setPageState('booting');
  byId('ask-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void ask();
  });
  byId('question').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void ask();
    }
  });
  byId('compare-switch').addEventListener('change', () => void runCompare());
  byId<HTMLInputElement>('depth-slider').addEventListener('input', (event) => {
    stopPlaying();
    setDepth(Number((event.target as HTMLInputElement).value));
  });
  byId('depth-prev').addEventListener('click', () => (stopPlaying(), setDepth(state.depth - 1)));
  byId('depth-next').addEventListener('click', () => (stopPlaying(), setDepth(state.depth + 1)));
  byId('depth-play').addEventListener('click', () => play());
  try {
    const [corpora, defaults] = await Promise.all([api<CorporaResponse>('/api/corpora'), api<PolicyDefaultsResponse>('/api/policy-defaults')]);
    state.corpora = corpora;
    state.defaults = defaults;
    const select = byId<HTMLSelectElement>('corpus');
    select.replaceChildren(...corpora.corpora.map((c) => h('option', { value: c.name, selected: c.name === corpora.defaultCorpus }, c.name)));
    const showExamples = () => {
      const examples = corpora.corpora.find((c) => c.name === select.value)?.examples ?? [];
      byId('examples').replaceChildren(
        ...examples.map((q) => {
          const button = h('button', { type: 'button', title: 'Ask this example' }, q);
          button.addEventListener('click', () => {
            byId<HTMLTextAreaElement>('question').value = q;
            void ask();
          });
          return button;
        }),
      );
    };
    select.addEventListener('change', showExamples);
    showExamples();
    byId<HTMLTextAreaElement>('question').maxLength = corpora.limits.maxQuestionChars;
    status('Ready. Ask a question, or pick an example.');
    setPageState('ready');
  } catch (error) {
    status(errorBox(error, 'The explorer could not load its settings'), true);
    setPageState('error');
  }
}

void boot();
