import type { Principal } from '../../mcp/index.js';
import { CONTEXT_HANDLE_PATTERN } from './document.js';
import { DirectoryDataError } from './errors.js';
import {
  CONTEXT_SK,
  contextKey,
  GRANT_SK_PREFIX,
  grantKey,
  itemToContextGrant,
  subjectKey,
} from './items.js';
import type { DirectoryItem, DirectoryItemsReader } from './items.js';
import type { ContextGrant, Directory } from './types.js';

/** Options of {@link createItemsDirectory}. */
export interface ItemsDirectoryOptions {
  reader: DirectoryItemsReader;
  /**
   * How long a context *definition* (names, operations, sources) is reused. Grants are never cached:
   * every call reads the caller's grant again, so a revocation takes effect on the next call.
   * @default 5000
   */
  contextCacheTtlMs?: number;
  /** Most cached context definitions; the cache is emptied when full. @default 1000 */
  contextCacheSize?: number;
  /** @default Date.now */
  clock?: () => number;
}

/**
 * A {@link Directory} over directory items (DynamoDB in deployment, see `items.ts`). Behaves exactly like
 * the in-memory directory on the same data: listing order is the grant order of the document, and an
 * unknown handle, a malformed handle, an expired grant and a handle granted to someone else all give
 * `undefined` from `find`.
 */
export function createItemsDirectory(options: ItemsDirectoryOptions): Directory {
  const { reader } = options;
  const ttl = options.contextCacheTtlMs ?? 5_000;
  const size = options.contextCacheSize ?? 1_000;
  const clock = options.clock ?? Date.now;
  const cache = new Map<string, { grant: ContextGrant | undefined; at: number }>();

  const live = (item: DirectoryItem | undefined): item is DirectoryItem => {
    // DynamoDB's TTL deletes late (mcp-2026-notes §3.3): an item past `expiresAt` is already gone.
    const expiresAt = item?.['expiresAt'];
    return item !== undefined && (typeof expiresAt !== 'number' || expiresAt * 1000 > clock());
  };

  /** The cached definition of a handle, or undefined (not `{ grant: undefined }`) when it must be read. */
  const cached = (handle: string): { grant: ContextGrant | undefined } | undefined => {
    const hit = cache.get(handle);
    return hit !== undefined && clock() - hit.at < ttl ? hit : undefined;
  };

  /** Reads a context definition from the store, without touching the cache. */
  const readContext = async (handle: string): Promise<ContextGrant | undefined> => {
    const item = await guard(() => reader.get(contextKey(handle), CONTEXT_SK));
    const grant = live(item) ? itemToContextGrant(item) : undefined;
    if (grant !== undefined && grant.context.context_handle !== handle) {
      throw new DirectoryDataError('invalid_item', `directory item ${contextKey(handle)}: handle mismatch`);
    }
    return grant;
  };

  const remember = (handle: string, grant: ContextGrant | undefined): void => {
    if (cache.size >= size) cache.clear();
    cache.set(handle, { grant, at: clock() });
  };

  const contextFor = async (handle: string): Promise<ContextGrant | undefined> => {
    const hit = cached(handle);
    if (hit !== undefined) return hit.grant;
    const grant = await readContext(handle);
    remember(handle, grant);
    return grant;
  };

  return {
    async contextsFor(principal: Principal) {
      const grants = (await guard(() => reader.query(subjectKey(principal.subject), GRANT_SK_PREFIX)))
        .filter(live)
        .sort((a, b) => position(a) - position(b));
      const contexts = await Promise.all(grants.map((item) => contextFor(String(item['context_handle']))));
      return contexts.filter((c): c is ContextGrant => c !== undefined);
    },
    async find(principal: Principal, contextHandle: string) {
      // A string that cannot be a handle is never looked up; the answer is the same `undefined`.
      if (!CONTEXT_HANDLE_PATTERN.test(contextHandle)) return undefined;
      const grantRead = guard(() => reader.get(subjectKey(principal.subject), grantKey(contextHandle)));
      const hit = cached(contextHandle);
      if (hit !== undefined) return live(await grantRead) ? hit.grant : undefined;
      // Cache miss: the definition is read beside the grant, not after it (one round trip, not two). It
      // is used, and cached, only once the grant proves live, so a caller without the grant gets the
      // same `undefined` whatever the definition's read did, and cannot fill the cache with probes.
      const [grant, definition] = await Promise.allSettled([grantRead, readContext(contextHandle)]);
      if (grant.status === 'rejected') throw grant.reason;
      if (!live(grant.value)) return undefined;
      if (definition.status === 'rejected') throw definition.reason;
      remember(contextHandle, definition.value);
      return definition.value;
    },
  };
}

function position(item: DirectoryItem): number {
  const value = item['position'];
  return typeof value === 'number' ? value : Number.MAX_SAFE_INTEGER;
}

/** Store failures become a `DirectoryDataError('unavailable')`; the tool answers a generic internal error. */
async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DirectoryDataError) throw error;
    throw new DirectoryDataError('unavailable', 'the directory store could not answer', { cause: error });
  }
}
