// The tools with the real `ai` package: called by generateText's tool loop (a scripted mock model from
// ai/test asks for the tool, then answers), and directly; over a small index built through the real
// index composition.
import { createMosaic } from '@mosaic/pipeline';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallIndex, type SmallIndex } from '@mosaic/server/testing';
import { mosaicAskTool, mosaicSearchTool, mosaicTools } from './mosaic-tools.js';

const QUESTION = 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?';
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

let small: SmallIndex;

beforeAll(async () => {
  small = await buildSmallIndex();
}, 180_000);

afterAll(async () => {
  await small?.remove();
});

/** A model that first calls `toolName` with `input`, then (seeing the tool result) answers with text. */
function scriptedModel(toolName: string, input: unknown) {
  const prompts: unknown[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const first = prompts.length === 1;
      return {
        content: first ? [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }] : [{ type: 'text', text: 'Calditrex.' }],
        finishReason: { unified: first ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

describe('AI SDK tools', () => {
  it('search: generateText runs the tool and hands the windows back to the model', async () => {
    const { model, prompts } = scriptedModel('search', { query: QUESTION, windows: 3 });
    const result = await generateText({
      model,
      tools: mosaicTools({ mosaic: createMosaic({ index: small.index }) }),
      prompt: QUESTION,
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Calditrex.');
    const toolResult = result.steps[0]!.toolResults[0]!;
    expect(toolResult.toolName).toBe('search');
    const output = toolResult.output as { windows: { rank: number; text: string; documentId: string }[] };
    expect(output.windows.length).toBeGreaterThan(0);
    expect(output.windows.length).toBeLessThanOrEqual(3);
    expect(output.windows.some((w) => /veltrane/i.test(w.text))).toBe(true);
    // The second model call saw the tool's output.
    expect(JSON.stringify(prompts[1])).toMatch(/veltrane/i);
  });

  it('ask: returns the Answer object with citations into its windows', async () => {
    const ask = mosaicAskTool({ mosaic: createMosaic({ index: small.index }) });
    const output = (await ask.execute({ question: QUESTION }, { toolCallId: 'c', messages: [], context: {} as never })) as {
      answer: { text: string; citations: { window: number; windowId: string }[] };
      windows: { id: string }[];
    };
    expect(output.answer.text.length).toBeGreaterThan(0);
    expect(output.answer.citations.length).toBeGreaterThan(0);
    for (const citation of output.answer.citations) expect(output.windows[citation.window - 1]!.id).toBe(citation.windowId);
  });

  it('rejects input outside the schema before running, and aborts with the call signal', async () => {
    const { model } = scriptedModel('search', { query: '' });
    const result = await generateText({
      model,
      tools: { search: mosaicSearchTool({ mosaic: createMosaic({ index: small.index }) }) },
      prompt: 'x',
      stopWhen: stepCountIs(1),
    });
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true);
    const search = mosaicSearchTool({ mosaic: createMosaic({ index: small.index }) });
    const controller = new AbortController();
    controller.abort();
    await expect(
      search.execute({ query: QUESTION }, { toolCallId: 'c', messages: [], abortSignal: controller.signal, context: {} as never }),
    ).rejects.toMatchObject({
      name: 'MosaicAbortedError',
    });
  });
});
