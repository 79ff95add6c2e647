import type { ChunkStore, EvidenceUnit, RankedWindow } from '@mosaic/spec';
import { InMemoryChunkStore } from '@mosaic/indexing/internal';
import { createBm25Index } from '@mosaic/vector-index';
import { describe, expect, it } from 'vitest';
import { abstainedAnswer, createEvidenceDocuments, describeSource, evidenceDocuments } from './answer-sources.js';
import { judgeSupport, nameForms, namesIn } from './support.js';

const window = (id: string, text: string): RankedWindow => ({ id, documentId: `${id}.txt`, start: 0, end: text.length, text, score: 1, evidenceIds: [] });
const windows = [
  window('gpl', 'A "User Product" is either a consumer product or anything designed for incorporation into a dwelling.'),
  window('mpl', 'Larger Work means a work that combines Covered Software with other material.'),
];
const index = { windowIds: windows.map((w) => w.id) };

describe('namesIn', () => {
  it('lists capitalised words that are not acronyms and do not open the question, a sentence, a bracket or a quotation', () => {
    expect(namesIn('How do I deploy my Python app to Kubernetes?')).toEqual(['Python', 'Kubernetes']);
    expect(namesIn('Can pgBackRest or SQLAlchemy use Node.js?')).toEqual(['pgBackRest', 'SQLAlchemy', 'Node']);
    expect(namesIn('May BSD-licensed code use the GPL-compatible Apache_License?')).toEqual(['Apache', 'License']);
    expect(namesIn('Is the RDS price in USD? What about AWS.')).toEqual([]);
    expect(namesIn('Kubernetes: Which (Docker) image? "Heroku" it is.')).toEqual([]);
    expect(namesIn("Quelle est la capitale de l'Australie ?")).toEqual(['Australie']);
  });
});

