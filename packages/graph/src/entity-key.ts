import { createHash } from 'node:crypto';

/** Leading words dropped from entity names before keying ("the skin" = "skin"). */
const LEADING_DETERMINERS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'its', 'their', 'his', 'her', 'our', 'my', 'your']);

/** Irregular plurals (lower case) and their singular. */
const IRREGULAR_PLURALS: Record<string, string> = {
  children: 'child',
  men: 'man',
  women: 'woman',
  people: 'person',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
  lice: 'louse',
  oxen: 'ox',
  indices: 'index',
  matrices: 'matrix',
  vertices: 'vertex',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  diagnoses: 'diagnosis',
  analyses: 'analysis',
  metastases: 'metastasis',
  prognoses: 'prognosis',
  crises: 'crisis',
  theses: 'thesis',
  hypotheses: 'hypothesis',
  leaves: 'leaf',
  lives: 'life',
  wives: 'wife',
  knives: 'knife',
  halves: 'half',
  selves: 'self',
  thieves: 'thief',
  wolves: 'wolf',
  viruses: 'virus',
  sinuses: 'sinus',
  fetuses: 'fetus',
  movies: 'movie',
  cookies: 'cookie',
  calories: 'calorie',
  pies: 'pie',
  ties: 'tie',
  lies: 'lie',
};

/** Words that look plural but are not (lower case). */
const UNCOUNTABLE = new Set([
  'series',
  'species',
  'news',
  'means',
  'mathematics',
  'physics',
  'economics',
  'diabetes',
  'herpes',
  'rabies',
  'measles',
  'mumps',
  'scabies',
  'arthritis',
  'psoriasis',
  'sepsis',
  'lens',
  'gas',
  'bus',
  'yes',
  'this',
  'his',
  'was',
  'has',
  'always',
  'perhaps',
  'whereas',
  'lupus',
  'virus',
  'status',
  'corpus',
]);

/**
 * The singular of one lower-case English word (rule based; leaves words it does not
 * recognise as plural unchanged). Deterministic and dictionary free.
 */
export function singularize(word: string): string {
  const w = word;
  if (w.length <= 3 || !/^[a-z][a-z-]*$/.test(w)) return w;
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular) return irregular;
  if (UNCOUNTABLE.has(w)) return w;
  if (/(ss|us|is|ous|ics)$/.test(w)) return w;
  if (/[^aeiou]ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(^|[^e])aches$/.test(w)) return w.slice(0, -1);
  if (/(sses|shes|ches|xes|zzes)$/.test(w)) return w.slice(0, -2);
  if (/[^aeiou]oes$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** A name with its parenthesised abbreviation split off ("basal cell carcinoma (BCC)"). */
export interface ParsedEntityName {
  /** The name without the abbreviation, whitespace collapsed. */
  name: string;
  /** The abbreviation, when the parentheses hold one. */
  abbreviation?: string;
}

/**
 * Split "long form (ABBR)" into its long form and abbreviation. The parentheses count as
 * an abbreviation when they hold a single token of 2–10 characters with at least two
 * capitals, and its first letter is the first letter of the long form (case-insensitive);
 * "skin (epidermis)" is therefore not an abbreviation and stays one name.
 */
export function parseEntityName(raw: string): ParsedEntityName {
  const collapsed = raw.replace(/\s+/g, ' ').trim();
  const match = /^(.*\S)\s*\(\s*([^()\s]{2,10})\s*\)$/.exec(collapsed);
  if (match) {
    const longForm = match[1].trim();
    const abbreviation = match[2];
    const capitals = abbreviation.replace(/[^A-Z]/g, '').length;
    const longStart = stripDeterminers(longForm.replace(/^[^\p{L}\p{N}]+/u, ''));
    if (
      capitals >= 2 &&
      /^[A-Za-z][A-Za-z0-9-]*$/.test(abbreviation) &&
      longStart.length > abbreviation.length &&
      longStart[0]?.toLowerCase() === abbreviation[0].toLowerCase()
    ) {
      return { name: longForm, abbreviation };
    }
  }
  return { name: collapsed };
}

function stripDeterminers(text: string): string {
  const words = text.split(' ');
  let i = 0;
  while (i < words.length - 1 && LEADING_DETERMINERS.has(words[i].toLowerCase())) i++;
  return words.slice(i).join(' ');
}

/**
 * The canonical merge key of an entity name: Unicode-normalised, lower case, apostrophes
 * dropped, other punctuation (hyphens included) turned into spaces, whitespace collapsed,
 * leading determiners removed, last word singularised. "The Basal-cell carcinomas" →
 * "basal cell carcinoma". Returns '' for names with no letters or digits.
 */
export function entityKey(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (cleaned === '') return '';
  const words = cleaned.split(' ');
  let i = 0;
  while (i < words.length - 1 && LEADING_DETERMINERS.has(words[i])) i++;
  const kept = words.slice(i);
  if (kept.length === 1 && LEADING_DETERMINERS.has(kept[0])) return '';
  kept[kept.length - 1] = singularize(kept[kept.length - 1]);
  return kept.join(' ');
}

/** The display form of a name: whitespace collapsed, leading determiners removed, outer punctuation trimmed. */
export function displayName(name: string): string {
  const trimPunctuation = (text: string) => text.replace(/^[\s"'“”‘’`.,;:!\-–—_*]+/u, '').replace(/[\s"'“”‘’`,;:\-–—_*]+$/u, '');
  return trimPunctuation(stripDeterminers(trimPunctuation(name.replace(/\s+/g, ' ').trim())));
}

/** Normalised relation label key: lower case, punctuation removed, whitespace collapsed. */
export function relationLabelKey(label: string): string {
  return label
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** A URL-safe slug of a key (ASCII letters, digits and hyphens; at most `maxLength`). */
export function slugify(text: string, maxLength = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/g, '');
}

/** Stable entity id from its merge key: `e-<slug>-<8 hex of sha1(key)>`. */
export function entityIdFromKey(key: string): string {
  const slug = slugify(key);
  return `e-${slug === '' ? 'x' : slug}-${sha1(key).slice(0, 8)}`;
}

/** Stable relation id from its endpoints and label key: `r-<16 hex of sha1>`. */
export function relationIdFromKey(sourceId: string, labelKey: string, targetId: string): string {
  return `r-${sha1(`${sourceId}\t${labelKey}\t${targetId}`).slice(0, 16)}`;
}
