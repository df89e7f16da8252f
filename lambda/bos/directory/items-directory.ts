import type { Principal } from '../../mcp/index.js';
import { StoreUnavailableError } from '../../mcp/index.js';
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
  /**
   * Age after which a cached definition that a live grant just used is read again in the background, so
   * steady traffic on a context never waits for that read: the call uses the cached definition (still
   * within `contextCacheTtlMs`) and the next calls find the fresh one. Set it to `contextCacheTtlMs` to read
   * a definition only when a call finds it expired.
   * @default contextCacheTtlMs / 2
   */
  contextRefreshAfterMs?: number;
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
 *
 * A context definition read costs a second store round trip beside the grant's (measured through the local
 * stack: 3–4 ms more before the engine starts), so definitions are cached
 * for `contextCacheTtlMs` and renewed in the background once `contextRefreshAfterMs` old: a definition in
 * use is never older than the TTL, and only a context unused for longer than that pays the read on a call.
 */
export function createItemsDirectory(options: ItemsDirectoryOptions): Directory {
  const { reader } = options;
  const ttl = options.contextCacheTtlMs ?? 5_000;
  const refreshAfter = options.contextRefreshAfterMs ?? ttl / 2;
  const size = options.contextCacheSize ?? 1_000;
  const clock = options.clock ?? Date.now;
  const cache = new Map<string, CacheEntry>();
  /** Handles whose background read is in flight (one per handle at a time). */
  const refreshing = new Set<string>();

  const live = (item: DirectoryItem | undefined): item is DirectoryItem => {
    // DynamoDB's TTL deletes late (mcp-2026-notes §3.3): an item past `expiresAt` is already gone.
    const expiresAt = item?.['expiresAt'];
    return item !== undefined && (typeof expiresAt !== 'number' || expiresAt * 1000 > clock());
  };

  /** The cached definition of a handle, or undefined (not `{ grant: undefined }`) when it must be read. */
  const cached = (handle: string): CacheEntry | undefined => {
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

  /**
   * Called once a live grant has used `hit`: when it is old enough, reads the definition again off the
   * call's critical path. The read starts on the next turn of the event loop (`setImmediate`), after the
   * call has gone on to start its sources, so its request and response work fall into the wait for the
   * providers. The fresh definition is stamped with the time the read started (an environment frozen
   * mid-read cannot make it look fresher than it is) and replaces only the entry it renews. A failed read
   * changes nothing: the entry expires at its TTL and the next call reads it on its own path, where a
   * store failure is reported as usual.
   */
  const refreshAhead = (handle: string, hit: CacheEntry): void => {
    if (clock() - hit.at < refreshAfter || refreshing.has(handle) || cache.get(handle) !== hit) return;
    refreshing.add(handle);
    setImmediate(() => {
      const startedAt = clock();
      readContext(handle)
        .then(
          (grant) => {
            // Same key, so the cache does not grow.
            if (cache.get(handle) === hit) cache.set(handle, { grant, at: startedAt });
          },
          () => undefined,
        )
        .finally(() => refreshing.delete(handle));
    });
  };

  const contextFor = async (handle: string): Promise<ContextGrant | undefined> => {
    const hit = cached(handle);
    if (hit !== undefined) {
      refreshAhead(handle, hit);
      return hit.grant;
    }
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
      if (hit !== undefined) {
        if (!live(await grantRead)) return undefined;
        // Only a caller holding the grant renews a definition, so probes cannot make the directory read.
        refreshAhead(contextHandle, hit);
        return hit.grant;
      }
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

/** A cached context definition (`undefined`: the handle has none) and when it was read. */
interface CacheEntry {
  readonly grant: ContextGrant | undefined;
  readonly at: number;
}

function position(item: DirectoryItem): number {
  const value = item['position'];
  return typeof value === 'number' ? value : Number.MAX_SAFE_INTEGER;
}

/**
 * Store failures become the runtime's `StoreUnavailableError('directory')`: the call gets the one outage
 * answer (HTTP 503, `Retry-After`) instead of a generic internal error. Malformed items stay data errors.
 */
async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DirectoryDataError || error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError('directory', 'the directory store could not answer', { cause: error });
  }
}
