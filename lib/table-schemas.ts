/**
 * The one definition of every DynamoDB table the platform uses, as plain data (no CDK import), so the CDK
 * stack (`lib/`) and the local stack (`local/dynamodb-local.ts`, `CreateTable`) build the same tables and
 * cannot drift. Key names follow the reference runtime's CloudFormation (reference-runtime-lessons §2).
 */

/** A key attribute; every key in this platform is a string. */
export interface KeyAttribute {
  name: string;
  type: 'S';
}

/** A global secondary index keyed by one string attribute, projecting every attribute. */
export interface IndexSchema {
  name: string;
  partitionKey: KeyAttribute;
}

/** One table: keys, TTL attribute, billing, and the environment variable its name is passed in. */
export interface TableSchema {
  /** Logical id used for CDK construct ids and local table names (`<prefix><id>`). */
  id: 'sessions' | 'streams' | 'tasks' | 'directory' | 'rateLimits' | 'baseline';
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /** Epoch-seconds TTL attribute; DynamoDB deletes late, so code checks expiry on every read too. */
  timeToLiveAttribute: 'expiresAt';
  billingMode: 'PAY_PER_REQUEST';
  /** Environment variable the deployed table name is passed to the Lambda in (DESIGN §6). */
  envVar:
    | 'MCP_SESSION_TABLE'
    | 'MCP_STREAM_TABLE'
    | 'MCP_TASK_TABLE'
    | 'BOS_DIRECTORY_TABLE'
    | 'MCP_RATE_LIMIT_TABLE'
    | 'BOS_BASELINE_TABLE';
  /** Sparse indexes (an item without the key attribute is not in the index). @default none */
  globalSecondaryIndexes?: readonly IndexSchema[];
}

const stringKey = (name: string): KeyAttribute => ({ name, type: 'S' });

/** Sessions: one item per session, `sessionId` (S). */
export const sessionsTable: TableSchema = {
  id: 'sessions',
  partitionKey: stringKey('sessionId'),
  timeToLiveAttribute: 'expiresAt',
  billingMode: 'PAY_PER_REQUEST',
  envVar: 'MCP_SESSION_TABLE',
};

/** Resumable streams: events per session, `sessionId` (S) + `eventId` (S). */
export const streamsTable: TableSchema = {
  id: 'streams',
  partitionKey: stringKey('sessionId'),
  sortKey: stringKey('eventId'),
  timeToLiveAttribute: 'expiresAt',
  billingMode: 'PAY_PER_REQUEST',
  envVar: 'MCP_STREAM_TABLE',
};

/** Tasks: `sessionId` (S) + `taskId` (S). */
export const tasksTable: TableSchema = {
  id: 'tasks',
  partitionKey: stringKey('sessionId'),
  sortKey: stringKey('taskId'),
  timeToLiveAttribute: 'expiresAt',
  billingMode: 'PAY_PER_REQUEST',
  envVar: 'MCP_TASK_TABLE',
};

/** Tenancy directory, single-table design: `pk` (S) + `sk` (S). */
export const directoryTable: TableSchema = {
  id: 'directory',
  partitionKey: stringKey('pk'),
  sortKey: stringKey('sk'),
  timeToLiveAttribute: 'expiresAt',
  billingMode: 'PAY_PER_REQUEST',
  envVar: 'BOS_DIRECTORY_TABLE',
};

/**
 * Rate-limit counters: one item per bucket and fixed window, `counterId` (S). A table of its own, so the
 * function's grant on it can be `UpdateItem` alone and its hot keys never share a partition with sessions.
 */
export const rateLimitsTable: TableSchema = {
  id: 'rateLimits',
  partitionKey: stringKey('counterId'),
  timeToLiveAttribute: 'expiresAt',
  billingMode: 'PAY_PER_REQUEST',
  envVar: 'MCP_RATE_LIMIT_TABLE',
};

/**
 * The source cache's baselines, single-table `pk` (S) + `sk` (S): per source a sync-state item and one item per
 * record, with three sparse indexes so a lookup by record ref, email or phone is a keyed Query
 * (`lambda/aws/dynamodb/dynamodb-baseline-store.ts`).
 */
export const baselineTable: TableSchema = {
  id: 'baseline',
  partitionKey: stringKey('pk'),
  sortKey: stringKey('sk'),
  timeToLiveAttribute: 'expiresAt',
  billingMode: 'PAY_PER_REQUEST',
  envVar: 'BOS_BASELINE_TABLE',
  globalSecondaryIndexes: [
    { name: 'byRef', partitionKey: stringKey('refKey') },
    { name: 'byEmail', partitionKey: stringKey('emailKey') },
    { name: 'byPhone', partitionKey: stringKey('phoneKey') },
  ],
};

/** Every table, in a stable order. */
export const tableSchemas: readonly TableSchema[] = [
  sessionsTable,
  streamsTable,
  tasksTable,
  directoryTable,
  rateLimitsTable,
];

/** The same tables by id (the shape `DataTables`' `specs` prop takes). */
export const tableSchemasById = {
  sessions: sessionsTable,
  streams: streamsTable,
  tasks: tasksTable,
  directory: directoryTable,
  rateLimits: rateLimitsTable,
} as const satisfies Record<Exclude<TableSchema['id'], 'baseline'>, TableSchema>;
