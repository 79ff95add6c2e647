import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeSurface, extractKeywords, facetOf } from './analyze-surface.js';
import { FACET_CUES } from './surface-lexicon.js';

const cues = (list: { cue: string }[]) => list.map((c) => c.cue);

describe('analyzeSurface: targets, aliases, facets', () => {
  it.each([
    ['What are common symptoms of basal cell carcinoma?', ['basal cell carcinoma'], ['symptoms']],
    ['Which anatomical locations are most commonly affected by basal cell carcinoma (BCC)?', ['basal cell carcinoma'], ['location']],
    ['How does fair skin affect the risk of developing BCC?', ['fair skin', 'BCC'], ['risk']],
    ['What is the purpose of surveillance for relapse in ALL patients?', ['ALL'], ['role', 'follow-up', 'recurrence']],
    ['Which diagnostic tests are used to detect the BCR::ABL1 fusion gene?', ['BCR::ABL1'], ['diagnosis', 'biomarkers']],
  ])('%s', (question, targets, facets) => {
    const s = analyzeSurface(question);
    expect(s.targets).toEqual(targets);
    expect(s.facets).toEqual(facets);
  });

  it('reads a parenthesised abbreviation as an alias, not a second target', () => {
    const s = analyzeSurface('What are the key symptoms of basal cell carcinoma (BCC) and squamous cell carcinoma (SCC)?');
    expect(s.targets).toEqual(['basal cell carcinoma', 'squamous cell carcinoma']);
    expect(s.aliases).toEqual({ 'basal cell carcinoma': ['BCC'], 'squamous cell carcinoma': ['SCC'] });
    expect(cues(s.signals.coordination)).toEqual(['X and Y']);
    expect(cues(s.signals.identity)).toContain('defined abbreviation');
  });

  it('skips the rest of a parenthetical aside', () => {
    const s = analyzeSurface('Format NSCLC diagnosis into a SOAP (Subjective, Objective, Assessment, Plan) note.');
    expect(s.targets).not.toContain('Objective');
    expect(s.targets).not.toContain('Assessment');
  });

  it('drops roles, documents and lone adjectives of writing tasks from targets', () => {
    const s = analyzeSurface(
      'Imagine you are a hematology fellow receiving a new referral for a patient with suspected chronic myeloid leukemia (CML). Draft a detailed diagnostic workup plan.',
    );
    expect(s.targets).toContain('chronic myeloid leukemia');
    for (const t of s.targets) expect(t).not.toMatch(/fellow|referral|plan|detailed/);
  });

  it('reads "what does the documentation say about X" as a frame: the source and its reporting verb are no target', () => {
    expect(analyzeSurface('What does the documentation say about Device tree bindings for IR LED?').targets).toEqual(['Device tree bindings', 'IR LED']);
    expect(analyzeSurface('What does the manual say about connection pooling?').targets).toEqual(['connection pooling']);
    expect(analyzeSurface('What do the docs say about asyncio event loops and threads?').targets).toEqual(['asyncio event loops', 'threads']);
    expect(analyzeSurface('What does the novel say about the Sultan?').targets).toEqual(['Sultan']);
    // The speaker of a reporting verb is a target; the verb is not part of it.
    expect(analyzeSurface('What did Walters say to Cecil?').targets).toEqual(['Walters', 'Cecil']);
    expect(analyzeSurface('What did Chloe Stickney tell her sons?').targets).toEqual(['Chloe Stickney', 'sons']);
    // A name ending in "Docs" is still a name.
    expect(analyzeSurface('How do I share a file in Google Docs?').targets).toContain('Google Docs');
  });

  it('keeps identifiers joined by underscores whole, and leaves the verbs of how-to questions out of targets', () => {
    expect(analyzeSurface('Which option of pg_dump excludes a table?').targets).toEqual(['pg_dump']);
    expect(analyzeSurface('Where is the max_connections setting documented?').targets).toEqual(['max_connections setting']);
    expect(extractKeywords('Is __init__ called by pg_dump?')).toEqual(['init', 'called', 'pg_dump']);
    expect(analyzeSurface('How do I configure connection pooling in PostgreSQL?').targets).toEqual(['connection pooling', 'PostgreSQL']);
    expect(analyzeSurface('How do I enable huge pages on Linux?').targets).toEqual(['huge pages', 'Linux']);
    expect(analyzeSurface('What happens when the OOM killer runs?').targets).toEqual(['OOM killer']);
    expect(analyzeSurface('Why does my Python script raise UnicodeDecodeError?').targets).toEqual(['Python script', 'UnicodeDecodeError']);
  });

  it('does not coordinate adjectives ("flat, pale or yellow area")', () => {
    const s = analyzeSurface('What is a flat, pale or yellow area on the skin indicative of in BCC?');
    expect(s.signals.coordination).toEqual([]);
  });

  it('extracts lowercase, deduplicated content keywords in order, keeping all-caps acronyms', () => {
    expect(extractKeywords('What is the role of ALL and all the ALL tests in the diagnosis?')).toEqual(['role', 'all', 'tests', 'diagnosis']);
    expect(extractKeywords('')).toEqual([]);
  });

  it('facetOf agrees with a scan of the facet cue list', () => {
    for (const word of ['symptoms', 'biopsies', 'follow-up', 'therapies', 'metastases', 'relapse', 'cancer', 'care', 'types']) {
      const expected = FACET_CUES.find(([pattern]) => pattern.test(word))?.[1];
      expect(facetOf(word)).toBe(expected);
    }
  });
});

