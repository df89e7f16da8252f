/**
 * The tenancy directory, source credentials and the deployed-issuer guard from configuration.
 * `compose-platform.ts` uses the directory and the guard; `compose-sources.ts` builds the sources from the
 * same directory's source definitions and resolves their credentials through `composeCredentialResolver`
 * (docs/bos.md "Wiring").
 */
import { DynamoDbDirectoryItems, SecretsManagerCredentialResolver } from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import {
  assertDeployableIssuer,
  createDemoDirectory,
  createEnvCredentialResolver,
  createItemsDirectory,
} from '../bos/index.js';
import type { CredentialResolver, Directory, DirectoryItemsReader } from '../bos/index.js';
import { dynamoDbClientFor } from './compose-dynamodb.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The directory items in `BOS_DIRECTORY_TABLE`, or undefined when none is configured. */
export function composeDirectoryItems(config: PlatformConfig): DirectoryItemsReader | undefined {
  if (config.directoryTable === undefined) return undefined;
  const client = dynamoDbClientFor(config);
  return new DynamoDbDirectoryItems({ client, tableName: config.directoryTable });
}

/**
 * `BOS_DIRECTORY_TABLE` when set (DynamoDB, grants re-read on every call), else the embedded demo
 * directory (DESIGN §6 default). Pass the reader from {@link composeDirectoryItems} to share its client.
 */
export function composeDirectory(config: PlatformConfig, items = composeDirectoryItems(config)): Directory {
  return items === undefined ? createDemoDirectory() : createItemsDirectory({ reader: items });
}

/** Secrets Manager when really deployed; `BOS_SECRET_<NAME>` from `env` on a local run (`LocalKnobs.local`). */
export function composeCredentialResolver(local: boolean, env: Env): CredentialResolver {
  return local ? createEnvCredentialResolver(env) : new SecretsManagerCredentialResolver();
}

/**
 * Refuses a real deployment configured with the local dev issuer (`BosConfigError`). The local stack runs
 * the function with `AWS_EXECUTION_ENV` set but a loopback `MCP_ENDPOINT`, and legitimately uses the dev
 * issuer, so it is exempt: `local` is `LocalKnobs.local`, decided once by the composition root.
 */
export function assertDeployableAuth(config: PlatformConfig, local: boolean): void {
  if (config.auth === undefined || local) return;
  assertDeployableIssuer({ issuer: config.auth.issuer, jwksUrl: config.auth.jwksUrl });
}
