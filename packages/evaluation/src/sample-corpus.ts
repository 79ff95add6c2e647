// The built-in sample corpus of `@mosaic/evaluation/sample`: three invented pages and 13 questions
// with answers and gold evidence, in GraphRAG-Bench format. The `mosaic demo` and `mosaic explore`
// commands fall back to it when GraphRAG-Bench is absent; @mosaic/testing re-exports it as the
// fixture corpus of the tests (FIXTURE_DOCUMENTS, …). Data and one writer, no dependencies.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A corpus record in GraphRAG-Bench format (`medical.json`, `novel.json`). */
export interface SampleDocument {
  corpus_name: string;
  context: string;
}

export type SampleQuestionType = 'Fact Retrieval' | 'Complex Reasoning' | 'Contextual Summarize' | 'Creative Generation';

/** A question in GraphRAG-Bench format (`*_questions.dev.json`). */
export interface SampleQuestion {
  id: string;
  /** The `corpus_name` of the document that answers it. */
  source: string;
  question: string;
  answer: string;
  question_type: SampleQuestionType;
  /** Evidence statements separated by '; '. Each is a near-verbatim sentence of the source. */
  evidence: string;
  /** Medical questions: the relation text. */
  evidence_relations?: string;
  /** Novel questions: '(subject, predicate, object)' triples separated by '; '. */
  evidence_triple?: string;
}

// Every entity is invented, so no model can answer from memory: the facts are only in these
// pages. Paragraphs are joined with single spaces like the real corpus (no newlines). Filler
// paragraphs keep the two hops of each multi-hop question more than one 1,600-character
// window apart, so that a retriever has to find both.

const MEDICAL_PARAGRAPHS = [
  'About Morrow syndrome What is Morrow syndrome? How is it found? What happens next? This guide explains what is known so far.',
  'What is Morrow syndrome? Morrow syndrome is a rare inflammatory disorder of the connective tissue that mainly affects the knees and wrists.',
  'Prolonged exposure to veltrane dust causes Morrow syndrome. Quarry workers who cut veltrane stone are most at risk.',
  'Reading this guide Each chapter ends with a list of questions you can bring to your next appointment. Bring a friend or family member if you can, and write down the answers you receive. Many people find that a notebook kept only for appointments helps them remember what was said and what to do next. If a word in this guide is new to you, the glossary at the back explains it in plain language. Your care team expects questions and will not mind repeating an explanation. Take the time you need to read each part, and come back to it when a decision is close.',
  'Living with a long illness Plans change, and it is normal to feel tired or worried while waiting for results. Gentle walking, regular meals and a steady sleep routine help many people through the weeks of waiting. Support groups meet in most regions, and many of them also meet online in the evening. Talking with people who have been through the same tests can make the process feel less strange. Let your employer know early if you need time off, and ask the clinic for a letter that explains the schedule of visits. Keep copies of every report in one folder so that a new doctor can read your history quickly.',
  'Signs and symptoms Common symptoms of Morrow syndrome include joint stiffness. Night sweats are another symptom of Morrow syndrome. Some patients also develop a copper-coloured rash on the forearms.',
  'How is Morrow syndrome diagnosed? Morrow syndrome is diagnosed with a blood test for the protein marker MX-7. A scan of the wrists can confirm the diagnosis.',
  'Paying for care Ask the clinic which parts of the care are covered before the first visit, and keep every receipt. Some regions offer travel grants for patients who live far from a specialist centre. A social worker can help you fill in the forms and can tell you which charities give small grants for equipment at home. If money is tight, say so early; there is often more help available than people expect. Pharmacies can sometimes supply a cheaper version of a prescription, so it is worth asking every time a new prescription is written.',
  'Questions to ask your care team What will the next step be? How long will it take to get results? Who should I call if I have a problem at night or at the weekend? Can I keep working during this time? Where can I read more? Write the answers down, and ask again if anything is unclear. It is your right to see the reports and to ask for a second opinion from another centre.',
  'Treatment Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily for six months.',
  'Related fevers Harlow fever, which spreads through water from shallow wells, has an incubation period of about ten days.',
  'Your first appointment The first visit usually takes about an hour. A nurse will measure your height, weight and blood pressure and will ask about your family and your work. The doctor then examines you and explains which tests come next. Bring a list of every medicine you take, including vitamins and herbal remedies, because some of them change how other medicines work. You will be given a booklet with the clinic phone numbers and the times when a nurse can answer calls. Before you leave, make sure you know the date of the next visit and what to do before it.',
  'After treatment ends Follow-up visits continue for at least two years. At each visit the care team checks how your joints move and whether any new signs have appeared. Tell them about any change you notice, even a small one, because early changes are easier to manage. Many people return to their usual activities within a few weeks, but some need physiotherapy to rebuild strength in the hands. Keep a simple diary of good and bad days; it helps the team judge whether the plan is working.',
  'Calditrex can cause liver strain, so patients taking calditrex need a liver function test every month.',
  'Dunmere fever, which is carried by marsh flies, has an incubation period of about three days.',
];

