export {
  askInputSchema,
  mosaicAskTool,
  mosaicSearchTool,
  mosaicTools,
  searchInputSchema,
  type AskInput,
  type AskOutput,
  type MosaicTool,
  type MosaicToolOptions,
  type MosaicToolWindow,
  type SearchInput,
  type SearchOutput,
} from './mosaic-tools.js';
