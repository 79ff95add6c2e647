/**
 * Lexicons of the offline analyzer. Plain word lists and regexes over the question surface; no model.
 * Everything here is about question *shape* (how things are asked), never about specific questions.
 */

/** Function words, question words and auxiliaries: they break noun-phrase chunks and are never keywords. */
export const STOP_WORDS = new Set(
  `a an the this that these those there here it its it's they them their theirs he she him her his hers we us our you your yours i me my mine
  what which who whom whose when where why how whether if then than so such as of in on at by for with without within into onto from to
  toward towards upon about above below over under between among across through throughout during before after since until while
  and or nor but also both either neither not no yes any each every all some most more many much few several other another own same
  is are was were be been being am do does did done doing has have had having can could may might must shall should will would
  very just only even still already often usually typically commonly generally especially particularly specifically mainly primarily
  based according regarding concerning including include includes included versus vs via per like unlike e.g i.e etc
  someone something anyone anything one ones way ways`.split(/\s+/),
);

/**
 * Verbs and verb forms that separate noun phrases in questions ("How does X affect Y", "Which tests are used to
 * detect Y"). They are dropped from targets; the content ones still count as keywords.
 */
export const CHUNK_BREAK_VERBS = new Set(
  `affect affects affected affecting impact impacts impacted influence influences influenced lead leads led cause causes caused
  result results resulted contribute contributes contributed relate relates related associated association link linked
  use used using help helps determine determined determines distinguish distinguishes distinguished differ differs compare compared comparing
  develop developing develops developed considered consider recommended recommend recommends required require requires needed need needs
  made make makes called known defined define defines described describe describes mentioned involved involve involves classified
  performed perform given give gives found find diagnosed treated managed detected detect identify identified indicate indicates indicated
  occur occurs occurring appear appears seen shown show shows present presents presenting play plays include spread spreads grow grows
  become becomes remain remains tend tends typically preferred available possible common commonly most particularly
  explain describe summarize summarise outline list name write draft rewrite transform imagine prepare reformat format compose construct
  assume ensure emphasizing emphasising integrating including referencing specifying justify structure structured
  necessary essential important suggest suggests prompt prompts confirm confirms confirming classify classified assess assessed assessing
  categorized categorised selected select tested test investigated prioritized prioritised characterize characterise diagnose
  inform informs guide guides harboring harbouring planning starting understanding reveal reveals revealed originate originates
  originating arise arises arising progress progresses invade invades correspond corresponds confined supported determining
  encouraged enroll enrol change changes discussed added removes remove targets target produced produce increase increases
  undergo undergoes belong belongs extends extend enhances enhance together rather next potentially further fully likely
  receiving drafting preparing seeing asked provided incorporating ensuring outlines outline emphasize highlight highlighting
  covering describing explaining addressing focusing summarizing summarising detailing listing noting using writing
  considered recommended warranted indicated performed done obtained measured evaluated monitored monitor benefit benefits
  say says said saying tell tells told mention mentions
  configure configured configuring enable enabled enabling disable disabled disabling install installed installing
  create creates created creating explained documented exclude excludes excluded raise raises raised happen happens happened runs`.split(/\s+/),
);

/** Leading modifiers stripped from a chunk before deciding whether it names a target. */
export const GENERIC_MODIFIERS = new Set(
  `common main key typical major different other specific certain various important notable relevant overall usual
  standard initial first general possible potential recommended available essential particular specific unique new current
  most least less more rare uncommon frequent frequently likely unlikely appropriate additional probable minimal increased higher
  lower distinguishing two three four five six several multiple suspected detailed preliminary formal comprehensive concise
  patient-friendly structured evidence-based brief short clear relevant newly recently recent`.split(/\s+/),
);

/**
 * Role, document and discourse nouns ("a hematology fellow", "a referral letter", "the narrative", "what
 * does the documentation say about …"): a chunk ending in one is dropped, whatever its case.
 */
