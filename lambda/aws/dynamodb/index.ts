/**
 * DynamoDB implementations of the runtime's store ports (sessions, resumable streams, tasks, request state,
 * client replies, rate counters, cancel markers), the directory's item reader and the source cache's baseline store, with the
 * one client they share.
 */
export { DynamoDbBaselineStore } from './dynamodb-baseline-store.js';
export type { DynamoDbBaselineStoreOptions } from './dynamodb-baseline-store.js';
export type { StoredLease, StoredLookup, StoredRecord, StoredState } from './dynamodb-baseline-shapes.js';
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
export { DynamoDbRateCounterStore } from './dynamodb-rate-counter-store.js';
export type { DynamoDbRateCounterStoreOptions } from './dynamodb-rate-counter-store.js';
export { DynamoDbCancelStore } from './dynamodb-cancel-store.js';
export type { DynamoDbCancelStoreOptions } from './dynamodb-cancel-store.js';
export { DynamoDbClientReplyStore } from './dynamodb-client-reply-store.js';
export type { DynamoDbClientReplyStoreOptions } from './dynamodb-client-reply-store.js';
export { StreamStoreError } from './stream-store-error.js';
export type { StreamStoreErrorCode } from './stream-store-error.js';
export { DynamoDbTaskStore, INLINE_BYTES } from './dynamodb-task-store.js';
export type { DynamoDbTaskStoreOptions } from './dynamodb-task-store.js';
