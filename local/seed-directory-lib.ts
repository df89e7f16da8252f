/**
 * Seeding the tenancy directory: validate a `bos-directory/v1` document, turn it into items,
 * write them to a directory table. The CLI (`seed-directory.ts`) and the local stack use this.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createDynamoDbClient, DynamoDbDirectoryItems } from '../lambda/aws/index.js';
import {
  DEMO_DIRECTORY_DOCUMENT,
  DirectoryDocumentError,
  documentToItems,
  parseDirectoryDocument,
} from '../lambda/bos/index.js';
import type { DirectoryDocument } from '../lambda/bos/index.js';

/** Reads and validates a directory file; every problem is listed in one `DirectoryDocumentError`. */
export async function loadDirectoryFile(path: string): Promise<DirectoryDocument> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new DirectoryDocumentError(
      [`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`],
      {
        cause: error,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DirectoryDocumentError([`${path} is not valid JSON (${(error as Error).message})`], {
      cause: error,
    });
  }
  return parseDirectoryDocument(value);
}

/** Where to seed. */
export interface SeedTarget {
  table: string;
  /** DynamoDB Local, e.g. `http://127.0.0.1:8000`; absent = the regional endpoint with normal AWS credentials. */
  endpoint?: string;
  region?: string;
}

/**
 * Writes every item of the document (upsert). Items already in the table and not in the document are
 * left alone: revoking a grant is a delete, done deliberately, not a side effect of seeding.
 * @returns the number of items written
 */
export async function seedDirectory(document: DirectoryDocument, target: SeedTarget): Promise<number> {
  // Seeding may run far from the table's region: allow more time and tries than a Lambda request does.
  const client = createDynamoDbClient({
    ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
    ...(target.region === undefined ? {} : { region: target.region }),
    maxAttempts: 4,
    requestTimeoutMs: 10_000,
  });
  try {
    const items = documentToItems(document);
    await new DynamoDbDirectoryItems({ client, tableName: target.table }).putAll(items);
    return items.length;
  } finally {
    client.destroy();
  }
}

/** The embedded demo directory, re-validated (what `--demo` seeds and `npm start` loads). */
export function demoDirectoryDocument(): DirectoryDocument {
  return parseDirectoryDocument(JSON.parse(JSON.stringify(DEMO_DIRECTORY_DOCUMENT)));
}

/**
 * A fresh random value for every credential the document's sources name, as the function environment
 * `BOS_SECRET_<NAME>` the local credential resolver reads (docs/directory.md "Source credentials by name"). The
 * local stack passes them to the function on each start, so the demo really resolves a credential
 * (`acme-crm` → `BOS_SECRET_ACME_CRM_TOKEN`); nothing is written to disk.
 */
export function localSourceSecrets(
  document: DirectoryDocument = DEMO_DIRECTORY_DOCUMENT,
): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const source of document.sources)
    if (source.credential_ref !== undefined)
      secrets[`BOS_SECRET_${source.credential_ref}`] = randomBytes(32).toString('base64url');
  return secrets;
}