export const ROLE_NOUNS = new Set(
  `fellow fellows oncologist physician practitioner specialist pathologist hematopathologist officer official intern educator nurse
  clinician attending doctor surgeon resident student consultant counselor counsellor pulmonologist endocrinologist urologist
  gynecologist dermatologist radiologist hematologist cardiologist gastroenterologist otolaryngologist writer journalist
  referral letter note notes summary summaries advisory leaflet email diary protocol board team consultation center centre
  guideline guidelines facts recommendations audience reader readers colleague colleagues workflow plan report narrative entry document brochure handout
  novel story text book passage chapter account accounts context depiction descriptions description portrayal retelling references
  documentation manual handbook article articles`.split(/\s+/),
);

/** Document nouns that end a chunk only as written here: "what do the docs say" drops "docs", "Google Docs" stays a name. */
export const LOWERCASE_ROLE_NOUNS = new Set(['docs']);

/** Facet vocabulary: a head noun (or cue) → the facet it asks about. */
export const FACET_CUES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(symptoms?|signs?|presentations?|manifestations?|complaints?)$/, 'symptoms'],
  [/^(causes?|etiology|aetiology|origins?|mechanisms?|pathogenesis)$/, 'causes'],
  [/^(risks?|predispositions?|hereditary|inherited|susceptibility)$/, 'risk'],
  [
    /^(diagnosis|diagnoses|diagnostic|diagnosing|tests?|testing|workup|work-up|imaging|modalit(y|ies)|biops(y|ies)|detection|criteria|confirmation|evaluation|assessments?)$/,
    'diagnosis',
  ],
  [/^(screening|surveillance|monitoring|follow-up|followup|follow)$/, 'follow-up'],
  [/^(treatments?|therap(y|ies)|surger(y|ies)|surgical|chemotherapy|regimens?|drugs?|medications?|management|procedures?|interventions?|care)$/, 'treatment'],
  [/^(prognosis|prognostic|survival|outcomes?)$/, 'prognosis'],
  [/^(stag(e|es|ing)|grades?|grading)$/, 'staging'],
  [/^(types?|subtypes?|classifications?|categories|category|kinds?|variants?|forms?|subgroups?)$/, 'types'],
  [/^(biomarkers?|markers?|genes?|genetic|genetics|mutations?|alterations?|molecular|chromosomes?|fusions?|expression)$/, 'biomarkers'],
  [/^(sites?|locations?|organs?|anatomical|areas?|regions?|metastas(is|es)|spread)$/, 'location'],
  [/^(effects?|impacts?|influences?|consequences?|implications?)$/, 'effect'],
  [/^(relationships?|connections?|links?|associations?|interactions?|relation)$/, 'relationship'],
  [/^(differences?|distinctions?|comparison|similarities)$/, 'comparison'],
  [/^(prevention|preventing|prevent)$/, 'prevention'],
  [/^(roles?|functions?|purposes?|uses?)$/, 'role'],
  [/^(complications?|side|toxicit(y|ies)|adverse)$/, 'complications'],
  [/^(recurrences?|relapses?|progression|transformation)$/, 'recurrence'],
  [/^(features?|characteristics?|properties|patterns?|definition|definitions)$/, 'features'],
  [/^(factors?|considerations?)$/, 'factors'],
];

/** Head nouns that make a chunk generic (a facet or a category word), never a named target on their own. */
export const GENERIC_HEADS = new Set(
  `methods method options option steps step approaches approach strategies strategy factors factor considerations consideration
  types type subtypes subtype examples example features feature characteristics characteristic items aspects aspect components component
  tests test findings finding practices practice recommendations recommendation elements element points point things thing role roles
  function functions purpose kinds kind forms form patients patient people individuals cases case male female woman man women
  men child children adults adult family families community population populations situations situation circumstances
  sites site locations location organs organ areas area cells cell conditions condition diseases disease modalities modality
  procedures procedure treatments treatment therapies therapy symptoms symptom signs sign risk risks causes cause effects effect
  relationship relationships connection connections difference differences context terms term information guideline guidelines
  summary note letter plan report advisory leaflet email protocol workflow combination sequence phases phase criteria
  status statuses results result presence absence level levels group groups category categories`.split(/\s+/),
);

