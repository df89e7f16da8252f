/**
 * The task worker invocation as the REST entry sees it: an exact worker event runs one task round with the
 * invocation's id and deadline and never reaches the HTTP app; REST events, API Gateway completion
 * invocations and near-misses of the worker shape are never taken for one, and a worker event this bundle
 * cannot read runs nothing. Real `@middy/core` streamify
 * mode, fake `awslambda` global.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from 'aws-lambda';
import { taskWorkerEvent, taskWorkerRef } from '../../../lambda/aws/index.js';
import { createRestEntry } from '../../../lambda/handlers/compose-entry.js';
import type { TaskRef, TaskRoundContext } from '../../../lambda/mcp/index.js';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { linesAt, withLogLines } from '../../helpers/log-lines.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import { lambdaContext, mcpPostEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (event: unknown, stream: FakeResponseStream, context: Context) => Promise<void>;

const ref: TaskRef = { owner: `p#${'a'.repeat(40)}`, taskId: '0123456789abcdef0123456789abcdef' };

function recordingEntry() {
  const rounds: Array<{ ref: TaskRef; round: TaskRoundContext }> = [];
  let requests = 0;
  const handler = createRestEntry({
    component: 'test',
    serves: () => true,
    compose: () => ({
      handle: () => {
        requests += 1;
        return Promise.resolve(new Response('{}', { headers: { 'content-type': 'application/json' } }));
      },
      runTask: (taskRef, round) => {
        rounds.push({ ref: taskRef, round });
        return Promise.resolve();
      },
    }),
  }) as unknown as StreamingHandler;
  return { handler, rounds, requests: () => requests };
}

describe('the task worker invocation', () => {
  let restore: () => void = () => undefined;
  before(() => {
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  it('runs the named round with the invocation id and deadline, without touching the HTTP app', async () => {
    const { handler, rounds, requests } = recordingEntry();
    const stream = new FakeResponseStream();
    const before = Date.now();
    await handler(
      taskWorkerEvent(ref),
      stream,
      lambdaContext({ awsRequestId: 'worker-1', remainingMs: 60_000 }),
    );
    assert.equal(requests(), 0);
    assert.equal(rounds.length, 1);
    assert.deepEqual(rounds[0]?.ref, ref);
    assert.equal(rounds[0]?.round.workerId, 'worker-1');
    const deadline = rounds[0]?.round.deadline ?? 0;
    assert.ok(deadline >= before + 59_000 && deadline <= Date.now() + 60_000, String(deadline));
    assert.equal(parseStreamedResponse(stream.bytes()).prelude.statusCode, 204);
  });

  it('sends REST events to the app and never to a task round', async () => {
    const { handler, rounds, requests } = recordingEntry();
    await handler(
      mcpPostEvent({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      new FakeResponseStream(),
      lambdaContext(),
    );
    assert.equal(requests(), 1);
    assert.equal(rounds.length, 0);
  });

  it('runs nothing for a worker event of another shape version, with a warning line', async () => {
    const { handler, rounds, requests } = recordingEntry();
    const stream = new FakeResponseStream();
    const { lines } = await withLogLines(() =>
      handler({ ...taskWorkerEvent(ref), v: 2 }, stream, lambdaContext({ awsRequestId: 'worker-2' })),
    );
    assert.equal(requests(), 0);
    assert.equal(rounds.length, 0);
    assert.equal(parseStreamedResponse(stream.bytes()).prelude.statusCode, 400);
    assert.deepEqual(
      linesAt(lines, 'WARN').map((line) => line['message']),
      ['task worker event not understood; ignored'],
    );
    assert.doesNotMatch(lines.join('\n'), new RegExp(ref.taskId));
  });

  it('takes neither an API Gateway completion invocation nor a near-miss for a worker event', () => {
    const event = taskWorkerEvent(ref) as unknown as Record<string, unknown>;
    const misses: unknown[] = [
      { invokeCompletionStatus: 'Success' },
      mcpPostEvent({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      { ...event, v: 2 },
      { ...event, kind: 'task-round' },
      { ...event, extra: true },
      { ...event, owner: 'p#not-a-digest' },
      { ...event, taskId: '../other' },
      { ...event, taskId: '' },
      [event],
      null,
      'bos-mcp/task-round',
    ];
    for (const miss of misses) assert.equal(taskWorkerRef(miss), undefined, JSON.stringify(miss));
    assert.deepEqual(taskWorkerRef(JSON.parse(JSON.stringify(event))), ref);
    assert.deepEqual(taskWorkerRef(taskWorkerEvent({ owner: 'anonymous', taskId: 'abc' })), {
      owner: 'anonymous',
      taskId: 'abc',
    });
  });
});
