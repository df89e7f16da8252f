/**
 * Disconnect through the whole local stack (contract §5 "Disconnect cancels outstanding work"), in both modes
 * of the local front (docs/aws.md "Client disconnect"):
 *
 * - **As on AWS** (the default): Lambda does not interrupt a streamed response when its caller goes away, so
 *   the function observes nothing — no `close`, no failed write. Its reads go on until the operation deadline
 *   (`BOS_OPERATION_TIMEOUT_MS`, 2,000 ms here) aborts them; the invocation then ends normally and API
 *   Gateway's completion invocation follows. The `hanging` preset keeps reads in flight until something
 *   aborts them (no source timeout of their own).
 * - **`close-stream`** (the emulator mode): the function's response stream is closed, so the runtime's
 *   cancellation path runs: every in-flight adapter sees its abort within 100 ms and requests no further page.
 *
 * The function logs `bos.fixture.read`, `.pull`, `.abort` and `.end` with wall-clock `atMs`
 * (`BOS_FIXTURE_TRACE=1`); the stack hands us the runtime's log lines. Both clocks are this machine's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import type { SourceResultsOutcome } from '../../client/index.js';
import type { BosStack, BosStackOptions } from '../helpers/bos-stack.js';
import { startBosStack } from '../helpers/bos-stack.js';
import { fixtureTraces, inFlightAt } from '../helpers/fixture-trace.js';
import type { Trace } from '../helpers/fixture-trace.js';
import { javaSuite } from '../helpers/java.js';

/** Every in-flight adapter sees the abort within this many ms of the client's (close-stream mode). */
const ABORT_WITHIN_MS = 100;
/** The operation budget that ends a disconnected client's work on AWS. */
const OPERATION_TIMEOUT_MS = 2_000;

interface DisconnectRun {
  bos: BosStack;
  outcome: SourceResultsOutcome;
  callStart: number;
  abortAt: number;
  traces: Trace[];
}

/** Starts a stack, calls `search_people` streamed, aborts at the first page, waits `settleMs`, collects traces. */
async function disconnectRun(options: BosStackOptions, settleMs: number): Promise<DisconnectRun> {
  const bos = await startBosStack(options);
  const client = new McpHttpClient({ url: bos.url, token: bos.token('dev-user') });
  // A fresh DynamoDB Local on a loaded machine can miss the session store's 2 s timeout once (503).
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.connect();
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  const controller = new AbortController();
  const callStart = Date.now();
  let abortAt = 0;
  const outcome = await client.callTool(
    'search_people',
    { query: 'a' },
    {
      stream: true,
      signal: controller.signal,
      // A bare disconnect: what a client that sends no notifications/cancelled leaves behind.
      cancelOnAbort: false,
      onPage: () => {
        if (controller.signal.aborted) return;
        abortAt = Date.now();
        controller.abort();
      },
    },
  );
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const traces = fixtureTraces(bos, callStart);
  return { bos, outcome, callStart, abortAt, traces };
}

function timeline(run: DisconnectRun): string {
  return run.traces.map((t) => `${t.atMs - run.abortAt} ${t.source} ${t.kind}`).join('\n');
}

