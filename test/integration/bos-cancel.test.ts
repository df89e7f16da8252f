/**
 * `notifications/cancelled` through the whole local stack, where every POST is its own Lambda invocation
 * (docs/bos.md "Cancelling a read"): a streamed read over the `hanging` preset runs in one execution
 * environment; the notification, a second request, is served by another and leaves a cancel marker in the
 * streams table (DynamoDB Local); the read polls for it, aborts its sources and closes with its final frame.
 * The same notification from another principal cancels nothing.
 *
 * The operation budget is 20 s, so nothing but the cancellation can end the read within the test's bound.
 * The function logs `bos.fixture.read`, `.abort` and `.end` with wall-clock `atMs` (`BOS_FIXTURE_TRACE=1`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import type { SourceResultsOutcome } from '../../client/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { startBosStack } from '../helpers/bos-stack.js';
import { fixtureTraces, inFlightAt } from '../helpers/fixture-trace.js';
import type { Trace } from '../helpers/fixture-trace.js';
import { javaSuite } from '../helpers/java.js';

/** From the notification's 202 to the final frame: the poll interval (500 ms) plus one read and the close. */
const FINAL_WITHIN_MS = 1_000;
/** How long the other principal's notification is given to (wrongly) take effect: three polls. */
const IGNORED_FOR_MS = 1_500;

interface CancelRun {
  outcome: SourceResultsOutcome;
  callStart: number;
  /** When the owner's notification was answered (202). */
  cancelAckedAt: number;
  finalAt: number;
  /** When the other principal's notification was answered, if one was sent. */
  foreignAckedAt?: number;
  trace: Trace[];
}

/**
 * Calls `search_people` streamed as `owner`; at the first page, optionally lets `foreign` cancel the same
 * id and waits, then cancels as the owner; returns the timings and the fixture trace.
 */
async function cancelRun(
  bos: BosStack,
  owner: McpHttpClient,
  id: string,
  foreign?: McpHttpClient,
): Promise<CancelRun> {
  await owner.connect();
  let firstPage: () => void = () => undefined;
  const paged = new Promise<void>((resolve) => (firstPage = resolve));
  const callStart = Date.now();
  const call = owner
    .callTool('search_people', { query: 'a' }, { stream: true, id, onPage: () => firstPage() })
    .then((outcome) => ({ outcome, finalAt: Date.now() }));
  await paged;
  let foreignAckedAt: number | undefined;
  if (foreign !== undefined) {
    await foreign.cancel(id);
    foreignAckedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, IGNORED_FOR_MS));
  }
  await owner.cancel(id);
  const cancelAckedAt = Date.now();
  const { outcome, finalAt } = await call;
  // The fixture's `end` lines follow the abort by a tick; give the log pipe a moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    outcome,
    callStart,
    cancelAckedAt,
    finalAt,
    ...(foreignAckedAt === undefined ? {} : { foreignAckedAt }),
    trace: fixtureTraces(bos, callStart),
  };
}

function timeline(run: CancelRun): string {
  return run.trace.map((t) => `${t.atMs - run.cancelAckedAt} ${t.source} ${t.kind}`).join('\n');
}

/** The assertions both shapes share. */
function itEndsTheRead(shape: string, getRun: () => CancelRun): void {
  it(`${shape}: ends the read with its final frame within ${FINAL_WITHIN_MS} ms of the notification`, (t) => {
    const run = getRun();
    const lag = run.finalAt - run.cancelAckedAt;
    t.diagnostic(`final frame ${lag} ms after the notification's 202`);
    assert.equal(run.outcome.confirmed, true);
    assert.equal(run.outcome.error?.code, -32800);
    assert.ok(lag <= FINAL_WITHIN_MS, `final frame ${lag} ms after the notification\n${timeline(run)}`);
  });

  it(`${shape}: every source in flight sees its abort within the bound, before the final frame`, (t) => {
    const run = getRun();
    const inFlight = inFlightAt(run.trace, run.cancelAckedAt - 1);
    assert.ok(inFlight.length >= 1, timeline(run));
    for (const source of inFlight) {
      const abort = run.trace.find((trace) => trace.source === source && trace.kind === 'abort');
      assert.ok(abort !== undefined, `${source} saw no abort\n${timeline(run)}`);
      t.diagnostic(`${source}: abort ${abort.atMs - run.cancelAckedAt} ms after the notification's 202`);
      assert.ok(abort.atMs - run.cancelAckedAt <= FINAL_WITHIN_MS, timeline(run));
      assert.ok(abort.atMs <= run.finalAt, timeline(run));
    }
  });
}

describe(
  'notifications/cancelled through the local stack, each request its own invocation',
  javaSuite(300_000),
  () => {
    let bos: BosStack;
    let sessionful: CancelRun;
    let stateless: CancelRun;

    before(async () => {
      bos = await startBosStack({
        name: 'bos-cancel',
        // The read holds one environment; the notifications are served by the others.
        poolSize: 3,
        env: {
          BOS_FIXTURE_PRESET: 'hanging',
          BOS_FIXTURE_TRACE: '1',
          BOS_OPERATION_TIMEOUT_MS: '20000',
        },
      });
      const owner = new McpHttpClient({ url: bos.url, token: bos.token('dev-user') });
      // A fresh DynamoDB Local on a loaded machine can miss the session store's 2 s timeout once (503).
      for (let attempt = 1; ; attempt += 1) {
        try {
          await owner.connect();
          break;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
      sessionful = await cancelRun(bos, owner, 'read-1');
      const stateOwner = new McpHttpClient({
        url: bos.url,
        protocol: 'stateless',
        token: bos.token('dev-user'),
      });
      const outsider = new McpHttpClient({
        url: bos.url,
        protocol: 'stateless',
        token: bos.token('outsider'),
      });
      stateless = await cancelRun(bos, stateOwner, 'read-2', outsider);
    });
    after(async () => {
      await bos?.close();
    });

    itEndsTheRead('session-ful 2025-11-25', () => sessionful);
    itEndsTheRead('stateless 2026-07-28', () => stateless);

    it('stateless: the same notification from another principal cancels nothing', () => {
      const run = stateless;
      assert.ok(run.foreignAckedAt !== undefined);
      const early = run.trace.filter(
        (t) => t.kind === 'abort' && t.atMs >= (run.foreignAckedAt ?? 0) && t.atMs < run.cancelAckedAt,
      );
      assert.deepEqual(early, [], timeline(run));
      assert.ok(run.finalAt > run.cancelAckedAt);
    });

    it('logs no error or warning', () => {
      const problems = bos.logs.filter((line) =>
        ['ERROR', 'WARN'].includes(String(line.fields['level']).toUpperCase()),
      );
      assert.deepEqual(problems, []);
    });
  },
);
