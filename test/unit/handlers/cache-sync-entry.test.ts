/**
 * The source cache sync invocation as the REST entry sees it: a `bos.cache.sync` event (ids only) runs the
 * app's sync with the invocation's id and deadline and never reaches the HTTP app; a malformed one runs
 * nothing. Then the composed worker end to end on the embedded directory with an in-memory baseline store:
 * the cached fixture sources are synced, logged without any watermark, and a later run is a delta.
 * Real `@middy/core` streamify mode, fake `awslambda` global.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from 'aws-lambda';
import { cacheSyncEvent, cacheSyncRequest, eventKind, loadConfig } from '../../../lambda/aws/index.js';
import type { CacheSyncRequest } from '../../../lambda/aws/index.js';
import {
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  documentToItems,
} from '../../../lambda/bos/index.js';
import type { SourceDefinition } from '../../../lambda/bos/index.js';
import { composeCacheSync } from '../../../lambda/handlers/compose-cache-sync.js';
import { createRestEntry } from '../../../lambda/handlers/compose-entry.js';
import type { SyncInvocation } from '../../../lambda/handlers/compose-entry.js';
import { composeSources } from '../../../lambda/handlers/compose-sources.js';
import type { Logger } from '../../../lambda/mcp/index.js';
import { createMemoryBaselineStore } from '../../helpers/memory-baseline-store.js';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import { linesAt, withLogLines } from '../../helpers/log-lines.js';
import { lambdaContext, mcpPostEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (event: unknown, stream: FakeResponseStream, context: Context) => Promise<void>;

function recordingEntry() {
  const syncs: Array<{ request: CacheSyncRequest; invocation: SyncInvocation }> = [];
  let requests = 0;
  const handler = createRestEntry({
    component: 'test',
    serves: () => true,
    compose: () => ({
      handle: () => {
        requests += 1;
        return Promise.resolve(new Response('{}', { headers: { 'content-type': 'application/json' } }));
      },
      syncCache: (request, invocation) => {
        syncs.push({ request, invocation });
        return Promise.resolve();
      },
    }),
  }) as unknown as StreamingHandler;
  return { handler, syncs, requests: () => requests };
}

describe('the cache sync event', () => {
  it('is told apart from REST events, completions and task rounds, and carries only source ids', () => {
    assert.equal(eventKind(cacheSyncEvent()), 'cache-sync');
    assert.equal(eventKind({ ...cacheSyncEvent(), httpMethod: 'POST' }), 'rest');
    assert.deepEqual(cacheSyncRequest(cacheSyncEvent()), {});
    assert.deepEqual(cacheSyncRequest(cacheSyncEvent(['acme-scim'])), { sourceIds: ['acme-scim'] });
  });

  it('is refused with any other field or an id that is not a source id', () => {
    assert.equal(cacheSyncRequest({ ...cacheSyncEvent(), token: 'x' }), undefined);
    assert.equal(cacheSyncRequest({ kind: 'bos.cache.sync', source_ids: ['../etc'] }), undefined);
    assert.equal(cacheSyncRequest({ kind: 'bos.cache.sync', source_ids: 'acme-scim' }), undefined);
  });
});

describe('the cache sync invocation', () => {
  let restore: () => void = () => undefined;
  before(() => {
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  it('runs the app’s sync with the invocation id and deadline, without touching the HTTP app', async () => {
    const { handler, syncs, requests } = recordingEntry();
    const stream = new FakeResponseStream();
    const before = Date.now();
    await handler(
      cacheSyncEvent(['acme-hr']),
      stream,
      lambdaContext({ awsRequestId: 'sync-1', remainingMs: 60_000 }),
    );
    assert.equal(requests(), 0);
    assert.deepEqual(syncs[0]?.request, { sourceIds: ['acme-hr'] });
    assert.equal(syncs[0]?.invocation.workerId, 'sync-1');
    const deadline = syncs[0]?.invocation.deadline ?? 0;
    assert.ok(deadline >= before + 59_000 && deadline <= Date.now() + 60_000, String(deadline));
    assert.equal(parseStreamedResponse(stream.bytes()).prelude.statusCode, 204);
  });

  it('runs nothing for a malformed sync event, with a warning line', async () => {
    const { handler, syncs, requests } = recordingEntry();
    const stream = new FakeResponseStream();
    const { lines } = await withLogLines(() =>
      handler({ ...cacheSyncEvent(), source_ids: [42] }, stream, lambdaContext()),
    );
    assert.equal(requests(), 0);
    assert.equal(syncs.length, 0);
    assert.equal(parseStreamedResponse(stream.bytes()).prelude.statusCode, 400);
    assert.deepEqual(
      linesAt(lines, 'WARN').map((line) => line['message']),
      ['cache sync event not understood; ignored'],
    );
  });

  it('sends REST events to the app and never to the sync', async () => {
    const { handler, syncs, requests } = recordingEntry();
    await withLogLines(() =>
      handler(
        mcpPostEvent({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        new FakeResponseStream(),
        lambdaContext(),
      ),
    );
    assert.equal(requests(), 1);
    assert.equal(syncs.length, 0);
  });
});

describe('the composed sync worker', () => {
  interface Line {
    level: string;
    message: string;
    fields: Record<string, unknown>;
  }
  const logger = (lines: Line[]): Logger => {
    const at =
      (level: string) =>
      (message: string, fields: Record<string, unknown> = {}) =>
        void lines.push({ level, message, fields });
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  };

  it('is absent without a baseline table', () => {
    const config = loadConfig({});
    const sources = composeSources(config, { BOS_FIXTURE_LATENCY_SCALE: '0' }, logger([]));
    assert.equal(composeCacheSync(config, sources, logger([])), undefined);
  });

  it('syncs the directory’s cached sources: a full read, then nothing within the refresh, a delta when asked; no watermark logged', async () => {
    // Prepare: the demo directory with acme-hr cached
    const definitions: SourceDefinition[] = DEMO_DIRECTORY_DOCUMENT.sources.map((d) =>
      d.source_id === 'acme-hr' ? { ...d, cache: { enabled: true, refresh: 'PT5M' } } : d,
    );
    const lines: Line[] = [];
    const config = loadConfig({});
    const env = {
      BOS_FIXTURE_LATENCY_SCALE: '0',
      BOS_SECRET_ACME_HR_TOKEN: 'value',
      BOS_SECRET_ACME_CRM_TOKEN: 'v',
    };
    const sources = composeSources(config, env, logger(lines), { definitions });
    const store = createMemoryBaselineStore();
    const sync = composeCacheSync(config, sources, logger(lines), { store });
    // Act
    await sync?.({}, { workerId: 'w-1', deadline: Date.now() + 30_000 });
    await sync?.({}, { workerId: 'w-2', deadline: Date.now() + 30_000 });
    await sync?.({ sourceIds: ['acme-hr'] }, { workerId: 'w-3', deadline: Date.now() + 30_000 });
    // Assess
    const synced = lines.filter((l) => l.message === 'bos.cache.synced');
    assert.deepEqual(
      synced.map((l) => [l.fields['source_id'], l.fields['result']]),
      [
        ['acme-hr', 'full'],
        ['acme-hr', 'fresh'],
        ['acme-hr', 'delta'],
      ],
    );
    const state = await store.readState('acme-hr');
    assert.equal(state?.status, 'ready');
    assert.equal(state?.recordCount, 240);
    const logged = JSON.stringify(lines);
    assert.doesNotMatch(logged, new RegExp(state?.watermark ?? 'no watermark'));
    assert.deepEqual(await store.sourceIds(), ['acme-hr']);
  });
  it('keeps the baseline of a cached source whose definition turns unreadable, and purges it once the source leaves', async () => {
    // Prepare: table-backed definitions, read again on every run; acme-hr cached and synced
    const hr = DEMO_DIRECTORY_DOCUMENT.sources.find((d) => d.source_id === 'acme-hr')!;
    let definitions: SourceDefinition[] = [{ ...hr, cache: { enabled: true, refresh: 'PT5M' } }];
    const items = {
      query: (pk: string, prefix: string) =>
        createMemoryDirectoryItems(
          documentToItems({ format: 'bos-directory/v1', principals: [], contexts: [], sources: definitions }),
        ).query(pk, prefix),
      get: () => Promise.resolve(undefined),
    };
    const lines: Line[] = [];
    const config = loadConfig({});
    const env = {
      BOS_FIXTURE_LATENCY_SCALE: '0',
      BOS_SECRET_ACME_HR_TOKEN: 'value',
      BOS_SECRET_ACME_CRM_TOKEN: 'v',
    };
    const store = createMemoryBaselineStore();
    // Each run in an environment of its own (a cold start), as the schedule's invocations may be
    const run = async () => {
      const sources = composeSources(config, env, logger(lines), { items, definitionsTtlMs: 0 });
      await composeCacheSync(config, sources, logger(lines), { store })?.(
        {},
        { workerId: 'w', deadline: Date.now() + 30_000 },
      );
    };
    await run();
    assert.deepEqual(await store.sourceIds(), ['acme-hr']);
    // Act: an operator's typo makes the definition unreadable (a refresh in months)
    const crm = DEMO_DIRECTORY_DOCUMENT.sources.find((d) => d.source_id === 'acme-crm')!;
    definitions = [{ ...hr, cache: { enabled: true, refresh: 'P1M' } }, crm];
    await run();
    // Assess: the source fails, its baseline stays
    assert.ok(lines.some((l) => l.message === 'bos.sources.invalid_definition'));
    assert.deepEqual(await store.sourceIds(), ['acme-hr']);
    assert.equal((await store.readState('acme-hr'))?.recordCount, 240);
    // Act: the source leaves the directory (another one stays, so the directory was read)
    definitions = [crm];
    await run();
    // Assess
    assert.deepEqual(await store.sourceIds(), []);
    assert.equal(await store.readState('acme-hr'), undefined);
  });
});
