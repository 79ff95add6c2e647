// Mosaic as AI SDK tools: `mosaicTools({ mosaic })` gives `search` and `ask`, built with `tool()` of `ai`.
// A real model would decide to call them; offline, a scripted model from `ai/test` asks for `search`
// once and then answers, so the example runs generateText's real tool loop end to end.
//   node examples/ai-sdk-tool.mjs [question]
import { mosaicTools } from '@mosaic/ai-sdk';
import { createMosaic } from '@mosaic/pipeline';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { openExampleIndex } from './lib/example-index.mjs';

const question = process.argv[2] ?? 'Which drug treats the condition caused by veltrane dust?';
const { index, release } = await openExampleIndex();
const tools = mosaicTools({ mosaic: createMosaic({ index }), windows: 3 });

const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
let calls = 0;
const model = new MockLanguageModelV4({
  doGenerate: async () => {
    calls += 1;
    return calls === 1
      ? {
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'search', input: JSON.stringify({ query: question }) }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        }
      : {
          content: [{ type: 'text', text: 'Answered from the passages the search tool returned.' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
  },
});

const result = await generateText({ model, tools, prompt: question, stopWhen: stepCountIs(3) });
const output = /** @type {import('@mosaic/ai-sdk').SearchOutput} */ (result.steps[0]?.toolResults[0]?.output);
console.log(`the model called search; it returned ${output.windows.length} windows:`);
for (const window of output.windows)
  console.log(`  [${window.rank}] ${window.documentId}:${window.start}–${window.end}: ${window.text.slice(0, 60).replace(/\s+/g, ' ')}…`);
console.log(`model: ${result.text}`);

// The tools also run without a model:
const answered = await tools.ask.execute({ question }, { toolCallId: 'direct', messages: [], context: /** @type {never} */ ({}) });
console.log(`ask: ${answered.answer.text.slice(0, 120)}… (${answered.answer.citations.length} citations)`);
await release();
