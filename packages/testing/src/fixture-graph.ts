import type { StubReply, StubRequest, StubResponder } from './openai-stub.js';

/** An entity of the fixture corpus, as a good extractor would name it. */
export interface FixtureEntity {
  name: string;
  type: string;
  description: string;
  /** Surface forms that mark a mention in a passage (case-insensitive). Default: [name]. */
  mentions?: string[];
  /** The corpus_name of the page it appears in. */
  source: string;
}

/** A relation of the fixture corpus, with the phrase of the page that states it. */
export interface FixtureRelation {
  source: string;
  target: string;
  label: string;
  keywords: string[];
  description: string;
  /** A substring of the page (case-insensitive) that states the relation. */
  cue: string;
}

const E = (source: string, name: string, type: string, description: string, mentions?: string[]): FixtureEntity => ({
  source,
  name,
  type,
  description,
  ...(mentions ? { mentions } : {}),
});
const R = (source: string, label: string, target: string, keywords: string[], cue: string, description?: string): FixtureRelation => ({
  source,
  target,
  label,
  keywords,
  cue,
  description: description ?? `${source} ${label} ${target}.`,
});

/** The knowledge graph of FIXTURE_DOCUMENTS: what an ideal extractor finds. */
export const FIXTURE_GRAPH: { readonly entities: readonly FixtureEntity[]; readonly relations: readonly FixtureRelation[] } = {
  entities: [
    E('Medical', 'What is Morrow syndrome?', 'HEADING', 'A heading of the guide asking what Morrow syndrome is.'),
    E('Medical', 'Morrow syndrome', 'CONDITION', 'A rare inflammatory disorder of the connective tissue that mainly affects the knees and wrists.'),
    E('Medical', 'Veltrane dust', 'SUBSTANCE', 'Dust of veltrane stone; prolonged exposure causes Morrow syndrome.'),
    E('Medical', 'Quarry workers', 'PERSON', 'Workers who cut veltrane stone; most at risk of Morrow syndrome.'),
    E('Medical', 'Joint stiffness', 'CONDITION', 'A common symptom of Morrow syndrome.'),
    E('Medical', 'Night sweats', 'CONDITION', 'A symptom of Morrow syndrome.'),
    E('Medical', 'Copper-coloured rash', 'CONDITION', 'A rash on the forearms that some patients with Morrow syndrome develop.'),
    E('Medical', 'MX-7', 'SUBSTANCE', 'A protein marker; a blood test for it diagnoses Morrow syndrome.'),
    E('Medical', 'Calditrex', 'TREATMENT', 'An anti-inflammatory drug taken daily for six months that treats Morrow syndrome; can cause liver strain.'),
    E('Medical', 'Liver function test', 'TREATMENT', 'A test that patients taking calditrex need every month.'),
    E('Medical', 'Harlow fever', 'CONDITION', 'A fever that spreads through water from shallow wells; incubation period of about ten days.'),
    E('Medical', 'Shallow wells', 'LOCATION', 'Wells whose water spreads Harlow fever.'),
    E('Medical', 'Dunmere fever', 'CONDITION', 'A fever carried by marsh flies; incubation period of about three days.'),
    E('Medical', 'Marsh flies', 'OBJECT', 'Flies that carry Dunmere fever.'),
    E('Novel-90001', 'Elias Thorn', 'PERSON', "Captain who commanded the Gull's Wing.", ['Elias Thorn']),
    E('Novel-90001', "Gull's Wing", 'OBJECT', 'A two-masted schooner with a green hull, built in Port Amberly.'),
    E('Novel-90001', 'Port Amberly', 'LOCATION', "Port whose shipyards built the Gull's Wing; oak seasoned for ten years."),
    E('Novel-90001', 'Mara Thorn', 'PERSON', 'Nineteen years old when the season began; had never been farther than the lighthouse.', ['Mara']),
    E('Novel-90001', 'Tobin', 'PERSON', "Mara's brother, twenty-three, who knew every rock between the headland and the river mouth."),
    E('Novel-90001', 'Brass compass', 'OBJECT', 'Packed by Mara before the voyage.'),
    E('Novel-90001', "Grandmother's map", 'OBJECT', 'Packed by Mara before the voyage.'),
    E('Novel-90001', 'Ginger biscuits', 'OBJECT', 'A tin of them packed by Mara before the voyage.'),
    E('Novel-90001', 'Skerry Rocks', 'LOCATION', "Rocks the storm drove the Gull's Wing toward."),
    E('Novel-90001', 'Lantern of Kestrel Bay', 'OBJECT', 'An iron lamp kept burning on the cliff to guide boats home.'),
    E('Novel-90001', 'Widow Carrow', 'PERSON', 'Kept the Lantern of Kestrel Bay burning.'),
    E('Novel-90002', 'Orrin Vale', 'PERSON', 'A clockmaker who apprenticed under Master Pell for seven years.'),
    E('Novel-90002', 'Master Pell', 'PERSON', 'Clockmaker who designed the great clock of Vell Cathedral.'),
    E('Novel-90002', 'Great clock of Vell Cathedral', 'OBJECT', 'A clock whose bells can be heard across the valley.', ['great clock of Vell Cathedral']),
  ],
  relations: [
    R('What is Morrow syndrome?', 'asks about', 'Morrow syndrome', ['definition'], 'What is Morrow syndrome? Morrow syndrome is'),
    R('Veltrane dust', 'causes', 'Morrow syndrome', ['cause', 'exposure'], 'veltrane dust causes Morrow syndrome'),
    R('Quarry workers', 'are exposed to', 'Veltrane dust', ['risk', 'occupation'], 'Quarry workers who cut veltrane stone'),
    R('Morrow syndrome', 'has symptom', 'Joint stiffness', ['symptom'], 'Morrow syndrome include joint stiffness'),
    R('Morrow syndrome', 'has symptom', 'Night sweats', ['symptom'], 'Night sweats are another symptom of Morrow syndrome'),
    R('Morrow syndrome', 'has symptom', 'Copper-coloured rash', ['symptom'], 'copper-coloured rash'),
    R('Morrow syndrome', 'is diagnosed with a blood test for', 'MX-7', ['diagnosis', 'blood test'], 'protein marker MX-7'),
    R('Morrow syndrome', 'is treated with', 'Calditrex', ['treatment', 'drug'], 'Morrow syndrome is treated with calditrex'),
    R('Calditrex', 'requires monthly', 'Liver function test', ['monitoring', 'liver'], 'need a liver function test every month'),
    R('Harlow fever', 'spreads through water from', 'Shallow wells', ['transmission'], 'water from shallow wells'),
    R('Dunmere fever', 'is carried by', 'Marsh flies', ['transmission', 'vector'], 'carried by marsh flies'),
    R('Elias Thorn', 'commanded', "Gull's Wing", ['command', 'ship'], "Elias Thorn commanded the Gull's Wing"),
    R("Gull's Wing", 'was built in', 'Port Amberly', ['shipyard', 'construction'], 'built in the shipyards of Port Amberly'),
    R('Tobin', 'is the brother of', 'Mara Thorn', ['family'], 'Her brother Tobin'),
    R('Mara Thorn', 'packed', 'Brass compass', ['voyage', 'packing'], 'Mara packed a brass compass'),
    R('Mara Thorn', 'packed', "Grandmother's map", ['voyage', 'packing'], "her grandmother's map"),
    R('Mara Thorn', 'packed', 'Ginger biscuits', ['voyage', 'packing'], 'tin of ginger biscuits'),
    R("Gull's Wing", 'was driven toward', 'Skerry Rocks', ['storm'], 'toward the Skerry Rocks'),
    R('Widow Carrow', 'kept burning', 'Lantern of Kestrel Bay', ['lighthouse', 'guide'], 'kept burning on the cliff by the Widow Carrow'),
    R('Orrin Vale', 'apprenticed under', 'Master Pell', ['apprenticeship'], 'Orrin Vale apprenticed under Master Pell'),
    R('Master Pell', 'designed', 'Great clock of Vell Cathedral', ['design', 'clock'], 'Master Pell designed the great clock of Vell Cathedral'),
  ],
};

