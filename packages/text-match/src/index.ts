// @mosaic/text-match is now a part of @mosaic/stage-utils; these are its old names, kept so that
// existing imports keep working. New code imports from @mosaic/stage-utils.
export {
  matchStem as stem,
  matchTokens as contentTokens,
  normalizeLabel,
  passageRelevance,
  PASSAGE_SPANS,
  tokenContainment,
  tokenJaccard,
  type PassageRelevance,
} from '@mosaic/stage-utils';
