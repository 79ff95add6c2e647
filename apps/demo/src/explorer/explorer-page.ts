// The explorer's static page. No inline script or style (the server sends a strict CSP);
// the client bundle (explorer-client.js) fills the sections in.

/** Path of the bundled browser client, served from the assets directory. */
export const CLIENT_SCRIPT = 'explorer-client.js';

export const EXPLORER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mosaic explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/explorer.css">
<script defer src="/${CLIENT_SCRIPT}"></script>
</head>
<body>
<header class="top">
  <h1>Mosaic explorer</h1>
  <p class="tagline">How the question shaped the retrieval: policy, seeds, beam per depth, stop decision, windows, answer.</p>
</header>
<form id="ask-form" class="ask" autocomplete="off">
  <label class="field corpus-field">Corpus <select id="corpus" name="corpus"></select></label>
  <label class="field question-field">Question
    <textarea id="question" name="question" rows="2" maxlength="1000" required placeholder="Ask a question about the corpus…"></textarea>
  </label>
  <label class="field">Policy
    <select id="policy" name="policy">
      <option value="adaptive" selected>Adaptive (analyzer)</option>
      <option value="narrow">Narrow</option>
      <option value="medium">Medium</option>
      <option value="wide">Wide</option>
    </select>
  </label>
  <div class="buttons">
    <button id="ask-button" type="submit">Ask</button>
    <label class="switch"><input id="compare-switch" type="checkbox"> Compare Narrow / Medium / Wide</label>
  </div>
  <div id="examples" class="examples" aria-label="Example questions"></div>
</form>
<div id="status" class="status" role="status" aria-live="polite">
  <noscript>The explorer needs JavaScript.</noscript>
  <span id="boot-message">Loading the explorer client… If this message stays, the client bundle is missing: run <code>pnpm --filter @mosaic/cli build</code>.</span>
</div>
<main id="result" class="result" hidden>
  <section id="policy-panel" class="panel policy-panel" data-testid="policy-panel" aria-labelledby="policy-title">
    <h2 id="policy-title">Policy</h2>
    <div id="policy-body"></div>
  </section>
  <section id="graph-panel" class="panel graph-panel" aria-labelledby="graph-title">
    <h2 id="graph-title">Explored subgraph</h2>
    <div class="depth-controls">
      <button id="depth-prev" type="button" aria-label="Previous depth">◀</button>
      <input id="depth-slider" type="range" min="0" max="0" step="1" value="0" aria-label="Depth">
      <button id="depth-next" type="button" aria-label="Next depth">▶</button>
      <button id="depth-play" type="button">Step through</button>
      <span id="depth-label" class="depth-label"></span>
    </div>
    <div id="graph" class="graph" data-testid="graph"></div>
    <div id="graph-legend" class="legend"></div>
    <div id="beam-list" class="beam-list"></div>
  </section>
  <section id="side-panel" class="panel side-panel" aria-labelledby="answer-title">
    <h2 id="answer-title">Answer</h2>
    <div id="answer"></div>
    <h2 id="windows-title">Top windows</h2>
    <ol id="windows" class="windows" data-testid="windows"></ol>
  </section>
  <section id="stop-panel" class="panel stop-panel" aria-labelledby="stop-title">
    <h2 id="stop-title">Stop decision per depth</h2>
    <div id="stop-body"></div>
  </section>
  <section id="paths-panel" class="panel paths-panel" aria-labelledby="paths-title">
    <h2 id="paths-title">Selected paths</h2>
    <ol id="paths" class="paths"></ol>
  </section>
  <section id="evidence-panel" class="panel evidence-panel" aria-labelledby="evidence-title">
    <h2 id="evidence-title">Evidence units</h2>
    <ol id="evidence" class="evidence"></ol>
  </section>
</main>
<section id="compare" class="compare" hidden aria-labelledby="compare-title" data-testid="compare">
  <h2 id="compare-title">Same question under Narrow / Medium / Wide</h2>
  <div id="compare-body" class="compare-body"></div>
