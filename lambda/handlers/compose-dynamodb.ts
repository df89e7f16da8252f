/**
 * One DynamoDB client per configuration, shared by the stores and the directory. Each client resolves its
 * own configuration and keeps its own connection pool, so a second client would cost a cold start a second
 * setup and, deployed, a second TLS handshake to DynamoDB.
 */
import { createDynamoDbClient } from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';

type DynamoDbClient = ReturnType<typeof createDynamoDbClient>;

const clients = new WeakMap<PlatformConfig, DynamoDbClient>();

/** The client for `config`'s endpoint and region, made on first use. */
export function dynamoDbClientFor(config: PlatformConfig): DynamoDbClient {
  let client = clients.get(config);
  if (client === undefined) {
    client = createDynamoDbClient({
      ...(config.dynamoDbEndpoint === undefined ? {} : { endpoint: config.dynamoDbEndpoint }),
      ...(config.region === undefined ? {} : { region: config.region }),
    });
    clients.set(config, client);
  }
  return client;
}