describe('client disconnect through the local stack, as on AWS', javaSuite(300_000), () => {
  let run: DisconnectRun;

  before(async () => {
    run = await disconnectRun(
      {
        name: 'bos-disconnect-aws',
        poolSize: 1,
        env: {
          BOS_FIXTURE_PRESET: 'hanging',
          BOS_FIXTURE_TRACE: '1',
          BOS_OPERATION_TIMEOUT_MS: String(OPERATION_TIMEOUT_MS),
        },
      },
      OPERATION_TIMEOUT_MS + 2_500,
    );
  });
  after(async () => {
    await run?.bos.close();
  });

  it('leaves the client with no confirmed result', () => {
    assert.equal(run.outcome.confirmed, false);
    assert.ok(run.outcome.observedPages.length >= 1);
  });

  it('had source reads in flight when the client went away', () => {
    assert.ok(inFlightAt(run.traces, run.abortAt).length >= 1, timeline(run));
  });

  it('shows the function nothing of the disconnect: no source is aborted before the operation deadline', (t) => {
    const deadline = run.callStart + OPERATION_TIMEOUT_MS;
    const aborts = run.traces.filter((trace) => trace.kind === 'abort');
    assert.ok(aborts.length >= 1, `no read was ever aborted\n${timeline(run)}`);
    for (const abort of aborts) {
      t.diagnostic(
        `${abort.source}: abort ${abort.atMs - run.abortAt} ms after the client left, ` +
          `${abort.atMs - run.callStart} ms after the call started (operation budget ${OPERATION_TIMEOUT_MS} ms)`,
      );
      assert.ok(abort.atMs >= deadline, `${abort.source} was aborted before the deadline\n${timeline(run)}`);
    }
  });

  it('ends every read once the operation deadline aborts it', () => {
    for (const source of inFlightAt(run.traces, run.abortAt)) {
      assert.ok(
        run.traces.some((t) => t.source === source && t.kind === 'end'),
        `${source} never ended\n${timeline(run)}`,
      );
    }
  });

  it('ends the invocation normally, answers the completion invocation, and logs no error', (t) => {
    // One completion per invocation on the streaming routes (connect's requests too); the call's is last.
    const completion = run.bos.completions.at(-1);
    t.diagnostic(`completion invocation of the call: ${JSON.stringify(completion)}`);
    assert.ok(completion !== undefined);
    for (const record of run.bos.completions) {
      assert.equal(record.notice.invokeCompletionStatus, 'Success');
      assert.equal(record.outcome, 'answered');
      assert.equal(record.statusCode, 200);
    }
    const problems = run.bos.logs.filter((line) =>
      ['ERROR', 'WARN'].includes(String(line.fields['level']).toUpperCase()),
    );
    assert.deepEqual(problems, []);
  });
});

describe('client disconnect through the local stack, close-stream mode', javaSuite(300_000), () => {
  let run: DisconnectRun;

  before(async () => {
    // The slowest demo page (acme-crm) is 1,250 ms away at latency scale 5.
    run = await disconnectRun(
      {
        name: 'bos-disconnect',
        poolSize: 1,
        env: { BOS_FIXTURE_LATENCY_SCALE: '5', BOS_FIXTURE_TRACE: '1' },
        front: { onClientLoss: 'close-stream' },
      },
      2_000,
    );
  });
  after(async () => {
    await run?.bos.close();
  });

  it('leaves the client with no confirmed result (contract §5 "An EOF or connection failure before the matching final response")', () => {
    assert.equal(run.outcome.confirmed, false);
    assert.equal(run.outcome.observedPages.length >= 1, true);
  });

  it('had several source reads in flight when the client aborted', () => {
    const inFlight = inFlightAt(run.traces, run.abortAt);
    assert.ok(inFlight.length >= 3, `in flight: ${inFlight.join(', ')}`);
  });

  it(`makes every in-flight adapter see its abort within ${ABORT_WITHIN_MS} ms`, (t) => {
    for (const source of inFlightAt(run.traces, run.abortAt)) {
      const abort = run.traces.find((trace) => trace.source === source && trace.kind === 'abort');
      assert.ok(abort !== undefined, `${source} saw no abort`);
      const lagMs = abort.atMs - run.abortAt;
      t.diagnostic(`${source}: abort seen ${lagMs} ms after the client's`);
      assert.ok(
        lagMs <= ABORT_WITHIN_MS,
        `${source} saw the abort ${lagMs} ms after the client\n${timeline(run)}`,
      );
    }
  });

  it('requests no further provider page once a source saw its abort, and starts no new read', () => {
    for (const source of inFlightAt(run.traces, run.abortAt)) {
      const abort = run.traces.find((t) => t.source === source && t.kind === 'abort');
      const later = run.traces.filter(
        (t) => t.source === source && t.kind === 'pull' && t.atMs > (abort?.atMs ?? 0),
      );
      assert.deepEqual(later, [], `${source} pulled after its abort`);
      assert.ok(
        run.traces.some((t) => t.source === source && t.kind === 'end'),
        `${source} read ended`,
      );
    }
    assert.deepEqual(
      run.traces.filter((t) => t.kind === 'read' && t.atMs > run.abortAt),
      [],
    );
  });
});
