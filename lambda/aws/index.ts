/**
 * AWS adapters (DESIGN §2 `aws/`): REST v1 event <-> Request/Response, Lambda response streaming,
 * DynamoDB implementations of the runtime's store ports, and env configuration. Depends only on `mcp/`.
 */
export { loadConfig } from './config.js';
export type { AuthConfig, PlatformConfig, StoreConfig, TaskWorkerConfig } from './config.js';
export { createDynamoDbClient } from './dynamodb-client.js';
export type { DynamoDbClientOptions } from './dynamodb-client.js';
export { DynamoDbDirectoryItems } from './dynamodb-directory-items.js';
export type { DynamoDbDirectoryItemsOptions, PlainItem } from './dynamodb-directory-items.js';
export { fromAttributeMap, toAttributeMap } from './dynamodb-plain-value.js';
export { DynamoDbSessionStore } from './dynamodb-session-store.js';
export type { DynamoDbSessionStoreOptions } from './dynamodb-session-store.js';
export { DynamoDbStreamStore } from './dynamodb-stream-store.js';
export { isStoreOutage, reportingOutages, StoreRequestError } from './store-outage.js';
export type { DynamoDbStreamStoreOptions } from './dynamodb-stream-store.js';
export { DynamoDbRequestStateStore } from './dynamodb-request-state-store.js';
export { DynamoDbClientReplyStore } from './dynamodb-client-reply-store.js';
export type { DynamoDbClientReplyStoreOptions } from './dynamodb-client-reply-store.js';
export {
  CredentialUnavailableError,
  DEFAULT_SOURCE_SECRET_PREFIX,
  SecretsManagerCredentialResolver,
} from './secrets-manager-credentials.js';
export type { SecretsManagerCredentialResolverOptions } from './secrets-manager-credentials.js';
export { SdkWarningLogger } from './sdk-logger.js';
export { requestedSecretSettings, resolveSecretSettings, SECRET_BACKED_SETTINGS } from './secret-settings.js';
export type { SecretSettingsOptions } from './secret-settings.js';
export { StreamStoreError } from './stream-store-error.js';
export type { StreamStoreErrorCode } from './stream-store-error.js';
export {
  internalErrorResponse,
  jsonRpcErrorResponse,
  restEventErrorResponse,
  sseInternalErrorFrame,
} from './error-response.js';
export { ConfigError, errorFields, RestEventError } from './errors.js';
export type { RestEventErrorCode } from './errors.js';
export { eventKind, streamCompletionFields } from './event-kind.js';
export type { EventKind, StreamCompletion } from './event-kind.js';
export { createInvocation } from './invocation.js';
export type { Invocation, InvocationOptions } from './invocation.js';
export { decodeBase64Strict, parseRestEvent, restEventToRequest, toRequest } from './rest-event.js';
export type { RestEventParts, RestProxyEvent, ToRequestOptions } from './rest-event.js';
export { isMcpRoute, matchResource } from './rest-path.js';
export { isEventStream, responseMetadata, toStreamingResult, writeResponse } from './response-stream.js';
export type { StreamingResult, StreamResponseOptions } from './response-stream.js';
export { DynamoDbTaskStore, INLINE_BYTES } from './dynamodb-task-store.js';
export type { DynamoDbTaskStoreOptions } from './dynamodb-task-store.js';
export { CallRecord, sessionDigest } from './call-record.js';
export type { CallCompleteness, SourceTally } from './call-record.js';
export { DEFAULT_NAMESPACE, DIMENSION, METRIC, publishCallMetrics } from './call-metrics.js';
export { InvocationTelemetry } from './call-telemetry.js';
export type { InvocationTelemetryOptions, OperationFigures, SourceFigures } from './call-telemetry.js';
export { createPowertoolsLogger, DEFAULT_SERVICE_NAME, loggerPort } from './powertools-logger.js';
export type { PowertoolsLoggerOptions } from './powertools-logger.js';
export { LambdaTaskLauncher, TaskLaunchError } from './lambda-task-launcher.js';
export type { LambdaTaskLauncherOptions } from './lambda-task-launcher.js';
export { TASK_WORKER_EVENT_KIND, taskWorkerEvent, taskWorkerRef } from './task-worker-event.js';
export type { TaskWorkerEvent } from './task-worker-event.js';
