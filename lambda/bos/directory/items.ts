/**
 * The directory as single-table items (`BOS_DIRECTORY_TABLE`, `pk`/`sk` per `lib/table-schemas.ts`), and
 * the item-level port a store implements.
 *
 * Why an item-level port: `lambda/aws` may import only `lambda/mcp` (DESIGN §2), so the DynamoDB code
 * cannot know what a context or a grant is. It reads and writes plain items; everything that gives
 * them meaning (key layout, validation, grant checks) lives here, in `lambda/bos`, next to the
 * in-memory directory it must match.
 *
 * | item       | `pk`               | `sk`               | attributes                                                        |
 * | ---------- | ------------------ | ------------------ | ----------------------------------------------------------------- |
 * | principal  | `SUBJECT#<sub>`    | `PRINCIPAL`        | `subject`                                                         |
 * | grant      | `SUBJECT#<sub>`    | `GRANT#<handle>`   | `subject`, `context_handle`, `position`, optional `expiresAt`     |
 * | context    | `CONTEXT#<handle>` | `CONTEXT`          | the public context fields, `operations`, `source_ids`, `source_timeout_ms?` |
 * | source     | `SOURCES`          | `SOURCE#<id>`      | `source_id`, `adapter`, `options`, `credential_ref?`, `cache?`    |
 */
import { compareText } from '../../federation/index.js';
import type { DirectoryDocument, SourceDefinition } from './document.js';
import { DirectoryDataError } from './errors.js';
import { parseSourceCache } from './source-cache.js';
import type { ContextGrant } from './types.js';

/** One stored item as plain JSON values (strings, numbers, booleans, arrays, objects). */
export type DirectoryItem = { readonly pk: string; readonly sk: string } & Readonly<Record<string, unknown>>;

/**
 * Port: read access to the directory items. Implementations read strongly consistent (a revoked grant
 * must disappear on the next call) and throw when the store cannot answer; they never cache.
 */
export interface DirectoryItemsReader {
  /** Items with partition key `pk` whose sort key starts with `skPrefix`, in sort-key order. */
  query(pk: string, skPrefix: string): Promise<readonly DirectoryItem[]>;
  get(pk: string, sk: string): Promise<DirectoryItem | undefined>;
}

export const subjectKey = (subject: string): string => `SUBJECT#${subject}`;
export const grantKey = (handle: string): string => `GRANT#${handle}`;
export const contextKey = (handle: string): string => `CONTEXT#${handle}`;
export const CONTEXT_SK = 'CONTEXT';
export const PRINCIPAL_SK = 'PRINCIPAL';
export const SOURCES_PK = 'SOURCES';
export const SOURCE_SK_PREFIX = 'SOURCE#';
export const GRANT_SK_PREFIX = 'GRANT#';

/** Every item of a document, in a stable order (what seeding writes). */
export function documentToItems(document: DirectoryDocument): DirectoryItem[] {
  const items: DirectoryItem[] = [];
  for (const source of document.sources) {
    items.push({ pk: SOURCES_PK, sk: `${SOURCE_SK_PREFIX}${source.source_id}`, type: 'source', ...source });
  }
  for (const context of document.contexts) {
    items.push({ pk: contextKey(context.context_handle), sk: CONTEXT_SK, type: 'context', ...context });
  }
  for (const principal of document.principals) {
    items.push({
      pk: subjectKey(principal.subject),
      sk: PRINCIPAL_SK,
      type: 'principal',
      subject: principal.subject,
    });
    principal.grants.forEach((handle, position) => {
      items.push({
        pk: subjectKey(principal.subject),
        sk: grantKey(handle),
        type: 'grant',
        subject: principal.subject,
        context_handle: handle,
        position,
      });
    });
  }
  return items;
}

const text = (item: DirectoryItem, key: string): string => {
  const value = item[key];
  if (typeof value !== 'string') throw invalid(item, key);
  return value;
};

const textList = (item: DirectoryItem, key: string): string[] => {
  const value = item[key];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid(item, key);
  return value;
};