const NOVEL_ONE_PARAGRAPHS = [
  "THE LANTERN OF KESTREL BAY. CHAPTER I. Captain Elias Thorn commanded the Gull's Wing, a two-masted schooner with a green hull.",
  'Mara Thorn was nineteen years old when the season began, and she had never been farther than the lighthouse.',
  'The town in winter was a quiet place. Snow settled on the slate roofs and the fishing boats lay hauled up on the shingle with their masts bare. In the mornings the baker opened his shutters before dawn, and the smell of bread drifted down the steep lanes to the water. Elderly fishermen sat by the harbour wall mending nets and arguing about the weather of long ago. Children ran errands between the cottages and the chandlery, their breath white in the cold air, while the gulls wheeled and cried above the empty quay. Nobody hurried, because there was nowhere in particular to go until the spring tides returned.',
  'In the evenings the family gathered around the kitchen fire. The kettle sang on the hob, and the dog slept with its nose against the warm stones. Their mother read aloud from an old book of sea stories while the wind rattled the window frames. Sometimes a neighbour would knock and stay for a cup of tea and a long tale about a cousin who had gone to sea and never written home. The clock on the mantel ticked slowly, and the lamp burned low before anyone thought of going up to bed. Those were the evenings that everyone in the house remembered long afterwards.',
  "Before the voyage Mara packed a brass compass, her grandmother's map, and a tin of ginger biscuits.",
  "The storm struck the Gull's Wing on the third night, tearing the foresail and driving the schooner toward the Skerry Rocks. Tobin steered through the gap by the light of the lantern on the cliff.",
  'Spring came late that year. The hedges along the cliff path filled slowly with primroses, and the first swallows arrived weeks after they were expected. Farmers above the town complained that the fields were too wet to plough, and the market was thin for a month. Then the wind turned to the south and everything changed at once: the boats went out again, the nets came back heavy, and the inn by the harbour was full of noise until late at night. People spoke of the winter as if it had happened to somebody else.',
  'Her brother Tobin was twenty-three and already knew every rock between the headland and the river mouth.',
  "The Gull's Wing had been built in the shipyards of Port Amberly, where the finest oak was seasoned for ten years.",
  'The Lantern of Kestrel Bay was an iron lamp kept burning on the cliff by the Widow Carrow to guide boats home.',
];

