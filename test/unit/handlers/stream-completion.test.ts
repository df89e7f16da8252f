/**
 * API Gateway's completion invocation (docs/aws.md "Completion invocations"): after each streamed response the
 * function is invoked once more with `{"requestId", "invokeCompletionStatus"}`. The entry must answer it
 * without composing or calling the app, without a log line above debug and without failing the invocation.
 * Real `@middy/core` streamify mode, fake `awslambda` global; the entry's log lines are captured.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { eventKind } from '../../../lambda/aws/index.js';
import { createRestEntry } from '../../../lambda/handlers/compose-entry.js';
import type { ComposedApp } from '../../../lambda/handlers/compose-entry.js';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { withLogLines } from '../../helpers/log-lines.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import { lambdaContext, mcpPostEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (event: unknown, stream: FakeResponseStream, context: Context) => Promise<void>;

describe('eventKind', () => {
  it('tells a proxy event, a completion notice, a task round and anything else apart', () => {
    assert.equal(eventKind(mcpPostEvent({ jsonrpc: '2.0', id: 1, method: 'ping' })), 'rest');
    assert.equal(eventKind({ requestId: 'r-1', invokeCompletionStatus: 'Success' }), 'stream-completion');
    assert.equal(
      eventKind({ invokeCompletionStatus: 'Failure', errorCode: 'Unhandled' }),
      'stream-completion',
    );
    // A request always wins: a proxy event that happens to carry the field is still a request.
    assert.equal(eventKind({ httpMethod: 'POST', invokeCompletionStatus: 'Success' }), 'rest');
    assert.equal(
      eventKind({ kind: 'bos-mcp/task-round', v: 1, owner: 'anonymous', taskId: 't' }),
      'task-round',
    );
    assert.equal(eventKind({ httpMethod: 'POST', kind: 'bos-mcp/task-round' }), 'rest');
    for (const other of [null, 'text', [], {}, { invokeCompletionStatus: 1 }, { kind: 'task-round' }])
      assert.equal(eventKind(other), 'unrecognised');
  });
});

describe('REST entry and completion notices', () => {
  let restore: () => void = () => undefined;
  before(() => {
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  const notices = [
    { requestId: 'c0ffee00-0000-4000-8000-000000000001', invokeCompletionStatus: 'Success' },
    { invokeCompletionStatus: 'Failure', errorCode: 'Unhandled' },
  ];
  for (const notice of notices) {
    it(`answers ${notice.invokeCompletionStatus} with an empty 200, no app call and no log line`, async () => {
      // Prepare
      const calls = { composed: 0, handled: 0 };
      const compose = (): ComposedApp => {
        calls.composed += 1;
        return {
          handle: () => {
            calls.handled += 1;
            return Promise.resolve(new Response('{}'));
          },
        };
      };
      const handler = createRestEntry({
        component: 'test',
        serves: () => true,
        compose,
      }) as unknown as StreamingHandler;
      const stream = new FakeResponseStream();

      // Act
      let failure: unknown;
      const { lines } = await withLogLines(async () => {
        await handler(notice, stream, lambdaContext()).catch((error: unknown) => {
          failure = error;
        });
      });

      // Assess
      assert.equal(failure, undefined);
      assert.deepEqual(calls, { composed: 0, handled: 0 });
      assert.deepEqual(lines, []);
      const { prelude, body } = parseStreamedResponse(stream.bytes());
      assert.equal(prelude.statusCode, 200);
      assert.equal(body, '');
    });
  }

  it('still answers a proxy event without httpMethod as an invalid request, not as a completion', async () => {
    // Prepare
    const handler = createRestEntry({
      component: 'test',
      serves: () => true,
      compose: () => ({ handle: () => Promise.resolve(new Response('{}')) }),
    }) as unknown as StreamingHandler;
    const stream = new FakeResponseStream();
    const event = { path: '/mcp' } as unknown as APIGatewayProxyEvent;
    // Act
    await handler(event, stream, lambdaContext());
    // Assess
    assert.equal(parseStreamedResponse(stream.bytes()).prelude.statusCode, 400);
  });
});
