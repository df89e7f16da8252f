export {
  DEFAULT_CONTRACT_URI,
  MAX_CONCURRENT_SOURCES,
  negotiatesSourceResults,
  PAGE_SIZE,
  SOURCE_RESULTS_EXTENSION,
  sourceResultsCapability,
} from './negotiation.js';
export {
  contextObject,
  createSourceResultNotifier,
  PAGE_ORIGIN_META_KEY,
  SOURCE_RESULT_METHOD,
  sourceResultEvent,
} from './source-result-notifier.js';
export type { SourceResultEvent } from './source-result-notifier.js';
export { structuredText } from './text-content.js';
