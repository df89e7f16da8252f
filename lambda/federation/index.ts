/**
 * The federation engine's public surface (DESIGN §4). Pure: no MCP, no AWS, nothing else of ours.
 */
export { runFederation } from './engine.js';
export { FederationError, SourceError, isSourceError, isSourceErrorCode } from './errors.js';
export type { FederationErrorCode } from './errors.js';
export type {
  CompleteEvent,
  ErrorEvent,
  FederationEvent,
  FederationLogEntry,
  PageEvent,
  PageOrigin,
} from './events.js';
export { dedupeByKey, federate } from './identity.js';
export { MIN_PHONE_DIGITS, normaliseEmail, normalisePhone } from './normalize.js';
export type { FederationOptions } from './options.js';
export type {
  GetPersonQuery,
  KeyedReader,
  LayeredPage,
  ListPeopleQuery,
  PersonKeys,
  RawRecord,
  ReadOptions,
  SearchPeopleQuery,
  SourceAdapter,
  SourceQuery,
} from './port.js';
export { RECORD_REF_PREFIX, provenanceKey, recordRefOfKey, singleKeyRecordRef } from './record-ref.js';
export { compareText } from './result-order.js';
export { collectSourceStats } from './source-stats.js';
export type { SourceReadStats, SourceStatsCollector } from './source-stats.js';
export { formatObservedAt } from './timestamps.js';
export { SOURCE_ERROR_CODES } from './types.js';
export type {
  FederatedRecord,
  FederationMetadata,
  FederationResult,
  IdentityMatch,
  MatchKind,
  ProvenanceEntry,
  RetrievalMode,
  SourceErrorCode,
  SourceErrorEntry,
  SourceProvenance,
  SourceRef,
} from './types.js';
export { normalizeRecord, ValidatedPage } from './validate.js';
export type { NormalizedRecord, RecordRejection } from './validate.js';