describe('judgeSupport', () => {
  it('answers when a top window holds the question', () => {
    const support = judgeSupport({ question: 'What is a User Product?', windows, index });
    expect(support.abstain).toBe(false);
    expect(support.coverage).toBe(1);
    expect(support.bestWindow).toBe('gpl');
  });

  it.each([
    ['a', 'no-content-words'],
    ['?', 'no-content-words'],
    ['🙂🎉', 'unreadable-script'],
    ['这个许可证允许商业使用吗？', 'unreadable-script'],
    ['blorf zintak quibble', 'no-match'],
    ['What is the recommended dose of ibuprofen for a product?', 'no-match'],
  ])('abstains on %s (%s)', (question, reason) => {
    const support = judgeSupport({ question, windows, index });
    expect(support.abstain).toBe(true);
    expect(support.reason).toBe(reason);
  });

  it('names the words the corpus lacks as the question wrote them, not as stems', () => {
    const none = judgeSupport({ question: 'What is the airspeed of unladen swallows?', windows, index });
    expect(none.reason).toBe('no-match');
    expect(none.unknownTokens).toEqual(['airspe', 'unladen', 'swallow']);
    expect(none.explanation).toBe("none of the question's words (airspeed, unladen, swallows) occurs in this corpus");
    const most = judgeSupport({ question: 'Is a User Product measured by its airspeed, velocity and swallows?', windows, index });
    // It names a User Product, which the corpus defines: most of its words are still unknown.
    expect(most.reason).toBe('no-match');
    expect(most.explanation).toBe("most of the question's words (measured, airspeed, velocity, swallows) never occur in this corpus");
  });

  it("declines when one document's top windows hold less than minSupport of the question's weight", () => {
    const three = [...windows, window('pat', 'Patent Licenses are granted for the term of the patent.')];
    const spread = { windowIds: three.map((w) => w.id) };
    // consumer (GPL), material (MPL), patent (the third): one document holds a third of the question.
    const weak = judgeSupport({ question: 'Is a consumer patent material?', windows: three, index: spread });
    expect(weak.unknownTokens).toEqual([]);
    expect(weak.coverage).toBeCloseTo(1 / 3, 3);
    expect(weak.reason).toBe('weak-match');
    expect(weak.explanation).toBe("the best document's passages hold only 33 % of what the question asks");
    // One word the corpus never uses weighs nothing, and is named.
    const named = judgeSupport({ question: 'Is a consumer patent material quickly?', windows: three, index: spread });
    expect(named.weights.quick).toBe(0);
    expect(named.coverage).toBeCloseTo(1 / 3, 3);
    expect(named.explanation).toBe("the best document's passages hold only 33 % of what the question asks; quickly never occurs in this corpus");
    expect(judgeSupport({ question: 'Is a consumer patent material?', windows: three, index: spread, minSupport: 0.3 }).abstain).toBe(false);
  });

  it('declines a question that names something the corpus never mentions, however much else it shares with it', () => {
    const question = 'What is a User Product under Kubernetes?';
    const named = judgeSupport({ question, windows, index });
    expect(named.abstain).toBe(true);
    expect(named.reason).toBe('unknown-name');
    expect(named.explanation).toBe('the question names Kubernetes, which this corpus never mentions');
    // User and Product alone hold more than MIN_SUPPORT of the question: without the name it is answered.
    expect(named.coverage).toBeGreaterThanOrEqual(0.4);
    const two = judgeSupport({ question: 'Is a User Product shipped with Docker or Kubernetes?', windows, index });
    expect(two.explanation).toBe('the question names Docker and Kubernetes, which this corpus never mentions');
    // An acronym, a sentence's first word and a name the corpus uses are not unknown names.
    for (const asked of ['What is a User Product under BSD?', 'Kubernetes: what is a User Product?', 'What is a User Product? Kubernetes.']) {
      const support = judgeSupport({ question: asked, windows, index });
      expect([asked, support.abstain]).toEqual([asked, false]);
    }
    expect(judgeSupport({ question: 'What is a User Product under Covered Software?', windows, index }).abstain).toBe(false);
  });

  it("reads the question's words that one document's top windows hold together (an answer quotes that document), not those of windows of different documents", () => {
    const halves = (documents: [string, string]): RankedWindow[] => [
      { ...window('w1', 'The User Product is tangible personal property.'), documentId: documents[0] },
      { ...window('w2', 'Installation Information means the methods to install software.'), documentId: documents[1] },
    ];
    const question = 'Installation Information for a User Product?';
    const one = judgeSupport({ question, windows: halves(['gpl.txt', 'gpl.txt']), index: { windowIds: ['w1', 'w2', 'w3', 'w4'] } });
    expect(one.coverage).toBe(1);
    expect(one.bestDocument).toBe('gpl.txt');
    expect(one.bestWindow).toBe('w1');
    expect(one.abstain).toBe(false);
    expect(one.explanation).toBe("the best document's passages hold 100 % of what the question asks");
    const two = judgeSupport({ question, windows: halves(['gpl.txt', 'other.txt']), index: { windowIds: ['w1', 'w2', 'w3', 'w4'] } });
    expect(two.coverage).toBe(0.5);
    expect(two.bestDocument).toBe('gpl.txt');
  });

  it('abstains when nothing was retrieved', () => {
    expect(judgeSupport({ question: 'What is a User Product?', windows: [], index }).reason).toBe('no-windows');
  });

  it('warns about a script the encoder cannot read, even when Latin words are found', () => {
    const support = judgeSupport({ question: 'User Product 是什么', windows, index });
    expect(support.abstain).toBe(false);
    expect(support.warnings).toHaveLength(1);
  });

  it('judges two words the corpus writes only as one as that word ("roll back" where it says "rollback")', () => {
    const notes = [window('notes', 'To deploy, run make deploy after tagging the release. Run make rollback to restore the previous release.')];
    const notesIndex = { windowIds: ['notes', 'other'] };
    const joined = judgeSupport({ question: 'How do I roll back a release?', windows: notes, index: notesIndex });
    expect(joined.questionTokens).toEqual(['rollback', 'release']);
    expect(joined.unknownTokens).toEqual([]);
    expect(joined.abstain).toBe(false);
    // Read apart, "roll" and "back" would be missing and the release line would hold a third of the question.
    const apart = judgeSupport({ question: 'How do I roll dice for a release?', windows: notes, index: notesIndex });
    expect(apart.unknownTokens).toEqual(['roll', 'dice']);
    expect(apart.abstain).toBe(true);
  });

  it('judges a word the corpus never uses, written as two words in a window found, as those two words ("rollback" where it says "roll back")', () => {
    const notes = [window('notes', 'To deploy, run make deploy after tagging the release. Roll back a release with make undo.')];
    const notesIndex = { windowIds: ['notes', 'other'] };
    const split = judgeSupport({ question: 'How do I do a rollback of a release?', windows: notes, index: notesIndex });
    expect(split.questionTokens).toEqual(['roll', 'back', 'release']);
    expect(split.unknownTokens).toEqual([]);
    expect(split.abstain).toBe(false);
    // Without the two words apart in a window, "rollback" stays a word the corpus never uses.
    const missing = judgeSupport({
      question: 'How do I do a rollback of a release?',
      windows: [window('notes', 'Tag the release, then run make undo.')],
      index: notesIndex,
    });
    expect(missing.unknownTokens).toEqual(['rollback']);
    expect(split.coverage).toBe(1);
    // "rollback" weighs nothing there (no passage can hold it), and is named.
    expect(missing.weights.rollback).toBe(0);
    expect(missing.coverage).toBe(1);
  });

  it('asks the lexical window index whether the joined word occurs (it need not be in the windows found)', () => {
    const corpus = ['Run make rollback to restore the previous release.', 'Tag each release before you deploy it.'];
    const lexical = createBm25Index({ documents: corpus });
    const found = [window('w1', corpus[1]!)];
    const support = judgeSupport({ question: 'Can I roll back a release?', windows: found, index: { windowIds: ['w0', 'w1'], lexical: { windows: lexical } } });
    expect(support.questionTokens).toEqual(['rollback', 'release']);
    expect(support.unknownTokens).toEqual([]);
  });

  it("weighs a word the corpus never uses as nothing: a question's own framing does not decline it, a name the corpus never mentions or a majority of such words does", () => {
    // 40 windows: half say how to deploy the app, half are about something else.
    const texts = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? `Deploy the app with make deploy, step ${i}.` : `Tune the cache size for workload ${i}.`,
    );
    const corpus = texts.map((text, i) => window(`w${i}`, text));
    const lexicalIndex = { windowIds: corpus.map((w) => w.id), lexical: { windows: createBm25Index({ documents: texts }) } };
    const judge = (question: string) => judgeSupport({ question, windows: corpus.filter((_, i) => i % 2 === 0).slice(0, 5), index: lexicalIndex });
    // "guide" and "explains" frame the question; the corpus never uses them.
    const framed = judge('As the guide explains, how do I deploy the app?');
    expect(framed.unknownTokens).toEqual(['guide', 'explain']);
    expect(framed.weights.guide).toBe(0);
    expect(framed.weights.deploy).toBeCloseTo(Math.log(1 + 40 / 21), 10);
    expect(framed.coverage).toBe(1);
    expect(framed.abstain).toBe(false);
    // A name the corpus never mentions declines it, whatever else it shares with the corpus.
    const named = judge('How do I deploy my app to Kubernetes?');
    expect(named.reason).toBe('unknown-name');
    expect(named.explanation).toBe('the question names Kubernetes, which this corpus never mentions');
    // Written in lower case the word is not a name, and weighs nothing: this question is answered.
    expect(judge('How do I deploy my app to kubernetes?').abstain).toBe(false);
    // More than half of the question's words unknown: it asks about something else.
    const other = judge('How do I deploy sourdough bread loaves?');
    expect(other.unknownTokens).toEqual(['sourdough', 'bread', 'loav']);
    expect(other.reason).toBe('no-match');
    expect(other.explanation).toBe("most of the question's words (sourdough, bread, loaves) never occur in this corpus");
    // Half is not more than half.
    expect(judge('How do I deploy sourdough?').abstain).toBe(false);
  });

  it('leaves out the words that say how the question points at the text ("according to the narrative, as described"), even where the corpus uses them', () => {
    // Half the windows say how to deploy; the other half use the framing words, and never "deploy".
    const texts = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? `Deploy the app with make deploy, step ${i}.` : `According to the narrative, the cache was described and depicted in part ${i}.`,
    );
    const corpus = texts.map((text, i) => window(`w${i}`, text));
    const index = { windowIds: corpus.map((w) => w.id), lexical: { windows: createBm25Index({ documents: texts }) } };
    const support = judgeSupport({
      question: 'According to the narrative, as depicted and described, how do I deploy?',
      windows: corpus.filter((_, i) => i % 2 === 0).slice(0, 5),
      index,
    });
    // Weighed as the corpus's words (each in half of it), they would hold four fifths of the question, none of it in the passages about deploying.
    expect(support.questionTokens).toEqual(['deploy']);
    expect(support.coverage).toBe(1);
    expect(support.abstain).toBe(false);
  });

  it('takes a name as mentioned when the corpus writes it as its place or its people (Silesia and Silesian, Moroccan and Morocco)', () => {
    const texts = [
      'A Silesian poet wrote the fourth part of the novel.',
      'Saffee, a port of Morocco, was built by the Carthaginians.',
      'The ship sailed at dawn.',
    ];
    const corpus = texts.map((text, i) => window(`w${i}`, text));
    const index = { windowIds: corpus.map((w) => w.id), lexical: { windows: createBm25Index({ documents: texts }) } };
    const judge = (question: string, found: number) => judgeSupport({ question, windows: [corpus[found]!], index });
    expect(judge('Which poet wrote the fourth part of the novel in Silesia?', 0).abstain).toBe(false);
    expect(judge('Who built the Moroccan port of Saffee?', 1).abstain).toBe(false);
    // A name in no form at all is still unknown.
    expect(judge('Which poet wrote the fourth part of the novel in Bohemia?', 0)).toMatchObject({
      reason: 'unknown-name',
      explanation: 'the question names Bohemia, which this corpus never mentions',
    });
  });
});

