/**
 * The runtime's store options from configuration: DynamoDB-backed when a table is configured (always when
 * deployed, DESIGN §6), the runtime's in-memory defaults otherwise. Shared by every entry so the platform and
 * the demo entry keep sessions the same way.
 */
import {
  DynamoDbCancelStore,
  DynamoDbClientReplyStore,
  DynamoDbRequestStateStore,
  DynamoDbSessionStore,
  DynamoDbStreamStore,
  DynamoDbTaskStore,
  LambdaTaskLauncher,
  reportingOutages,
} from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import { dynamoDbClientFor } from './compose-dynamodb.js';
import { InMemoryTaskStore } from '../mcp/index.js';
import type { McpServerOptions } from '../mcp/index.js';

/** The store-related part of `McpServerOptions`. */
export type StoreOptions = Pick<
  McpServerOptions,
  | 'sessionStore'
  | 'sessionTtlMinutes'
  | 'streamStore'
  | 'clientReplyStore'
  | 'requestStateStore'
  | 'requestStateSecret'
  | 'cancelStore'
  | 'tasks'
>;

/** Builds the stores `config` names; one DynamoDB client is shared by all of them. */
export function composeStores(config: PlatformConfig): StoreOptions {
  const tableName = config.sessions.tableName;
  const streamTable = config.streams.tableName;
  const secret =
    config.requestStateSecret === undefined ? {} : { requestStateSecret: config.requestStateSecret };
  const taskTable = config.tasks.tableName;
  // Without a table tasks live in memory like the sessions, and their rounds run in this process. With
  // one, each round runs in its own asynchronous invocation of this function (docs/tasks.md "Execution").
  const worker = config.taskWorker;
  const taskOptions = {
    defaultTtlMs: config.tasks.ttlMinutes * 60_000,
    ...(worker !== undefined && {
      launcher: new LambdaTaskLauncher({
        functionName: worker.functionName,
        ...(worker.endpoint !== undefined && { endpoint: worker.endpoint }),
        ...(config.region !== undefined && { region: config.region }),
      }),
    }),
  };
  if (tableName === undefined && streamTable === undefined && taskTable === undefined)
    return {
      sessionTtlMinutes: config.sessions.ttlMinutes,
      ...secret,
      tasks: { ...taskOptions, store: new InMemoryTaskStore() },
    };
  const client = dynamoDbClientFor(config);
  return {
    ...secret,
    tasks: {
      ...taskOptions,
      store:
        taskTable === undefined
          ? new InMemoryTaskStore()
          : new DynamoDbTaskStore({ client, tableName: taskTable }),
    },
    ...(tableName === undefined ? {} : { sessionStore: new DynamoDbSessionStore({ client, tableName }) }),
    sessionTtlMinutes: config.sessions.ttlMinutes,
    // A session's next request may land on any execution environment, so replay events and client
    // replies to server-to-client requests must be shared too: both live in the streams table.
    ...(streamTable === undefined
      ? {}
      : {
          // Wrapped so an unreachable table gets the one outage answer (503), as the session store does.
          streamStore: reportingOutages(
            'stream',
            new DynamoDbStreamStore({
              client,
              tableName: streamTable,
              ttlMinutes: config.streams.ttlMinutes,
            }),
          ),
          clientReplyStore: reportingOutages(
            'client-reply',
            new DynamoDbClientReplyStore({ client, tableName: streamTable }),
          ),
          // A notifications/cancelled lands in another environment than the call it names (docs/bos.md).
          cancelStore: reportingOutages(
            'cancel',
            new DynamoDbCancelStore({ client, tableName: streamTable }),
          ),
          // The single-use ledger of 2026-07-28 requestState bindings, for the same reason.
          requestStateStore: reportingOutages(
            'request-state',
            new DynamoDbRequestStateStore(client, streamTable),
          ),
        }),
  };
}