const NOVEL_TWO_PARAGRAPHS = [
  'THE CLOCKMAKER OF VELL. Orrin Vale apprenticed under Master Pell for seven years before opening his own shop.',
  'The workshop was narrow and dark, lit by a single window that faced the square. Shelves ran from floor to ceiling, crowded with springs, wheels, tiny screws in paper twists, and jars of oil that smelled faintly of almonds. Customers came in with pocket watches that had stopped and kitchen clocks that struck the wrong hour, and they left with them ticking. The bell over the door rang all day long. In the back room a stove kept the metal warm in winter, because cold brass is stubborn and does not like to be filed. On market days the square outside was so loud that the ticking could not be heard at all.',
  'Nobody in the town could remember a time before the market. Farmers brought cheese and apples on Thursdays, the tinker sharpened knives by the fountain, and the children bought sugared nuts from a stall with a striped awning. Travellers stopped to water their horses and stayed to listen to the fiddler who played by the steps. News travelled from stall to stall faster than any letter, and by evening everyone knew who had quarrelled, who had married and whose cow had wandered into the churchyard.',
  'Winters in the valley were long. The river froze at its edges, and the mill wheel stood still under a beard of ice. Families burned peat and told the same stories every year, and the schoolmaster made the children copy out long poems by candlelight. When the thaw came the roads turned to mud, and for a week nobody from the farms could reach the town at all. Then the carts rolled in again, loaded with sacks and barrels, and the innkeeper hung out a fresh green bough to show that the new beer was ready to drink.',
  'Master Pell designed the great clock of Vell Cathedral, whose bells can be heard across the valley.',
];

/** The sample corpus pages (an invented medical guide and two invented novels), in GraphRAG-Bench corpus format. */
export const SAMPLE_DOCUMENTS: readonly SampleDocument[] = [
  { corpus_name: 'Medical', context: MEDICAL_PARAGRAPHS.join(' ') },
  { corpus_name: 'Novel-90001', context: NOVEL_ONE_PARAGRAPHS.join(' ') },
  { corpus_name: 'Novel-90002', context: NOVEL_TWO_PARAGRAPHS.join(' ') },
];

