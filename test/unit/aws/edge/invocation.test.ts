import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInvocation } from '../../../../lambda/aws/index.js';
import { lambdaContext } from '../../../helpers/rest-events.js';

describe('invocation context', () => {
  it('carries the Lambda request id and an absolute deadline from the remaining time', () => {
    // Prepare
    const context = { awsRequestId: 'req-42', getRemainingTimeInMillis: () => 9000 };
    // Act
    const { context: ctx } = createInvocation(context, { now: () => 1_000_000, sourceIp: '198.51.100.1' });
    // Assess
    assert.equal(ctx.requestId, 'req-42');
    assert.equal(ctx.deadline, 1_009_000);
    assert.equal(ctx.sourceIp, '198.51.100.1');
  });

  it('has no deadline when the remaining time is unknown', () => {
    // Act
    const { context } = createInvocation({ awsRequestId: 'r', getRemainingTimeInMillis: () => Number.NaN });
    // Assess
    assert.equal(context.deadline, undefined);
  });

  it('fires the signal once, with the first reason, when aborted', () => {
    // Prepare
    const invocation = createInvocation(lambdaContext());
    const first = new Error('client disconnected');
    // Act
    invocation.abort(first);
    invocation.abort(new Error('second'));
    // Assess
    assert.equal(invocation.context.signal?.aborted, true);
    assert.equal(invocation.context.signal?.reason, first);
    assert.equal(invocation.signal, invocation.context.signal);
  });
});