// ---- signal patterns (each is a question-shape cue) -------------------------------------------------------

/** Comparison: two or more things set against each other. */
export const COMPARISON_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcompar(e|ed|es|ing|ison)\b/i, 'compare'],
  [/\bdiffer(s|ed|ence|ences|ent from)?\b/i, 'difference'],
  [/\bdistinguish(es|ed|ing)?\b/i, 'distinguish'],
  [/\b(versus|vs\.?)\b/i, 'versus'],
  [/\bbetween\b[^?.]*\band\b/i, 'between X and Y'],
  [/\bboth\b/i, 'both'],
  [/\b(common|shared) (to|between|among)\b|\bshared (by|among|between)\b|\bunique to\b/i, 'shared/unique'],
  [/\bsimilarit(y|ies)\b|\bcontrast\b/i, 'similarity/contrast'],
];

/** Mediated or causal chains: the answer runs through an unstated intermediate. */
export const MEDIATION_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /\bhow (does|do|did|can|could|might|may|would|will) [^?]*\b(affect|impact|influence|alter|change|shape|determine|guide|inform|contribute|relate|lead|result|drive|modify)s?\b/i,
    'how does X affect Y',
  ],
  [/\bwhy\b/i, 'why'],
  [/\b(lead|leads|led|leading) to\b|\bresult(s|ed)? in\b|\bgive rise to\b/i, 'lead to'],
  [/\b(relationship|connection|link|interplay|association) (between|of|with)\b|\bhow (is|are) [^?]* (related|linked|connected)\b/i, 'relationship between'],
  [/\bcontribut(e|es|ed|ing) to\b/i, 'contribute to'],
  [/\b(mechanism|pathway|cascade|chain)\b/i, 'mechanism'],
  [/\bprogress(es|ed|ion)? from\b|\bsequence of\b|\bstepwise\b|\bstep[- ]by[- ]step\b/i, 'progression/sequence'],
  [/\bin what way(s)?\b|\bthrough which\b|\bby which\b|\bwhat makes\b/i, 'in what way'],
  [/^\s*(if|in a patient|for a patient|given that|assuming|when a patient)\b/i, 'hypothetical scenario'],
  [/\b(and|,) (how|why) (does|do|is|are|would|might|can|should|must)\b/i, 'follow-on how/why clause'],
  [/\bimplications?\b|\bconsequences?\b/i, 'implications'],
];

/** Output cardinality: several items must be covered. */
export const LIST_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\s*(what|which) are\b/i, 'what are'],
  [/^\s*(list|name|enumerate|identify)\b/i, 'list/name'],
  [/\b(two|three|four|five|six|several|multiple|various|all|any)\s+(of\s+the\s+)?[a-z-]+s\b/i, 'counted plural'],
  [/\bexamples? of\b|\bsuch as\b/i, 'examples'],
  [/\b(types|subtypes|kinds|forms|categories|classes|variants)\b/i, 'types'],
  // 'causes' right after a question word or subject pronoun is the verb ("What causes BCC?"), not a plural head.
  [
    /\b(symptoms|signs|factors|(?<!\b(?:what|which|that|who|it|this)\s)causes|options|methods|tests|modalities|treatments|therapies|strategies|steps|approaches|considerations|features|sites|locations|organs|drugs|biomarkers|criteria|complications|recommendations|procedures|regimens|alterations|mutations|genes)\b/i,
    'plural head',
  ],
];

