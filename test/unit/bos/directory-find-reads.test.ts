/**
 * How the items-backed directory reads on `find`: the grant on every call; the context definition, when
 * not cached, beside the grant rather than after it (one store round trip, not two); a definition is
 * used and cached only once the grant proves live; and a cached definition past half its TTL is renewed in
 * the background, off the call's path.
 */
import assert from 'node:assert/strict';
import { StoreUnavailableError } from '../../../lambda/mcp/index.js';
import { describe, it } from 'node:test';
import {
  createItemsDirectory,
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  documentToItems,
} from '../../../lambda/bos/index.js';
import type { DirectoryItem, DirectoryItemsReader } from '../../../lambda/bos/index.js';

const principal = (subject: string) => ({ subject, scopes: ['bos.read'] });
const CONTEXT_PK = `CONTEXT#${DEMO_PEOPLE_CONTEXT_HANDLE}`;

/**
 * A reader over the demo items whose `get`s stay pending until `release()`, logging each key as it is
 * asked for; `failing` keys reject instead of answering.
 */
function gatedReader(failing: Set<string> = new Set()) {
  const store = { memory: createMemoryDirectoryItems(documentToItems(DEMO_DIRECTORY_DOCUMENT)) };
  const asked: string[] = [];
  const gates: Array<() => void> = [];
  const reader: DirectoryItemsReader = {
    query: (pk, prefix) => store.memory.query(pk, prefix),
    async get(pk, sk): Promise<DirectoryItem | undefined> {
      asked.push(pk);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (failing.has(pk)) throw new Error('store unavailable');
      return store.memory.get(pk, sk);
    },
  };
  const release = () => gates.splice(0).forEach((open) => open());
  /** Replaces the stored People Directory definition's role label (what a later read returns). */
  const relabel = (role_label: string) => {
    const document = {
      ...DEMO_DIRECTORY_DOCUMENT,
      contexts: DEMO_DIRECTORY_DOCUMENT.contexts.map((c) =>
        c.context_handle === DEMO_PEOPLE_CONTEXT_HANDLE ? { ...c, role_label } : c,
      ),
    };
    store.memory = createMemoryDirectoryItems(documentToItems(document));
  };
  return { reader, asked, release, relabel, failing };
}

/** One turn of the event loop: a background read scheduled with `setImmediate` has started after it. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

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
      (error: unknown) => error instanceof StoreUnavailableError && error.store === 'directory',
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

describe('items-backed directory renewing a cached context definition', () => {
  /** A directory on a hand-driven clock: TTL 5 s, renewed from 2.5 s (the defaults). */
  function clocked() {
    const gated = gatedReader();
    const clock = { now: 1_000 };
    const directory = createItemsDirectory({ reader: gated.reader, clock: () => clock.now });
    const find = (subject = 'dev-user') =>
      drive(directory.find(principal(subject), DEMO_PEOPLE_CONTEXT_HANDLE), gated.release);
    return { ...gated, clock, directory, find };
  }

  it('reads nothing but the grant on a call while the definition is younger than half its TTL', async () => {
    const { asked, clock, find } = clocked();
    await find();
    asked.length = 0;
    clock.now += 2_499;
    await find();
    await turn();
    assert.deepEqual(asked, ['SUBJECT#dev-user']);
  });

  it('answers from the cached definition past half its TTL and reads it again only after the call', async () => {
    // Prepare
    const { asked, clock, find, relabel, release } = clocked();
    await find();
    relabel('Auditor');
    asked.length = 0;
    clock.now += 2_500;
    // Act
    const grant = await find();
    // Assess: the call waited for its grant alone, and got the definition it had cached.
    assert.deepEqual(asked, ['SUBJECT#dev-user']);
    assert.equal(grant?.context.role_label, 'Analyst');
    await turn();
    assert.deepEqual(asked, ['SUBJECT#dev-user', CONTEXT_PK], 'the renewal starts after the call');
    release();
    await turn();
    // Past the first read's TTL the renewed definition is served, still with only the grant read.
    asked.length = 0;
    clock.now += 2_600;
    const later = await find();
    assert.equal(later?.context.role_label, 'Auditor');
    assert.deepEqual(asked, ['SUBJECT#dev-user']);
  });

  it('renews a definition once however many calls use it while its read is in flight', async () => {
    const { asked, clock, find, release } = clocked();
    await find();
    asked.length = 0;
    clock.now += 3_000;
    await find();
    await turn();
    await find();
    await turn();
    assert.equal(asked.filter((pk) => pk === CONTEXT_PK).length, 1);
    release();
  });

  it('does not renew a definition for a caller whose grant is not live', async () => {
    const { asked, clock, find } = clocked();
    await find();
    asked.length = 0;
    clock.now += 3_000;
    assert.equal(await find('outsider'), undefined);
    await turn();
    assert.deepEqual(asked, ['SUBJECT#outsider']);
  });

  it('keeps a definition whose renewal failed until its TTL, then reads it on the call', async () => {
    // Prepare
    const { asked, clock, find, release, failing } = clocked();
    await find();
    clock.now += 3_000;
    failing.add(CONTEXT_PK);
    await find();
    await turn();
    release();
    await turn();
    failing.delete(CONTEXT_PK);
    asked.length = 0;
    // Act: still inside the first read's TTL, then past it.
    await find();
    const beforeExpiry = [...asked];
    asked.length = 0;
    clock.now += 2_000;
    const grant = await find();
    // Assess
    assert.deepEqual(beforeExpiry, ['SUBJECT#dev-user']);
    assert.deepEqual(asked.slice(0, 2), ['SUBJECT#dev-user', CONTEXT_PK], 'expired: read beside the grant');
    assert.equal(grant?.context.context_handle, DEMO_PEOPLE_CONTEXT_HANDLE);
  });

  it('never serves a definition older than its TTL when renewal is switched off', async () => {
    const gated = gatedReader();
    const clock = { now: 1_000 };
    const directory = createItemsDirectory({
      reader: gated.reader,
      clock: () => clock.now,
      contextCacheTtlMs: 5_000,
      contextRefreshAfterMs: 5_000,
    });
    const find = () =>
      drive(directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), gated.release);
    await find();
    gated.asked.length = 0;
    clock.now += 4_999;
    await find();
    await turn();
    assert.deepEqual(gated.asked, ['SUBJECT#dev-user']);
    gated.asked.length = 0;
    clock.now += 1;
    await find();
    assert.deepEqual(gated.asked, ['SUBJECT#dev-user', CONTEXT_PK]);
  });
});
