/**
 * Delta correctness for `entra` sources, with a live read as the oracle: a full sync from Graph's delta query
 * (the Graph replay) into the baseline store on DynamoDB Local, then users added, changed, disabled and deleted
 * at the replay, a delta sync from the stored delta link, and the baseline must hold exactly what a fresh live
 * listing of the adapter reads. The feed is the one the cache's table of feeds gives an `entra` source.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbBaselineStore, loadConfig } from '../../lambda/aws/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';
import { baselineIndexKeys } from '../../lambda/handlers/compose-baseline.js';
import { composeCacheSync } from '../../lambda/handlers/compose-cache-sync.js';
import { composeSources } from '../../lambda/handlers/compose-sources.js';
import type { Logger } from '../../lambda/mcp/index.js';
import { changeFeedFor, syncSource } from '../../lambda/sources/cache/index.js';
import type { BaselineStore, ChangeFeed } from '../../lambda/sources/cache/index.js';
import { createEntraSourceFactory } from '../../lambda/sources/entra/index.js';
import { baselineTable } from '../../lib/table-schemas.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { graphUser } from '../../local/providers/graph/users.js';
import { baselineRecords as baseline, byId, liveListing } from '../helpers/cache-oracle.js';
import { javaSuite } from '../helpers/java.js';
import { ENTRA_SECRET, startOAuthVendors } from '../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../helpers/oauth-vendors.js';

const PREFIX = 'it-sync-entra-';

describe('the source cache against the Graph replay', javaSuite(180_000), () => {
  let db: DynamoDbLocal | undefined;
  let client: DynamoDBClient;
  let vendors: OAuthVendors;
  let store: BaselineStore;
  let adapter: SourceAdapter;
  let feed: ChangeFeed;

  before(async () => {
    vendors = await startOAuthVendors(300);
    vendors.graph.deltaPageSize = 120;
    db = await startDynamoDbLocal({ tables: { schemas: [baselineTable], prefix: PREFIX } });
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 10_000 });
    store = new DynamoDbBaselineStore<RawRecord>({
      client,
      tableName: `${PREFIX}${baselineTable.id}`,
      indexKeys: baselineIndexKeys,
    });
    const spec = vendors.entraSpec();
    adapter = createEntraSourceFactory({ allowLoopbackHttp: true, retryJitterMs: [5, 10] })(spec);
    feed = changeFeedFor(spec, adapter)!;
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
    await vendors?.close();
  });

  const sync = () =>
    syncSource({
      sourceId: 'acme-entra',
      store,
      feed,
      owner: 'oracle',
      stopAt: Date.now() + 60_000,
      fullEveryMs: 86_400_000,
    });

  it('keeps the baseline equal to a live listing through adds, changes and deletes', async () => {
    // Prepare: the first sync reads every user through the delta query
    assert.equal(feed.tombstones, true, 'the entra feed reports deletions');
    const first = await sync();
    assert.equal(first.result, 'full');
    assert.equal(first.written, 300);
    assert.deepEqual(byId(await baseline(store, 'acme-entra')), byId(await liveListing(adapter)));
    // Act: changes at Graph, then a delta sync
    const ids = vendors.graph.users.map((u) => String(u['id']));
    const directory = vendors.graph.directory;
    for (let n = 1; n <= 3; n++)
      directory.add(
        graphUser(
          {
            ...vendors.graph.people[0]!,
            id: `p${9000 + n}`,
            email: `joiner.${n}@example.com`,
            displayName: `Joiner ${n}`,
          },
          'contoso.example',
        ),
      );
    directory.update(ids[10]!, { displayName: 'Renamed Ten', jobTitle: 'Director' });
    directory.update(ids[20]!, { accountEnabled: false });
    directory.update(ids[30]!, { mail: null, mobilePhone: null });
    directory.remove(ids[40]!, 'changed');
    directory.remove(ids[250]!, 'deleted');
    directory.update(ids[60]!, { displayName: 'Changed Then Gone' });
    directory.remove(ids[60]!, 'deleted');
    const requestsBefore = vendors.graph.seen.length;
    const second = await sync();
    // Only the stored delta link was followed: no listing of /users, no new first round.
    const asked = vendors.graph.seen.slice(requestsBefore).map((r) => r.url);
    assert.ok(asked.length > 0);
    assert.ok(
      asked.every((url) => /^\/v1\.0\/users\/delta\?(%24|\$)deltatoken=/.test(url)),
      JSON.stringify(asked.length),
    );
    // Assess
    assert.equal(second.result, 'delta');
    assert.equal(second.written, 6); // three joiners, three changed users
    assert.equal(second.removed, 3);
    const live = await liveListing(adapter);
    assert.equal(live.length, 300 + 3 - 3);
    assert.deepEqual(byId(await baseline(store, 'acme-entra')), byId(live));
    // The count followed the delta: three joiners in, three users out (one changed first), no double count.
    assert.equal((await store.readState('acme-entra'))?.recordCount, live.length);
  });

  it('reads everything again when Graph has forgotten the delta link, and still matches a live listing', async () => {
    const directory = vendors.graph.directory;
    const ids = vendors.graph.users.map((u) => String(u['id']));
    directory.expireDeltaLinks();
    directory.remove(ids[5]!, 'deleted');
    directory.update(ids[6]!, { department: 'Moved' });
    const outcome = await sync();
    assert.equal(outcome.result, 'full');
    assert.equal(outcome.removed, 1); // the sweep after the full read
    const live = await liveListing(adapter);
    assert.deepEqual(byId(await baseline(store, 'acme-entra')), byId(live));
    assert.equal((await store.readState('acme-entra'))?.recordCount, live.length);
    const after = await sync();
    assert.equal(after.result, 'delta');
    assert.equal(after.written + after.removed, 0);
  });
  it('logs each sync of the composed worker without a delta link, a next link, a token or the client secret', async () => {
    // Prepare: the worker as the function composes it, over a directory defining one cached entra source
    const lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
    const at =
      (level: string) =>
      (message: string, fields: Record<string, unknown> = {}) =>
        void lines.push({ level, message, fields });
    const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const config = loadConfig({});
    const definitions = [
      {
        source_id: 'acme-entra-logged',
        adapter: 'entra',
        options: vendors.entraSpec().options,
        credential_ref: 'ACME_ENTRA_SECRET',
        cache: { enabled: true, refresh: 'PT1M' },
      },
    ];
    const env = { BOS_SECRET_ACME_ENTRA_SECRET: ENTRA_SECRET };
    const sources = composeSources(config, env, logger, { definitions });
    const worker = composeCacheSync(config, sources, logger, { store });
    const watermarks: string[] = [];
    const run = async () => {
      await worker?.({ sourceIds: ['acme-entra-logged'] }, { workerId: 'w', deadline: Date.now() + 60_000 });
      const watermark = (await store.readState('acme-entra-logged'))?.watermark;
      if (watermark !== undefined) watermarks.push(watermark);
    };
    // Act: the first round (paged by next links), a delta after a change, a full read after Graph forgets
    await run();
    vendors.graph.directory.update(String(vendors.graph.users[3]?.['id']), { displayName: 'Logged Change' });
    await run();
    vendors.graph.directory.expireDeltaLinks();
    await run();
    // Assess
    assert.deepEqual(
      lines.filter((l) => l.message === 'bos.cache.synced').map((l) => l.fields['result']),
      ['full', 'delta', 'full'],
    );
    assert.equal(new Set(watermarks).size, 3, 'three delta links were stored');
    const printed = JSON.stringify(lines);
    for (const link of watermarks) {
      assert.ok(!printed.includes(link), 'a stored delta link was logged');
      const token = new URL(link).searchParams.get('$deltatoken') ?? link;
      assert.ok(!printed.includes(token), 'a delta token was logged');
    }
    assert.doesNotMatch(printed, /deltatoken|skiptoken|deltaLink|nextLink|https?:\/\//i);
    assert.ok(!printed.includes(ENTRA_SECRET), 'the client secret was logged');
    assert.doesNotMatch(printed, /Bearer|eyJ[A-Za-z0-9_-]{10,}/, 'a token was logged');
  });
});