/** Summary or generation tasks: broad coverage of several facets. */
export const TASK_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\s*(imagine|you are|as an?|assume the role|pretend)\b/i, 'role-play'],
  [
    /^\s*(write|draft|rewrite|transform|reformat|format|prepare|compose|construct|create|design|develop|summari[sz]e|outline|describe|explain|discuss|provide)\b/i,
    'instruction',
  ],
  [
    /\b(write|draft|prepare|compose|create|produce|rewrite|transform|format)\b[^?]*\b(summary|letter|note|advisory|leaflet|protocol|report|email|diary|entry|plan|speech|story|poem|dialogue|narrative|essay|article|post)\b/i,
    'document to write',
  ],
  [/\b(overview|summari[sz]e|in detail|comprehensive|key (points|facts|elements|recommendations))\b/i, 'overview'],
];

/** Direct single-fact shapes (definitional or one value). */
export const DIRECT_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\s*what(\s+is|'s)\s+(an?\s+)?(?!the\s+(relationship|connection|link|difference|role|impact|effect|influence)\b)/i, 'what is'],
  [/^\s*what (does|do) [^?]{1,60}\b(stand for|mean|refer to|describe|measure|indicate)\b/i, 'what does X mean'],
  [/^\s*(define|definition of)\b/i, 'define'],
  [/^\s*(who|when|where)\b/i, 'who/when/where'],
  [/^\s*what (type|kind|class|stage|grade|age|percentage|proportion|number) of\b/i, 'what type of'],
  [/^\s*(is|are|does|do|can|was|were|has|have)\s/i, 'yes/no'],
  [/^\s*(which|what) [a-z-]+(\s[a-z-]+)? (is|was)\b/i, 'which X is'],
  [/^\s*how (many|much|often|long|old)\b/i, 'how many'],
];

/** Exact subtype / stage / code: exploration must stay on it. */
export const SUBTYPE_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b([Tt]ype|[Ss]tage|[Gg]rade|[Pp]hase|[Cc]lass|[Gg]roup|[Tt]ier|[Ll]evel|[Cc]ategory)\s+(\d+[a-z]?\d*|[IVX]{1,4}[A-C]?\d?)\b/, 'numbered type/stage'],
  [/\bstages?\s+[IVX0-4]+[A-C]?\d?(\s*[-–]\s*[IVX0-4]+[A-C]?)?\b/, 'stage range'],
  [/["“”]|(?:^|\s)['‘][^'’]+['’](?=[\s,.?!;:]|$)/, 'quoted term'],
  [/\b[A-Za-z]*\d[A-Za-z0-9]*(?:[-:/][A-Za-z0-9]+)+\b|\b[A-Z]{2,}[A-Z0-9]*(?:[-:/]+[A-Z0-9]+)+\b/, 'hyphenated code'],
  [/\b(high|low|intermediate|very high|very low)[- ]risk\b|\b(high|low)[- ]grade\b|\b(early|late|advanced)[- ]stage\b/i, 'risk/grade qualifier'],
  [/\b(mature|immature|[A-Z]-cell|[A-Z]{1,3}-positive|[A-Z]{1,3}-negative|[a-z]+-(positive|negative|avid|type|like))\b/, 'subtype qualifier'],
  [/\bsubtype(s)? (of|such as|called|known as)\b|\bsubtype\b/i, 'subtype'],
];

/** Identity cues: exact names or identifiers matter more than relation semantics. */
export const IDENTITY_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b[A-Z][a-z]+(?:['’]s)?(?:\s+(?:[A-Z][a-z]+|[A-Z]\.|of|de|van|von|the|la|le|du|da|del)){1,4}\b/, 'capitalised name'],
  [/\b(?=[A-Za-z]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{2,}(?:[-:/]+[A-Za-z0-9]+)*\b/, 'identifier with digits'],
  [/^\s*(who|whom|whose)\b|\b(named|called|titled|known as)\b/i, 'who/named'],
];