describe('nameForms', () => {
  it("gives a place's people and language, and a people's place", () => {
    expect(nameForms('Assyria')).toContain('assyrian');
    expect(nameForms('Assyrian')).toContain('assyria');
    expect(nameForms('Moroccan')).toContain('morocco');
    expect(nameForms('Morocco')).toContain('moroccan');
    expect(nameForms('Italy')).toContain('italian');
    expect(nameForms('Italian')).toContain('italy');
    expect(nameForms('China')).toContain('chinese');
    expect(nameForms('Paris')).toContain('parisian');
    expect(nameForms('Parisian')).toContain('paris');
    expect(nameForms('Israel')).toContain('israeli');
    expect(nameForms('Canadian')).toContain('canada');
    expect(nameForms('Kubernetes')).not.toContain('kubernetes');
    expect(nameForms('Rome')).toEqual(expect.arrayContaining(['roman']));
    expect(nameForms('Ada')).toEqual([]);
    expect(nameForms('Node.js')).toEqual([]);
  });
});

describe('judgeSupport over a lexical window index', () => {
  it("reads document frequencies from the index's unsorted scores when it has them, as one whole-index search would give them", () => {
    const texts = [
      'A User Product is a consumer product.',
      'A consumer product is tangible personal property.',
      'Larger Work means a work that combines Covered Software.',
      'Covered Software is the Source Code Form.',
      'Product liability is excluded.',
    ];
    const corpus = texts.map((text, i) => window(`w${i}`, text));
    const lexical = createBm25Index({ documents: texts });
    const asked: number[] = [];
    const spied = {
      search: (query: string, k: number) => {
        asked.push(k);
        return lexical.search(query, k);
      },
      scoreAll: (query: string) => lexical.scoreAll(query),
    };
    const searchOnly = { search: (query: string, k: number) => lexical.search(query, k) };
    const judge = (windows: typeof spied | typeof searchOnly, question: string) =>
      judgeSupport({ question, windows: corpus.slice(0, 2), index: { windowIds: corpus.map((w) => w.id), lexical: { windows } } });
    for (const question of ['What is a consumer product?', 'What does Covered Software mean?', 'Is product liability excluded?']) {
      const a = judge(spied, question);
      expect(a).toEqual(judge(searchOnly, question));
      expect(Object.keys(a.weights).length).toBeGreaterThan(1);
    }
    // Not one search ranked every window.
    expect(asked).toEqual([]);
  });
});