describe('analyzeSurface: signals', () => {
  it.each([
    ['comparison', 'How does the treatment of BCC differ from SCC?', 'difference'],
    ['comparison', 'Compare stage I and stage II colon cancer.', 'compare'],
    ['comparison', 'What is the difference between CLL and SLL?', 'between X and Y'],
    ['mediation', 'How does smoking affect cervical cancer risk?', 'how does X affect Y'],
    ['mediation', 'Why is a biopsy needed for BCC?', 'why'],
    ['mediation', 'What is the relationship between glioma grade and prognosis?', 'relationship between'],
    ['mediation', 'If a patient has dMMR, what testing is required?', 'hypothetical scenario'],
    ['list', 'What are the risk factors of glioma?', 'what are'],
    ['list', 'Name three symptoms of FL.', 'list/name'],
    ['list', 'Which imaging modalities are used for NPC?', 'plural head'],
    ['list', 'What are the known causes of pancreatitis?', 'plural head'],
    ['task', 'You are an oncologist. Write a referral letter for a patient with NPC.', 'role-play'],
    ['task', 'Rewrite the guideline into a discharge summary.', 'instruction'],
    ['direct', 'What is stomach cancer?', 'what is'],
    ['direct', 'Who should undergo lung cancer screening?', 'who/when/where'],
    ['direct', 'Does older age influence the risk of BCC?', 'yes/no'],
    ['direct', 'In the narrative of the siege, who led the defence?', 'who/when/where'],
    ['subtype', 'What defines Stage 0 colon cancer?', 'numbered type/stage'],
    ['subtype', 'What is the treatment of type 2 diabetes?', 'numbered type/stage'],
    ['subtype', 'Which biomarker defines "triple-negative" breast cancer?', 'quoted term'],
    ['subtype', 'Which drugs target BCR::ABL1?', 'hyphenated code'],
    ['subtype', 'How is high-risk local CSCC followed up?', 'risk/grade qualifier'],
    ['identity', 'What did Thomas Flavel write about Mary Mundy?', 'capitalised name'],
    ['identity', 'Which mutation of IDH1 is targeted?', 'identifier'],
  ] as const)('%s: %s', (signal, question, cue) => {
    expect(cues(analyzeSurface(question).signals[signal])).toContain(cue);
  });

  it.each([
    ['What is the relationship between X and Y?', 'direct'],
    ['What is stomach cancer?', 'mediation'],
    ['What is stomach cancer?', 'comparison'],
    ['What is stomach cancer?', 'list'],
    ['Which phase of CML has more blasts?', 'task'],
    ['In which English county is Whitesand Bay?', 'task'],
    ['What are the symptoms of a 62-year-old patient?', 'identity'],
    ['What causes basal cell carcinoma?', 'list'],
  ] as const)('no false signal: "%s" has no %s cue', (question, signal) => {
    expect(analyzeSurface(question).signals[signal]).toEqual([]);
  });
});

describe('analyzeSurface: robustness', () => {
  it('is deterministic', () => {
    const q = 'Which diagnostic methods are common to both adrenocortical carcinoma (ACC) and pheochromocytoma?';
    expect(analyzeSurface(q)).toEqual(analyzeSurface(q));
  });

  it('never throws and stays bounded on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })),
        (text) => {
          const s = analyzeSurface(text);
          expect(Array.isArray(s.targets)).toBe(true);
          expect(s.text.length).toBeLessThanOrEqual(4000);
          for (const t of s.targets) expect(t.trim()).toBe(t);
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });

  it('handles empty and huge input', () => {
    expect(analyzeSurface('').targets).toEqual([]);
    const huge = 'What are the symptoms of cancer and '.repeat(10_000);
    const started = performance.now();
    const s = analyzeSurface(huge);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(s.text.length).toBeLessThanOrEqual(4000);
  });
});
