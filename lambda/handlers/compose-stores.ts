/**
 * The runtime's store options from configuration: DynamoDB-backed when a table is configured (always when
 * deployed, DESIGN §6), the runtime's in-memory defaults otherwise. Shared by every entry so the platform and
 * the demo entry keep sessions the same way.
 */
import {
  DynamoDbClientReplyStore,
  DynamoDbRequestStateStore,
  DynamoDbSessionStore,
  DynamoDbStreamStore,
  reportingOutages,
} from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import { dynamoDbClientFor } from './compose-dynamodb.js';
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
>;

/** Builds the stores `config` names; one DynamoDB client is shared by all of them. */
export function composeStores(config: PlatformConfig): StoreOptions {
  const tableName = config.sessions.tableName;
  const streamTable = config.streams.tableName;
  const secret =
    config.requestStateSecret === undefined ? {} : { requestStateSecret: config.requestStateSecret };
  if (tableName === undefined && streamTable === undefined)
    return { sessionTtlMinutes: config.sessions.ttlMinutes, ...secret };
  const client = dynamoDbClientFor(config);
  return {
    ...secret,
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
          // The single-use ledger of 2026-07-28 requestState bindings, for the same reason.
          requestStateStore: reportingOutages(
            'request-state',
            new DynamoDbRequestStateStore(client, streamTable),
          ),
        }),
  };
}
