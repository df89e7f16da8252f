/**
 * Disconnect through the whole local stack (contract §5 "Disconnect cancels
 * outstanding work"): a client that aborts mid-stream makes every in-flight source adapter see its abort
 * within 100 ms, and no further provider page is requested. The function runs the demo sources five times
 * slower (`BOS_FIXTURE_LATENCY_SCALE=5`) with `BOS_FIXTURE_TRACE=1`, so each adapter logs `read`, `pull`
 * (a provider page requested), `abort` (seen by a read in progress) and `end` with its wall-clock time; the
 * stack hands us the runtime's log lines. Both clocks are this machine's, so times compare directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import type { SourceResultsOutcome } from '../../client/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { startBosStack } from '../helpers/bos-stack.js';
import { javaSuite } from '../helpers/java.js';

/** Every in-flight adapter sees the abort within this many ms of the client's. */
const ABORT_WITHIN_MS = 100;

interface Trace {
  kind: 'read' | 'pull' | 'abort' | 'end';
  source: string;
  atMs: number;
}

describe('client disconnect through the local stack', javaSuite(300_000), () => {
  let bos: BosStack;
  let outcome: SourceResultsOutcome;
  let abortAt: number;
  let traces: Trace[];

  before(async () => {
    bos = await startBosStack({
      name: 'bos-disconnect',
      poolSize: 1,
      env: { BOS_FIXTURE_LATENCY_SCALE: '5', BOS_FIXTURE_TRACE: '1' },
    });
    const client = new McpHttpClient({ url: bos.url, token: bos.token('dev-user') });
    await client.connect();
    const controller = new AbortController();
    const callStart = Date.now();
    outcome = await client.callTool(
      'search_people',
      { query: 'a' },
      {
        stream: true,
        signal: controller.signal,
        onPage: () => {
          if (controller.signal.aborted) return;
          abortAt = Date.now();
          controller.abort();
        },
      },
    );
    // Let the function notice, cancel and log; the slowest page (acme-crm) is 1,250 ms away.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    traces = bos.logs
      .map((line) => line.fields)
      .filter((f) => typeof f['message'] === 'string' && f['message'].startsWith('bos.fixture.'))
      .map((f) => ({ kind: f['kind'], source: f['source_identity'], atMs: f['atMs'] }) as Trace)
      .filter((t) => t.atMs >= callStart);
  });
  after(async () => {
    await bos?.close();
  });

  const inFlightAtAbort = () => {
    const started = new Set(
      traces.filter((t) => t.kind === 'read' && t.atMs <= abortAt).map((t) => t.source),
    );
    const endedBefore = new Set(
      traces.filter((t) => t.kind === 'end' && t.atMs <= abortAt).map((t) => t.source),
    );
    return [...started].filter((source) => !endedBefore.has(source));
  };

  it('leaves the client with no confirmed result (contract §5 "An EOF or connection failure before the matching final response")', () => {
    assert.equal(outcome.confirmed, false);
    assert.equal(outcome.observedPages.length >= 1, true);
  });

  it('had several source reads in flight when the client aborted', () => {
    assert.ok(inFlightAtAbort().length >= 3, `in flight: ${inFlightAtAbort().join(', ')}`);
  });

  it(`makes every in-flight adapter see its abort within ${ABORT_WITHIN_MS} ms`, (t) => {
    const timeline = traces.map((t) => `${t.atMs - abortAt} ${t.source} ${t.kind}`).join('\n');
    for (const source of inFlightAtAbort()) {
      const abort = traces.find((t) => t.source === source && t.kind === 'abort');
      assert.ok(abort !== undefined, `${source} saw no abort`);
      const lagMs = abort.atMs - abortAt;
      t.diagnostic(`${source}: abort seen ${lagMs} ms after the client's`);
      assert.ok(
        lagMs <= ABORT_WITHIN_MS,
        `${source} saw the abort ${lagMs} ms after the client\n${timeline}`,
      );
    }
  });

  it('requests no further provider page once a source saw its abort, and starts no new read', () => {
    for (const source of inFlightAtAbort()) {
      const abort = traces.find((t) => t.source === source && t.kind === 'abort');
      const later = traces.filter(
        (t) => t.source === source && t.kind === 'pull' && t.atMs > (abort?.atMs ?? 0),
      );
      assert.deepEqual(later, [], `${source} pulled after its abort`);
      assert.ok(
        traces.some((t) => t.source === source && t.kind === 'end'),
        `${source} read ended`,
      );
    }
    assert.deepEqual(
      traces.filter((t) => t.kind === 'read' && t.atMs > abortAt),
      [],
    );
  });
});
