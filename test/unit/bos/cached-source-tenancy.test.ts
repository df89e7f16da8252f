/**
 * A cached source is read exactly as its live read is authorised: a context reads only the baselines of the
 * sources it lists, so one organisation's baseline is never read for another organisation's context, even
 * when both live in one store.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';

import { createInMemoryDirectory } from '../../../lambda/bos/index.js';
import type { SourceAdapter } from '../../../lambda/federation/index.js';
import { createCachedSource } from '../../../lambda/sources/index.js';
import { fullSync, MemoryBaselineStore, MemoryProvider } from '../../helpers/memory-baseline.js';
import type { Harness, Session } from './platform-harness.js';
import { createHarness } from './platform-harness.js';
import type { FinalResult, Message } from './sse-frames.js';
import { operationResultOf } from './sse-frames.js';

const ACME = 'ctx_00000000000000000000000000000a11';
const GLOBEX = 'ctx_00000000000000000000000000000b22';
const READS = ['search_people', 'get_person', 'list_people'];

const context = (handle: string, organization_name: string, sourceIds: string[]) => ({
  context: {
    context_handle: handle,
    organization_name,
    application_name: 'People Directory',
    installation_name: 'Production',
    role_label: 'Analyst',
    is_default: true,
  },
  operations: READS,
  sourceIds,
});

const store = new MemoryBaselineStore();
let harness: Harness;
let globexUser: Session;

function cachedSource(provider: MemoryProvider): SourceAdapter {
  return createCachedSource({
    live: provider.live,
    sourceId: provider.source.source_identity,
    store,
    feed: provider.feed,
    policy: { refreshMs: 60_000, maxStalenessMs: 3_600_000 },
  });
}

before(async () => {
  const acme = new MemoryProvider({ source_type: 'scim', source_identity: 'acme-scim' });
  const globex = new MemoryProvider({ source_type: 'scim', source_identity: 'globex-scim' });
  acme.upsert('a1', { display_name: 'Ann Acme' });
  globex.upsert('g1', { display_name: 'Ann Globex' });
  await fullSync(store, 'acme-scim', acme.feed);
  await fullSync(store, 'globex-scim', globex.feed);
  harness = await createHarness({
    directory: createInMemoryDirectory({
      contexts: [context(ACME, 'Acme Corp', ['acme-scim']), context(GLOBEX, 'Globex', ['globex-scim'])],
      grants: { 'acme-user': [ACME], 'globex-user': [GLOBEX] },
    }),
    sources: new Map([
      ['acme-scim', cachedSource(acme)],
      ['globex-scim', cachedSource(globex)],
    ]),
  });
  globexUser = await harness.session(await harness.auth.mint('globex-user'));
});
after(() => harness.platform.server.settled());
beforeEach(() => store.touched.splice(0));

const execute = async (session: Session, handle: string) =>
  (await (
    await session.call('bos_execute', {
      context_handle: handle,
      tool_name: 'search_people',
      arguments: { query: 'ann' },
    })
  ).json()) as Message;

describe('cached sources and tenancy', () => {
  it('reads only the baseline of the context’s own organisation', async () => {
    const body = await execute(globexUser, GLOBEX);
    const { records, metadata } = operationResultOf(body.result as FinalResult);
    assert.deepEqual(
      records.map((r) => r.display_name),
      ['Ann Globex'],
    );
    assert.equal(metadata.retrieval_mode, 'cache_baseline_with_delta');
    assert.ok(store.touched.length > 0);
    assert.deepEqual(new Set(store.touched), new Set(['globex-scim']));
  });

  it('reads no baseline at all for a context handle of another organisation', async () => {
    const body = await execute(globexUser, ACME);
    assert.equal(
      (body.result as { isError?: boolean } | undefined)?.isError ?? body.error !== undefined,
      true,
    );
    assert.deepEqual(store.touched, []);
  });
});