</section>
</body>
</html>
`;

export const EXPLORER_CSS = `
:root { --ink: #1d2330; --muted: #5f6b7a; --line: #d8dee6; --panel: #ffffff; --bg: #f3f5f8; --accent: #2458c6;
  --changed: #fff3cd; --error: #b3261e; --ev: #e9f2ff; --term: #ffe28a; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); }
.top { padding: 10px 18px 0; }
.top h1 { margin: 0; font-size: 20px; }
.tagline { margin: 2px 0 6px; color: var(--muted); }
.ask { display: grid; grid-template-columns: 200px 1fr 190px auto; gap: 8px 12px; align-items: end; padding: 8px 18px; }
.field { display: flex; flex-direction: column; gap: 3px; font-weight: 600; font-size: 12px; color: var(--muted); }
.field select, .field textarea { font: inherit; color: var(--ink); padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.field textarea { resize: vertical; min-height: 38px; }
.buttons { display: flex; flex-direction: column; gap: 6px; }
button { font: inherit; cursor: pointer; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px; }
#ask-button { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; padding: 7px 18px; }
#ask-button:disabled { opacity: .6; cursor: progress; }
.switch { font-size: 12px; color: var(--muted); white-space: nowrap; }
.examples { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 6px; }
.examples button { font-size: 12px; color: var(--accent); border-radius: 12px; padding: 2px 10px; }
.status { padding: 0 18px; min-height: 1.6em; color: var(--muted); }
.status.error { color: var(--error); }
.error-box { border: 1px solid var(--error); background: #fdecea; color: var(--error); border-radius: 8px; padding: 10px 14px; margin: 6px 0; }
.error-box strong { display: block; margin-bottom: 2px; }
.notice { border: 1px solid #e0b400; background: #fff8db; border-radius: 6px; padding: 6px 10px; margin: 4px 0; }
.result { display: grid; gap: 12px; padding: 8px 18px 24px; grid-template-columns: minmax(300px, 1fr) minmax(420px, 2fr) minmax(340px, 1.35fr);
  grid-template-areas: "policy graph side" "policy stop side" "paths evidence side"; align-items: start; }
.result[hidden], .compare[hidden] { display: none; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 10px 12px; min-width: 0; }
.panel h2 { font-size: 15px; margin: 0 0 8px; }
.policy-panel { grid-area: policy; }
.graph-panel { grid-area: graph; }
.side-panel { grid-area: side; }
.stop-panel { grid-area: stop; }
.paths-panel { grid-area: paths; }
.evidence-panel { grid-area: evidence; }
.graph { position: relative; height: 520px; border: 1px solid var(--line); border-radius: 8px; background: #fbfcfe; overflow: hidden; }
.node-info { position: absolute; right: 8px; top: 8px; max-width: 46%; background: rgba(255,255,255,.95); border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; font-size: 12px; z-index: 5; }
.node-info[hidden] { display: none; }
.graph-fallback { padding: 20px; color: var(--error); }
.depth-controls { display: flex; align-items: center; gap: 8px; margin-bottom: 6px; }
.depth-controls input[type=range] { flex: 1; }
.depth-label { min-width: 14em; color: var(--muted); font-size: 12px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 12px; margin-top: 6px; font-size: 12px; color: var(--muted); }
.legend .swatch { display: inline-block; width: 11px; height: 11px; border-radius: 50%; margin-right: 4px; vertical-align: -1px; }
.legend .swatch.line { border-radius: 2px; height: 4px; width: 16px; vertical-align: 2px; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #edf0f4; vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
tr.changed td { background: var(--changed); }
.policy-table { table-layout: fixed; }
.policy-table th:first-child { width: 46%; }
.policy-table td { overflow-wrap: anywhere; }
tr.current td { background: #e8f0ff; }
tr.stop td { font-weight: 600; }
tr.clickable { cursor: pointer; }
.note { font-size: 11px; color: #8a5a00; font-weight: 400; }
.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.muted { color: var(--muted); }
.chips { display: flex; flex-wrap: wrap; gap: 4px; margin: 4px 0; }
.chip { display: inline-block; border-radius: 10px; padding: 1px 8px; font-size: 12px; background: #eef1f5; border: 1px solid var(--line); }
.chip.target { color: #fff; border-color: transparent; }
button.chip { cursor: pointer; }
.badge { display: inline-block; border-radius: 4px; padding: 0 5px; font-size: 11px; font-weight: 600; color: #fff; background: #7a8594; margin-right: 4px; }
.role-core { background: #2ca02c; } .role-connector { background: #d6278f; } .role-uncovered-target { background: #ff7f0e; }
.role-uncovered-facet { background: #17a2b8; } .role-new-relation { background: #9467bd; } .role-fill { background: #8c8c8c; }
.origin-connector { background: #e377c2; } .origin-beam { background: #6baed6; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; font-size: 12.5px; margin: 6px 0; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; }
.changes { margin: 4px 0 0; padding-left: 18px; font-size: 12.5px; }
.paths, .evidence, .windows { margin: 0; padding-left: 0; list-style: none; }
.paths li, .evidence li { border-bottom: 1px solid #edf0f4; padding: 4px 0; font-size: 12.5px; }
.paths li.focused, .evidence li.focused, .windows li.focused { background: #fff6d6; }
.path-line { word-break: break-word; }
.path-line .rel { color: var(--muted); font-style: italic; }
.windows li { border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; margin-bottom: 8px; }
.window-head { display: flex; flex-wrap: wrap; gap: 6px; align-items: baseline; font-size: 12px; color: var(--muted); }
.window-head .rank { font-weight: 700; color: var(--ink); }
.window-text { margin: 4px 0 0; max-height: 10.5em; overflow: auto; font-size: 12.5px; white-space: pre-wrap; }
.window-text .ev { background: var(--ev); }
.window-text mark { background: var(--term); padding: 0 1px; border-radius: 2px; }
.cited { color: #fff; background: var(--accent); border-radius: 4px; padding: 0 5px; font-weight: 600; }
.answer-text { background: #f7f9fc; border-radius: 8px; padding: 8px 10px; margin: 0 0 6px; }
.answer-text a { font-weight: 600; }
.beam-list { font-size: 12px; margin-top: 6px; max-height: 150px; overflow: auto; }
.beam-list ol { margin: 2px 0; padding-left: 18px; }
.compare { padding: 0 18px 24px; }
.compare-body { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 12px; }
.compare-col .graph { height: 300px; }
.compare-col h3 { margin: 0 0 6px; font-size: 15px; }
.compare-col .windows li { padding: 4px 6px; }
.compare-col .window-text { max-height: 4.5em; }
.only { color: #b35c00; font-weight: 600; }
@media (max-width: 1100px) { .result { grid-template-columns: 1fr; grid-template-areas: "policy" "graph" "stop" "side" "paths" "evidence"; }
  .ask { grid-template-columns: 1fr; } .compare-body { grid-template-columns: 1fr; } }
`;
