/**
 * The `entra` change feed against the Graph replay's `/users/delta`, with app-only tokens from a real
 * authorization server: a first round paged by `@odata.nextLink` with a checkpoint per page and the delta link
 * as watermark, the changes since that link (adds, updates, `@removed` users as deletes), a full read resumed
 * from a checkpoint, an expired link, links off the configured Graph endpoint refused, throttling, and no link
 * in any log entry.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import type { RawRecord } from '../../../../lambda/federation/index.js';
import { changeFeedFor, WatermarkExpiredError } from '../../../../lambda/sources/cache/index.js';
import type { ChangeBatch, ChangeFeed } from '../../../../lambda/sources/cache/index.js';
import { createEntraDeltaFeed } from '../../../../lambda/sources/entra/delta-feed.js';
import { createEntraSourceFactory, entraOptionsFromSpec } from '../../../../lambda/sources/entra/index.js';
import { isProviderError } from '../../../../lambda/sources/kernel/index.js';
import type { ProviderLogEntry, ProviderSettings } from '../../../../lambda/sources/kernel/index.js';
import { graphUser } from '../../../../local/providers/graph/users.js';
import { startOAuthVendors } from '../../../helpers/oauth-vendors.js';
import type { OAuthVendors } from '../../../helpers/oauth-vendors.js';

let vendors: OAuthVendors;
let logged: ProviderLogEntry[] = [];
const SETTINGS: ProviderSettings = {
  allowLoopbackHttp: true,
  retryJitterMs: [5, 10],
  log: (entry) => logged.push(entry),
};
before(async () => {
  vendors = await startOAuthVendors(250);
});
after(() => vendors.close());
afterEach(() => {
  vendors.reset();
  logged = [];
});

const feed = (): ChangeFeed => {
  const spec = vendors.entraSpec();
  return createEntraDeltaFeed(spec, entraOptionsFromSpec(spec, true), SETTINGS);
};
const readOptions = () => ({ signal: new AbortController().signal, deadline: Date.now() + 30_000 });

async function collect(
  source: AsyncIterable<ChangeBatch>,
): Promise<{ batches: ChangeBatch[]; upserts: RawRecord[]; deletes: string[]; watermark?: string }> {
  const batches: ChangeBatch[] = [];
  for await (const batch of source) batches.push(batch);
  const watermark = batches.at(-1)?.watermark;
  return {
    batches,
    upserts: batches.flatMap((b) => b.upserts),
    deletes: batches.flatMap((b) => b.deletes),
    ...(watermark === undefined ? {} : { watermark }),
  };
}

const deltaRequests = () => vendors.graph.seen.filter((r) => r.url.startsWith('/v1.0/users/delta'));

describe('entra delta feed', { timeout: 60_000 }, () => {
  // Runs first: later cases change the replay's users.
  it('reads every user in a first round paged by nextLink, each page a checkpoint, ending with the delta link', async () => {
    // Act
    const round = await collect(feed().changes(undefined, readOptions()));
    // Assess
    assert.equal(round.batches.length, 3);
    assert.equal(round.upserts.length, 250);
    assert.deepEqual(round.deletes, []);
    assert.deepEqual(
      new Set(round.upserts.map((r) => r.external_id)),
      new Set(vendors.graph.users.map((u) => u['id'])),
    );
    for (const batch of round.batches.slice(0, -1)) {
      assert.match(batch.checkpoint ?? '', /\/v1\.0\/users\/delta\?%24skiptoken=/);
      assert.equal(batch.watermark, undefined);
    }
    assert.match(round.watermark ?? '', /\/v1\.0\/users\/delta\?%24deltatoken=/);
    const first = new URL(deltaRequests().at(-3)!.url, 'http://x');
    assert.match(first.searchParams.get('$select') ?? '', /^id,displayName,.*accountEnabled/);
  });

  it('answers from the delta link only what changed: adds and updates as upserts, removed users as deletes', async () => {
    // Prepare
    const { watermark } = await collect(feed().changes(undefined, readOptions()));
    const [renamed, disabled, softDeleted, deleted] = vendors.graph.users.map((u) => String(u['id']));
    const added = graphUser(
      {
        ...vendors.graph.people[0]!,
        id: 'p9001',
        email: 'new.person@example.com',
        displayName: 'New Person',
      },
      'contoso.example',
    );
    vendors.graph.directory.add(added);
    vendors.graph.directory.update(renamed!, { displayName: 'Renamed Person' });
    vendors.graph.directory.update(disabled!, { accountEnabled: false });
    vendors.graph.directory.remove(softDeleted!, 'changed');
    vendors.graph.directory.remove(deleted!, 'deleted');
    // Act
    const delta = await collect(feed().changes(watermark, readOptions()));
    // Assess
    const byId = new Map(delta.upserts.map((r) => [r.external_id, r]));
    assert.deepEqual([...byId.keys()].sort(), [renamed, disabled, added['id']].sort());
    assert.equal(byId.get(renamed!)?.display_name, 'Renamed Person');
    assert.equal(byId.get(disabled!)?.lifecycle, 'inactive'); // a disabled account stays, as a live read shows it
    assert.equal(byId.get(String(added['id']))?.email, 'new.person@example.com');
    assert.deepEqual(delta.deletes.sort(), [softDeleted, deleted].sort());
    assert.equal(
      delta.batches.every((b) => b.checkpoint === undefined),
      true,
    );
    // Act: nothing changed since the new link
    const quiet = await collect(feed().changes(delta.watermark, readOptions()));
    // Assess
    assert.deepEqual([quiet.upserts.length, quiet.deletes.length], [0, 0]);
    assert.notEqual(quiet.watermark, undefined);
  });

  it('continues a first round from a checkpoint to the same users and delta link as one uninterrupted round', async () => {
    const whole = await collect(feed().changes(undefined, readOptions()));
    const checkpoint = whole.batches[0]!.checkpoint!;
    const rest = await collect(feed().changes(undefined, readOptions(), checkpoint));
    assert.deepEqual(
      [...whole.batches[0]!.upserts, ...rest.upserts].map((r) => r.external_id),
      whole.upserts.map((r) => r.external_id),
    );
    assert.equal(rest.batches.length, 2);
    assert.notEqual(rest.watermark, undefined);
  });

  it('throws WatermarkExpiredError for a delta link Graph no longer keeps (410 syncStateNotFound)', async () => {
    const { watermark } = await collect(feed().changes(undefined, readOptions()));
    vendors.graph.directory.expireDeltaLinks();
    await assert.rejects(collect(feed().changes(watermark, readOptions())), WatermarkExpiredError);
    const unknown = `${vendors.graph.graphUrl}/users/delta?$deltatoken=bm90LWEtdG9rZW4`;
    await assert.rejects(collect(feed().changes(unknown, readOptions())), WatermarkExpiredError);
  });

  it('reads in full again, never sending the token, when a stored link is off the configured Graph endpoint', async () => {
    // Prepare: another server on loopback that would receive the token
    let reached = 0;
    const other = createServer((_request, response) => {
      reached++;
      response.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      for (const link of [
        `http://127.0.0.1:${port}/v1.0/users/delta?$deltatoken=abc`,
        `${vendors.graph.origin}/v1.0/users?$deltatoken=abc`,
      ]) {
        // Act
        const failure = await collect(feed().changes(link, readOptions())).then(
          () => undefined,
          (error: unknown) => error,
        );
        // Assess: the sync treats it as an expired link (a full read from the configured endpoint)
        assert.ok(failure instanceof WatermarkExpiredError);
        assert.doesNotMatch(failure.message, /deltatoken|127\.0\.0\.1/);
      }
      const resumed = await collect(
        feed().changes(undefined, readOptions(), `http://127.0.0.1:${port}/v1.0/users/delta?$skiptoken=x`),
      ).catch((error: unknown) => error);
      assert.ok(resumed instanceof WatermarkExpiredError);
      assert.equal(reached, 0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('waits out a throttled page within the budget, and no log entry holds a link or a token', async () => {
    vendors.graph.switches.script.push({ kind: 'pass' }, { kind: 'throttle', retryAfterS: 0.05 });
    const round = await collect(feed().changes(undefined, readOptions()));
    assert.equal(round.upserts.length, vendors.graph.users.length);
    vendors.graph.directory.expireDeltaLinks();
    await assert.rejects(collect(feed().changes(round.watermark, readOptions())), WatermarkExpiredError);
    await collect(feed().changes('http://127.0.0.9:1/v1.0/users/delta?$deltatoken=x', readOptions())).catch(
      () => undefined,
    );
    assert.ok(logged.some((entry) => entry.event === 'provider_rate_limit_wait'));
    const text = JSON.stringify(logged);
    assert.doesNotMatch(text, /deltatoken|skiptoken|users\/delta|bearer|eyJ/i);
  });

  it('refuses a token of another tenant (source_identity_mismatch) before reading, as the read path does', async () => {
    const spec = vendors.entraSpec({ client_id: 'entra-foreign-app' });
    const foreign = createEntraDeltaFeed(spec, entraOptionsFromSpec(spec, true), SETTINGS);
    const failure = await collect(foreign.changes(undefined, readOptions())).catch((error: unknown) => error);
    assert.ok(isProviderError(failure));
    assert.equal(failure.code, 'source_identity_mismatch');
  });

  it('is the feed the cache’s table gives a source the entra factory built', async () => {
    const spec = vendors.entraSpec();
    const adapter = createEntraSourceFactory(SETTINGS)(spec);
    const tableFeed = changeFeedFor(spec, adapter);
    assert.equal(tableFeed?.tombstones, true);
    const round = await collect(tableFeed.changes(undefined, readOptions()));
    assert.match(round.watermark ?? '', /\/users\/delta\?%24deltatoken=/);
    // A spec the factory never saw (built by hand) has only its adapter: the listing feed, without tombstones.
    assert.equal(changeFeedFor({ ...spec }, adapter)?.tombstones, false);
  });
});