const lower = (s: string) => s.toLowerCase();

/**
 * The fixture extraction of a passage: the FIXTURE_GRAPH entities mentioned in it and the
 * relations whose cue it contains (their endpoints included). Passages that cut a sentence lose
 * that sentence's relation, as a real extractor would.
 */
export function fixtureExtraction(passage: string): {
  entities: Array<{ name: string; type: string; description: string }>;
  relations: Array<{ source: string; target: string; label: string; keywords: string[]; description: string }>;
} {
  const text = lower(passage.replace(/\s+/g, ' '));
  const relations = FIXTURE_GRAPH.relations.filter((r) => text.includes(lower(r.cue)));
  const names = new Set<string>(relations.flatMap((r) => [r.source, r.target]));
  for (const entity of FIXTURE_GRAPH.entities) {
    if ((entity.mentions ?? [entity.name]).some((m) => text.includes(lower(m)))) names.add(entity.name);
  }
  const entities = FIXTURE_GRAPH.entities.filter((e) => names.has(e.name)).map(({ name, type, description }) => ({ name, type, description }));
  return {
    entities,
    relations: relations.map(({ source, target, label, keywords, description }) => ({ source, target, label, keywords: [...keywords], description })),
  };
}

/**
 * A stub responder that plays a perfect extraction model on the fixture corpus: for a chat
 * request it reads the user messages and answers `{ json: fixtureExtraction(text) }`; other
 * requests get the default reply. The passage may be JSON-encoded in the message (it is decoded
 * when the message contains a JSON string literal).
 */
export function fixtureExtractionResponder(): StubResponder {
  return (request: StubRequest): StubReply | undefined => {
    if (request.kind !== 'chat') return undefined;
    const user = (request.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    return { json: fixtureExtraction(decodeJsonStrings(user)) };
  };
}

/** Replace JSON string literals ("...\"...") by their decoded text, so cues match across escapes. */
function decodeJsonStrings(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    try {
      return JSON.parse(literal) as string;
    } catch {
      return literal;
    }
  });
}
