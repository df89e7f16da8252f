/**
 * AWS adapters (DESIGN §2 `aws/`), in rooms: the Lambda edge (`edge/`: REST v1 event <-> Request/Response,
 * response streaming, event kinds, self-invocation), DynamoDB implementations of the runtime's store ports
 * (`dynamodb/`), Secrets Manager (`secrets/`), telemetry (`telemetry/`) and env configuration (`config/`).
 * Depends only on `mcp/`. Rooms import each other's files directly, so loading one room's module never
 * loads another room's whole surface.
 */
export { loadConfig } from './config/index.js';
export type { AuthConfig, PlatformConfig, StoreConfig, TaskWorkerConfig } from './config/index.js';
export { ConfigError, errorFields } from './config/index.js';
export { RestEventError } from './edge/index.js';
export type { RestEventErrorCode } from './edge/index.js';
export {
  internalErrorResponse,
  jsonRpcErrorResponse,
  restEventErrorResponse,
  sseInternalErrorFrame,
} from './edge/index.js';
export { eventKind, streamCompletionFields } from './edge/index.js';
export type { EventKind, StreamCompletion } from './edge/index.js';
export { createInvocation } from './edge/index.js';
export type { Invocation, InvocationOptions } from './edge/index.js';
export { decodeBase64Strict, parseRestEvent, restEventToRequest, toRequest } from './edge/index.js';
export type { RestEventParts, RestProxyEvent, ToRequestOptions } from './edge/index.js';
export { isMcpRoute, matchResource } from './edge/index.js';
export { isEventStream, responseMetadata, toStreamingResult, writeResponse } from './edge/index.js';
export type { StreamingResult, StreamResponseOptions } from './edge/index.js';
export { LambdaTaskLauncher, TaskLaunchError } from './edge/index.js';
export type { LambdaTaskLauncherOptions } from './edge/index.js';
export { TASK_WORKER_EVENT_KIND, taskWorkerEvent, taskWorkerRef } from './edge/index.js';
export { CACHE_SYNC_EVENT_KIND, cacheSyncEvent, cacheSyncRequest } from './edge/index.js';
export type { CacheSyncEvent, CacheSyncRequest } from './edge/index.js';
export type { TaskWorkerEvent } from './edge/index.js';
export { createDynamoDbClient, DynamoDbBaselineStore } from './dynamodb/index.js';
export type {
  DynamoDbBaselineStoreOptions,
  StoredLease,
  StoredLookup,
  StoredRecord,
  StoredState,
} from './dynamodb/index.js';
export type { DynamoDbClientOptions } from './dynamodb/index.js';
export { DynamoDbDirectoryItems } from './dynamodb/index.js';
export type { DynamoDbDirectoryItemsOptions, PlainItem } from './dynamodb/index.js';
export { fromAttributeMap, toAttributeMap } from './dynamodb/index.js';
export { DynamoDbSessionStore } from './dynamodb/index.js';
export type { DynamoDbSessionStoreOptions } from './dynamodb/index.js';
export { DynamoDbStreamStore } from './dynamodb/index.js';
export { isStoreOutage, reportingOutages, StoreRequestError } from './dynamodb/index.js';
export type { DynamoDbStreamStoreOptions } from './dynamodb/index.js';
export { DynamoDbRequestStateStore } from './dynamodb/index.js';
export { DynamoDbRateCounterStore } from './dynamodb/index.js';
export type { DynamoDbRateCounterStoreOptions } from './dynamodb/index.js';
export { DynamoDbCancelStore } from './dynamodb/index.js';
export type { DynamoDbCancelStoreOptions } from './dynamodb/index.js';
export { DynamoDbClientReplyStore } from './dynamodb/index.js';
export type { DynamoDbClientReplyStoreOptions } from './dynamodb/index.js';
export { StreamStoreError } from './dynamodb/index.js';
export type { StreamStoreErrorCode } from './dynamodb/index.js';
export { DynamoDbTaskStore, INLINE_BYTES } from './dynamodb/index.js';
export type { DynamoDbTaskStoreOptions } from './dynamodb/index.js';
export {
  CredentialUnavailableError,
  DEFAULT_SOURCE_SECRET_PREFIX,
  SecretsManagerCredentialResolver,
} from './secrets/index.js';
export type { SecretsManagerCredentialResolverOptions } from './secrets/index.js';
export { requestedSecretSettings, resolveSecretSettings, SECRET_BACKED_SETTINGS } from './secrets/index.js';
export type { SecretSettingsOptions } from './secrets/index.js';
export { SdkWarningLogger } from './telemetry/index.js';
export { CallRecord, sessionDigest } from './telemetry/index.js';
export type { CallCompleteness, SourceTally } from './telemetry/index.js';
export { DEFAULT_NAMESPACE, DIMENSION, METRIC, publishCallMetrics } from './telemetry/index.js';
export { InvocationTelemetry } from './telemetry/index.js';
export { publishSyncMetrics, SYNC_METRIC } from './telemetry/index.js';
export type { SyncReport } from './telemetry/index.js';
export type { InvocationTelemetryOptions } from './telemetry/index.js';
export { createPowertoolsLogger, DEFAULT_SERVICE_NAME, loggerPort } from './telemetry/index.js';
export type { PowertoolsLoggerOptions } from './telemetry/index.js';