/** Questions over SAMPLE_DOCUMENTS with known answers and evidence, in GraphRAG-Bench question format. */
export const SAMPLE_QUESTIONS: readonly SampleQuestion[] = [
  {
    id: 'Fixture-Medical-01',
    source: 'Medical',
    question: 'Which drug treats the condition that is caused by prolonged exposure to veltrane dust?',
    answer: 'Calditrex treats Morrow syndrome, the condition caused by prolonged exposure to veltrane dust.',
    question_type: 'Complex Reasoning',
    evidence: 'Prolonged exposure to veltrane dust causes Morrow syndrome.; Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily.',
    evidence_relations: 'Veltrane dust causes Morrow syndrome; Morrow syndrome is treated with calditrex',
  },
  {
    id: 'Fixture-Medical-02',
    source: 'Medical',
    question: 'What is Morrow syndrome?',
    answer: 'Morrow syndrome is a rare inflammatory disorder of the connective tissue that mainly affects the knees and wrists.',
    question_type: 'Fact Retrieval',
    evidence: 'Morrow syndrome is a rare inflammatory disorder of the connective tissue that mainly affects the knees and wrists.',
    evidence_relations: 'Morrow syndrome is a rare inflammatory disorder of the connective tissue',
  },
  {
    id: 'Fixture-Medical-03',
    source: 'Medical',
    question: 'What are the symptoms of Morrow syndrome?',
    answer: 'Joint stiffness, night sweats, and a copper-coloured rash on the forearms.',
    question_type: 'Fact Retrieval',
    evidence:
      'Common symptoms of Morrow syndrome include joint stiffness.; Night sweats are a symptom of Morrow syndrome.; Some patients develop a copper-coloured rash on the forearms.',
    evidence_relations: 'Morrow syndrome has symptoms joint stiffness, night sweats and a copper-coloured rash',
  },
  {
    id: 'Fixture-Medical-04',
    source: 'Medical',
    question: 'Which has the longer incubation period, Harlow fever or Dunmere fever?',
    answer: 'Harlow fever, at about ten days, compared with about three days for Dunmere fever.',
    question_type: 'Complex Reasoning',
    evidence:
      'Harlow fever, which spreads through water from shallow wells, has an incubation period of about ten days.; Dunmere fever, which is carried by marsh flies, has an incubation period of about three days.',
    evidence_relations: 'Harlow fever has an incubation period of ten days; Dunmere fever has an incubation period of three days',
  },
  {
    id: 'Fixture-Medical-05',
    source: 'Medical',
    question: 'What monitoring do patients need while receiving the drug used to treat Morrow syndrome?',
    answer: 'Patients taking calditrex, the treatment for Morrow syndrome, need a liver function test every month.',
    question_type: 'Complex Reasoning',
    evidence:
      'Morrow syndrome is treated with calditrex, an anti-inflammatory drug taken daily.; Patients taking calditrex need a liver function test every month.',
    evidence_relations: 'Morrow syndrome is treated with calditrex; calditrex requires monthly liver function tests',
  },
  {
    id: 'Fixture-Medical-06',
    source: 'Medical',
    question: 'How is Morrow syndrome diagnosed?',
    answer: 'With a blood test for the protein marker MX-7, and a scan of the wrists can confirm the diagnosis.',
    question_type: 'Contextual Summarize',
    evidence: 'Morrow syndrome is diagnosed with a blood test for the protein marker MX-7.; A scan of the wrists can confirm the diagnosis.',
    evidence_relations: 'Morrow syndrome is diagnosed with a blood test for MX-7',
  },
  {
    id: 'Fixture-Medical-07',
    source: 'Medical',
    question: 'Write a short note from a doctor warning quarry workers about veltrane dust.',
    answer:
      'Dear quarry workers, prolonged exposure to veltrane dust causes Morrow syndrome, and those who cut veltrane stone are most at risk. Please protect yourselves.',
    question_type: 'Creative Generation',
    evidence: 'Prolonged exposure to veltrane dust causes Morrow syndrome.; Quarry workers who cut veltrane stone are most at risk.',
    evidence_relations: 'Veltrane dust causes Morrow syndrome; quarry workers are at risk',
  },
  {
    id: 'Fixture-Novel-01',
    source: 'Novel-90001',
    question: 'In which port was the ship commanded by Captain Elias Thorn built?',
    answer: "Port Amberly, where the Gull's Wing was built.",
    question_type: 'Complex Reasoning',
    evidence: "Captain Elias Thorn commanded the Gull's Wing.; The Gull's Wing was built in the shipyards of Port Amberly.",
    evidence_triple: "(Elias Thorn, commanded, Gull's Wing); (Gull's Wing, was built in, Port Amberly)",
  },
  {
    id: 'Fixture-Novel-02',
    source: 'Novel-90001',
    question: 'Who is older, Mara Thorn or her brother Tobin?',
    answer: 'Tobin, who was twenty-three, while Mara was nineteen.',
    question_type: 'Complex Reasoning',
    evidence:
      'Mara Thorn was nineteen years old when the season began.; Her brother Tobin was twenty-three and already knew every rock between the headland and the river mouth.',
    evidence_triple: '(Mara Thorn, was, nineteen years old); (Tobin, was, twenty-three)',
  },
  {
    id: 'Fixture-Novel-03',
    source: 'Novel-90001',
    question: 'What did Mara pack before the voyage?',
    answer: "A brass compass, her grandmother's map, and a tin of ginger biscuits.",
    question_type: 'Fact Retrieval',
    evidence: "Mara packed a brass compass.; Mara packed her grandmother's map.; Mara packed a tin of ginger biscuits.",
    evidence_triple: "(Mara, packed, brass compass); (Mara, packed, grandmother's map); (Mara, packed, ginger biscuits)",
  },
  {
    id: 'Fixture-Novel-04',
    source: 'Novel-90001',
    question: "Describe what happened to the Gull's Wing during the storm.",
    answer:
      'On the third night the storm tore the foresail and drove the schooner toward the Skerry Rocks, and Tobin steered through the gap by the light of the lantern on the cliff.',
    question_type: 'Contextual Summarize',
    evidence:
      "The storm struck the Gull's Wing on the third night.; The storm tore the foresail and drove the schooner toward the Skerry Rocks.; Tobin steered through the gap by the light of the lantern on the cliff.",
    evidence_triple: "(storm, struck, Gull's Wing); (Tobin, steered through, the gap)",
  },
  {
    id: 'Fixture-Novel-05',
    source: 'Novel-90001',
    question: 'Imagine you are the Widow Carrow. Write a diary entry about keeping the Lantern of Kestrel Bay burning.',
    answer: 'Tonight I kept the iron lamp burning on the cliff again, so that every boat of Kestrel Bay could find its way home.',
    question_type: 'Creative Generation',
    evidence: 'The Lantern of Kestrel Bay was an iron lamp kept burning on the cliff by the Widow Carrow to guide boats home.',
    evidence_triple: '(Widow Carrow, kept burning, Lantern of Kestrel Bay)',
  },
  {
    id: 'Fixture-Novel-06',
    source: 'Novel-90002',
    question: 'Which famous clock was designed by the master under whom Orrin Vale apprenticed?',
    answer: 'The great clock of Vell Cathedral, designed by Master Pell.',
    question_type: 'Complex Reasoning',
    evidence: 'Orrin Vale apprenticed under Master Pell.; Master Pell designed the great clock of Vell Cathedral.',
    evidence_triple: '(Orrin Vale, apprenticed under, Master Pell); (Master Pell, designed, great clock of Vell Cathedral)',
  },
];

