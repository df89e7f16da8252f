/**
 * How the items-backed directory reads on `find`: the grant on every call; the context definition, when
 * not cached, beside the grant rather than after it (one store round trip, not two); and a definition is
 * used and cached only once the grant proves live.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createItemsDirectory,
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DirectoryDataError,
  documentToItems,
} from '../../../lambda/bos/index.js';
import type { DirectoryItem, DirectoryItemsReader } from '../../../lambda/bos/index.js';

const principal = (subject: string) => ({ subject, scopes: ['bos.read'] });
const CONTEXT_PK = `CONTEXT#${DEMO_PEOPLE_CONTEXT_HANDLE}`;

/**
 * A reader over the demo items whose `get`s stay pending until `release()`, logging each key as it is
 * asked for; `failing` keys reject instead of answering.
 */
function gatedReader(failing: ReadonlySet<string> = new Set()) {
  const memory = createMemoryDirectoryItems(documentToItems(DEMO_DIRECTORY_DOCUMENT));
  const asked: string[] = [];
  const gates: Array<() => void> = [];
  const reader: DirectoryItemsReader = {
    query: (pk, prefix) => memory.query(pk, prefix),
    async get(pk, sk): Promise<DirectoryItem | undefined> {
      asked.push(pk);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (failing.has(pk)) throw new Error('store unavailable');
      return memory.get(pk, sk);
    },
  };
  const release = () => gates.splice(0).forEach((open) => open());
  return { reader, asked, release };
}

/** Lets pending reads start, then opens every gate until `work` settles. */
async function drive<T>(work: Promise<T>, release: () => void): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  // The caller awaits `done` after the loop; until then a rejection must not count as unhandled.
  done.catch(() => undefined);
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    release();
  }
  return done;
}

describe('items-backed directory reads on find', () => {
  it('asks for the grant and an uncached context definition before either answers', async () => {
    const { reader, asked, release } = gatedReader();
    const directory = createItemsDirectory({ reader });
    const found = directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(asked, ['SUBJECT#dev-user', CONTEXT_PK], 'both reads are in flight together');
    const grant = await drive(found, release);
    assert.equal(grant?.context.context_handle, DEMO_PEOPLE_CONTEXT_HANDLE);
  });

  it('reads only the grant while the context definition is cached', async () => {
    const { reader, asked, release } = gatedReader();
    const directory = createItemsDirectory({ reader, contextCacheTtlMs: 60_000 });
    await drive(directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), release);
    asked.length = 0;
    const again = await drive(directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), release);
    assert.equal(again?.context.context_handle, DEMO_PEOPLE_CONTEXT_HANDLE);
    assert.deepEqual(asked, ['SUBJECT#dev-user']);
  });

  it('answers undefined to a caller without the grant even when the definition read fails', async () => {
    const { reader, release } = gatedReader(new Set([CONTEXT_PK]));
    const directory = createItemsDirectory({ reader });
    const found = await drive(directory.find(principal('outsider'), DEMO_PEOPLE_CONTEXT_HANDLE), release);
    assert.equal(found, undefined);
  });

  it('fails as unavailable when the grant is live but the definition cannot be read', async () => {
    const { reader, release } = gatedReader(new Set([CONTEXT_PK]));
    const directory = createItemsDirectory({ reader });
    await assert.rejects(
      drive(directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), release),
      (error: unknown) => error instanceof DirectoryDataError && error.code === 'unavailable',
    );
  });

  it('does not cache a definition read for a caller without the grant', async () => {
    const { reader, asked, release } = gatedReader();
    const directory = createItemsDirectory({ reader, contextCacheTtlMs: 60_000 });
    await drive(directory.find(principal('outsider'), DEMO_PEOPLE_CONTEXT_HANDLE), release);
    asked.length = 0;
    await drive(directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), release);
    assert.deepEqual(asked, ['SUBJECT#dev-user', CONTEXT_PK], 'the probe left nothing in the cache');
  });
});
