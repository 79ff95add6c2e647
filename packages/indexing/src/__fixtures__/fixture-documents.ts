import type { SourceDocument } from '@mosaic/spec';

/** Small documents with known facts, written for the tests. */
export const MEDICAL_TEXT = [
  'What is basal cell skin cancer?',
  'Basal cell carcinoma (BCC) is the most common type of skin cancer.',
  'BCC usually develops on the face, head, and neck.',
  'Surgery removes the tumor in most cases.',
  'Ultraviolet radiation damages the DNA of skin cells.',
  'Melanocytes produce melanin.',
  'Melanin protects the skin from ultraviolet rays.',
  'Mohs surgery is used for tumors on the face.',
  'Radiation therapy treats BCC when surgery is not possible.',
].join(' ');

export const NOVEL_TEXT = [
  'Tregeagle was doomed to empty Dozmare Pool as a punishment.',
  'The old steward lived near Bodmin Moor.',
  'Every night the storm drove Tregeagle across the moor.',
  'Mr. Pendragon visited the chapel at Roche.',
  'The villagers feared the howling of Tregeagle.',
].join(' ');

export const GARDEN_TEXT = [
  'Tomatoes need full sun and regular watering.',
  'Gardeners prune tomato plants in early summer.',
  'Aphids attack the young leaves of roses.',
  'Ladybirds eat aphids in the garden.',
].join(' ');

export function fixtureDocuments(corpus = 'Fixture'): SourceDocument[] {
  return [
    { id: 'medical', corpus, text: MEDICAL_TEXT },
    { id: 'novel', corpus, text: NOVEL_TEXT },
  ];
}
