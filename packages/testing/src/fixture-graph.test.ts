import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_DOCUMENTS } from './fixture-corpus.js';
import { FIXTURE_GRAPH, fixtureExtraction, fixtureExtractionResponder } from './fixture-graph.js';
import { startOpenAIStub, type OpenAIStub } from './openai-stub.js';

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const page = (name: string) => FIXTURE_DOCUMENTS.find((d) => d.corpus_name === name)!.context.toLowerCase();

describe('FIXTURE_GRAPH', () => {
  it('every relation cue and entity mention occurs in its page; endpoints are entities', () => {
    const byName = new Map(FIXTURE_GRAPH.entities.map((e) => [e.name, e]));
    for (const entity of FIXTURE_GRAPH.entities) {
      const mentions = entity.mentions ?? [entity.name];
      expect(
        mentions.some((m) => page(entity.source).includes(m.toLowerCase())),
        entity.name,
      ).toBe(true);
    }
    for (const relation of FIXTURE_GRAPH.relations) {
      const source = byName.get(relation.source);
      expect(source, relation.source).toBeDefined();
      expect(byName.get(relation.target), relation.target).toBeDefined();
      expect(page(source!.source).includes(relation.cue.toLowerCase()), relation.cue).toBe(true);
    }
  });

  it('holds the two-hop chains of the multi-hop questions', () => {
    const has = (s: string, label: string, t: string) => FIXTURE_GRAPH.relations.some((r) => r.source === s && r.label === label && r.target === t);
    expect(has('Veltrane dust', 'causes', 'Morrow syndrome') && has('Morrow syndrome', 'is treated with', 'Calditrex')).toBe(true);
    expect(has('Elias Thorn', 'commanded', "Gull's Wing") && has("Gull's Wing", 'was built in', 'Port Amberly')).toBe(true);
    expect(has('Orrin Vale', 'apprenticed under', 'Master Pell') && has('Master Pell', 'designed', 'Great clock of Vell Cathedral')).toBe(true);
  });
});

describe('fixtureExtraction', () => {
  it('finds exactly the relations stated in a passage, with their endpoints', () => {
    const extraction = fixtureExtraction('Treatment Morrow syndrome is treated with calditrex, an anti-inflammatory drug.');
    expect(extraction.relations.map((r) => [r.source, r.label, r.target])).toEqual([['Morrow syndrome', 'is treated with', 'Calditrex']]);
    expect(extraction.entities.map((e) => e.name).sort()).toEqual(['Calditrex', 'Morrow syndrome']);
    // A cut sentence loses its relation.
    expect(fixtureExtraction('Morrow syndrome is treated with cal').relations).toEqual([]);
  });

  it('the responder answers an OpenAI chat request with the extraction of a JSON-encoded passage', async () => {
    stub = await startOpenAIStub({ respond: fixtureExtractionResponder() });
    const client = new OpenAI({ apiKey: 'k', baseURL: stub.url, maxRetries: 0 });
    const passage = 'Captain Elias Thorn commanded the Gull\'s Wing, a "two-masted" schooner.';
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'system', content: 'extract' },
        { role: 'user', content: `Passage (JSON string):\n${JSON.stringify(passage)}` },
      ],
    });
    const json = JSON.parse(completion.choices[0]!.message.content!);
    expect(json.relations).toEqual([
      { source: 'Elias Thorn', target: "Gull's Wing", label: 'commanded', keywords: ['command', 'ship'], description: "Elias Thorn commanded Gull's Wing." },
    ]);
    const embeddings = await client.embeddings.create({ model: 'e', input: 'x' });
    expect(embeddings.data).toHaveLength(1);
  });
});