// Names the key and attribute, never other attribute values (options may be large; nothing is secret,
// but logs stay small).
const invalid = (item: DirectoryItem, key: string): DirectoryDataError =>
  new DirectoryDataError('invalid_item', `directory item ${item.pk} / ${item.sk}: bad or missing "${key}"`);

/** A context item back to the grant the tools use; a malformed item throws (fail closed). */
export function itemToContextGrant(item: DirectoryItem): ContextGrant {
  const isDefault = item['is_default'];
  if (typeof isDefault !== 'boolean') throw invalid(item, 'is_default');
  const timeout = item['source_timeout_ms'];
  if (timeout !== undefined && typeof timeout !== 'number') throw invalid(item, 'source_timeout_ms');
  return {
    context: {
      context_handle: text(item, 'context_handle'),
      organization_name: text(item, 'organization_name'),
      application_name: text(item, 'application_name'),
      installation_name: text(item, 'installation_name'),
      role_label: text(item, 'role_label'),
      is_default: isDefault,
    },
    operations: textList(item, 'operations'),
    sourceIds: textList(item, 'source_ids'),
    ...(timeout === undefined ? {} : { sourceTimeoutMs: timeout }),
  };
}

/** A source item back to its definition. */
export function itemToSourceDefinition(item: DirectoryItem): SourceDefinition {
  const options = item['options'] ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalid(item, 'options');
  const ref = item['credential_ref'];
  if (ref !== undefined && typeof ref !== 'string') throw invalid(item, 'credential_ref');
  const cache = parseSourceCache(item['cache'], 'cache', []);
  if (item['cache'] !== undefined && cache === undefined) throw invalid(item, 'cache');
  return {
    source_id: text(item, 'source_id'),
    adapter: text(item, 'adapter'),
    options: options as Record<string, unknown>,
    ...(ref === undefined ? {} : { credential_ref: ref }),
    ...(cache === undefined ? {} : { cache }),
  };
}

/** The deployment's source definitions, in id order; one malformed item fails the whole read. */
export async function readSourceDefinitions(reader: DirectoryItemsReader): Promise<SourceDefinition[]> {
  return (await reader.query(SOURCES_PK, SOURCE_SK_PREFIX)).map(itemToSourceDefinition);
}

/** One source item as read: its definition, or why it could not be read. */
export type SourceDefinitionEntry =
  | { readonly source_id: string; readonly definition: SourceDefinition }
  | { readonly source_id: string; readonly error: DirectoryDataError };

/**
 * The source definitions, in id order, each on its own: a malformed item becomes an entry with its
 * `DirectoryDataError` instead of failing the others, so the composition root can fail just that source.
 * A store failure still throws.
 */
export async function readSourceDefinitionEntries(
  reader: DirectoryItemsReader,
): Promise<SourceDefinitionEntry[]> {
  return (await reader.query(SOURCES_PK, SOURCE_SK_PREFIX)).map((item) => {
    const source_id = item.sk.slice(SOURCE_SK_PREFIX.length);
    try {
      return { source_id, definition: itemToSourceDefinition(item) };
    } catch (error) {
      if (!(error instanceof DirectoryDataError)) throw error;
      return { source_id, error };
    }
  });
}

/** A {@link DirectoryItemsReader} over items held in memory (tests; parity with the DynamoDB reader). */
export function createMemoryDirectoryItems(items: readonly DirectoryItem[]): DirectoryItemsReader {
  // DynamoDB orders string sort keys by UTF-8 bytes; code-unit order matches it for the ASCII keys used here.
  const sorted = [...items].sort((a, b) =>
    a.pk === b.pk ? compareText(a.sk, b.sk) : compareText(a.pk, b.pk),
  );
  return {
    query: (pk, skPrefix) =>
      Promise.resolve(sorted.filter((item) => item.pk === pk && item.sk.startsWith(skPrefix))),
    get: (pk, sk) => Promise.resolve(sorted.find((item) => item.pk === pk && item.sk === sk)),
  };
}