/**
 * Ids of the questions whose evidence statements lie in different source windows
 * (1,600 characters, stride 800): no single window covers them all, so retrieval must
 * combine at least two.
 */
export const SAMPLE_MULTI_HOP_IDS: readonly string[] = [
  'Fixture-Medical-01',
  'Fixture-Medical-04',
  'Fixture-Medical-05',
  'Fixture-Novel-01',
  'Fixture-Novel-02',
  'Fixture-Novel-06',
];

export interface WriteSampleCorpusOptions {
  /** Directory to write into (created if missing). */
  dir: string;
}

/** Paths written by writeSampleCorpus, named like the real GraphRAG-Bench files. */
export interface SampleCorpusFiles {
  dir: string;
  /** Every sample document: `corpus.json`. */
  corpusPath: string;
  /** Every sample question: `questions.json`. */
  questionsPath: string;
  /** `medical.json` and `medical_questions.dev.json`. */
  medicalPath: string;
  medicalQuestionsPath: string;
  /** `novel.json` and `novel_questions.dev.json`. */
  novelPath: string;
  novelQuestionsPath: string;
}

/**
 * Write the sample corpus and questions as GraphRAG-Bench JSON files into a directory.
 * Accepts the directory or `{ dir }`.
 */
export async function writeSampleCorpus(options: string | WriteSampleCorpusOptions): Promise<SampleCorpusFiles> {
  const dir = typeof options === 'string' ? options : options.dir;
  await mkdir(dir, { recursive: true });
  const files: SampleCorpusFiles = {
    dir,
    corpusPath: join(dir, 'corpus.json'),
    questionsPath: join(dir, 'questions.json'),
    medicalPath: join(dir, 'medical.json'),
    medicalQuestionsPath: join(dir, 'medical_questions.dev.json'),
    novelPath: join(dir, 'novel.json'),
    novelQuestionsPath: join(dir, 'novel_questions.dev.json'),
  };
  const isMedical = (name: string) => name === 'Medical';
  const write = (path: string, value: unknown) => writeFile(path, `${JSON.stringify(value, null, 1)}\n`, 'utf8');
  await Promise.all([
    write(files.corpusPath, SAMPLE_DOCUMENTS),
    write(files.questionsPath, SAMPLE_QUESTIONS),
    write(
      files.medicalPath,
      SAMPLE_DOCUMENTS.filter((d) => isMedical(d.corpus_name)),
    ),
    write(
      files.medicalQuestionsPath,
      SAMPLE_QUESTIONS.filter((q) => isMedical(q.source)),
    ),
    write(
      files.novelPath,
      SAMPLE_DOCUMENTS.filter((d) => !isMedical(d.corpus_name)),
    ),
    write(
      files.novelQuestionsPath,
      SAMPLE_QUESTIONS.filter((q) => !isMedical(q.source)),
    ),
  ]);
  return files;
}