describe('abstainedAnswer', () => {
  it('says plainly that nothing answers, names the closest passages and marks the answer', () => {
    const support = judgeSupport({ question: 'What is the recommended dose of ibuprofen for a product?', windows, index });
    const answer = abstainedAnswer({ question: { text: 'What is the dose?' }, support, windows });
    expect(answer.abstained).toBe(true);
    expect(answer.reason).toBe('no-match');
    expect(answer.text).toMatch(/^No passage in this corpus answers “What is the dose\?”/);
    expect(answer.text).toContain('gpl.txt');
    expect(answer.citations.map((c) => c.windowId)).toEqual(['gpl', 'mpl']);
  });
});

describe('describeSource', () => {
  it('names the file, section and lines, or the characters without lines', () => {
    expect(describeSource({ documentId: 'guide.md', start: 5, end: 9, section: ['Install', 'Debian'], lines: { start: 3, end: 4 } })).toBe(
      'guide.md, Install › Debian, lines 3–4',
    );
    expect(describeSource({ documentId: 'a.txt', start: 5, end: 9 })).toBe('a.txt, characters 5–9');
  });
});

describe('createEvidenceDocuments', () => {
  // 300 chunks over 7 documents; a store that counts its lookups.
  const chunkList = Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, documentId: `doc${i % 7}.txt`, start: 0, end: 1, text: 'x' }));
  const storeOf = (list: typeof chunkList) => {
    const byId = new Map(list.map((chunk) => [chunk.id, chunk]));
    const store = {
      lookups: 0,
      getChunk: (id: string) => {
        store.lookups += 1;
        return byId.get(id);
      },
    };
    return store;
  };
  const unit = (id: string, chunkIds: string[], score: number): EvidenceUnit => ({
    id,
    kind: 'entity',
    refId: id.slice('entity:'.length),
    text: id,
    chunkIds,
    score,
    pathIds: [],
  });
  const hub = unit(
    'entity:hub',
    chunkList
      .slice(0, 200)
      .map((chunk) => chunk.id)
      .reverse(),
    0.9,
  );
  const small = unit('entity:small', ['c3', 'c10', 'missing', 'c17'], 0.5);

  it('gives what evidenceDocuments gives, in the same order, looking a large unit up once while its chunk ids stay the same', () => {
    const store = storeOf(chunkList);
    const index = { chunks: store as unknown as ChunkStore };
    const documentsOf = createEvidenceDocuments();
    const expected = [...evidenceDocuments(index, [hub, small]).entries()];
    store.lookups = 0;
    expect([...documentsOf(index, [hub, small]).entries()]).toEqual(expected);
    expect(store.lookups).toBe(200 + 4);
    // Asked again with new arrays of the same ids: only the small unit is looked up.
    expect([...documentsOf(index, [{ ...hub, chunkIds: [...hub.chunkIds] }, small]).entries()]).toEqual(expected);
    expect(store.lookups).toBe(200 + 4 + 4);
    // The same id with other chunks (here, documents 0 and 1 only) is looked up afresh.
    const other = { ...hub, chunkIds: ['c0', 'c1', ...hub.chunkIds.slice(0, 62)].filter((id) => Number(id.slice(1)) % 7 < 2) };
    while (other.chunkIds.length < 64) other.chunkIds.push('c7');
    expect([...documentsOf(index, [other]).entries()]).toEqual([...evidenceDocuments(index, [other]).entries()]);
    expect([...documentsOf(index, [other]).keys()].sort()).toEqual(['doc0.txt', 'doc1.txt']);
    // Another chunk store keeps its own: its chunks lie elsewhere.
    const moved = storeOf(chunkList.map((chunk) => ({ ...chunk, documentId: 'one.txt' })));
    expect([...documentsOf({ chunks: moved as unknown as ChunkStore }, [hub]).entries()]).toEqual([['one.txt', 0.9]]);
  });

  it('asks a store that lists the documents of chunks (documentsOfChunks) instead of reading each chunk, with the same support', () => {
    const counted = storeOf(chunkList);
    const expected = [...evidenceDocuments({ chunks: counted as unknown as ChunkStore }, [hub, small]).entries()];
    const store = new InMemoryChunkStore({ chunks: chunkList, windows: [] });
    let read = 0;
    const getChunk = store.getChunk.bind(store);
    store.getChunk = (id) => {
      read += 1;
      return getChunk(id);
    };
    expect([...evidenceDocuments({ chunks: store }, [hub, small]).entries()]).toEqual(expected);
    expect([...createEvidenceDocuments()({ chunks: store }, [small, hub]).entries()]).toEqual([
      ...evidenceDocuments({ chunks: counted as unknown as ChunkStore }, [small, hub]).entries(),
    ]);
    expect(read).toBe(0);
  });
});
