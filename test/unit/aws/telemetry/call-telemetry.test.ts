/**
 * `InvocationTelemetry`: what each invocation publishes (the call line and its EMF lines) from what the
 * ports reported while it ran, in its own async scope, so two calls served side by side never mix.
 */
import assert from 'node:assert/strict';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { createPowertoolsLogger, InvocationTelemetry } from '../../../../lambda/aws/index.js';
import { operationTelemetry } from '../../../../lambda/handlers/operation-telemetry.js';
import { emfBlobs, emfMetrics, emfProblems } from '../../../helpers/emf.js';
import { lambdaContext } from '../../../helpers/rest-events.js';

/**
 * A telemetry whose Powertools Logger and Metrics print into `lines` instead of the process's stdout (which
 * carries the test runner's own reports): their `console` is replaced by one over a collecting stream.
 */
function telemetry(): { t: InvocationTelemetry; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      );
      callback();
    },
  });
  const console = new Console({ stdout: sink, stderr: sink });
  const logger = createPowertoolsLogger({ component: 'test' });
  const metrics = new Metrics({ namespace: 'BosMcp', serviceName: 'bos-mcp' });
  for (const target of [logger, metrics]) (target as unknown as { console: Console }).console = console;
  const t = new InvocationTelemetry({ logger, metrics });
  t.setSourceKinds((id) => (id.startsWith('scim') ? 'scim' : 'fixture'));
  return { t, lines };
}

describe('InvocationTelemetry', () => {
  it('publishes rate-limit waits, deadline hits and errors per source, under conforming EMF', async () => {
    // Prepare
    const { t, lines } = telemetry();
    // Act
    await t.run(lambdaContext(), async () => {
      t.calls.annotate({ method: 'tools/call', toolName: 'search_people', protocolVersion: '2026-07-28' });
      t.rateLimitWait('scim-a', 1200);
      t.rateLimitWait('scim-a', 300);
      operationTelemetry(t).operationFinished({
        completeness: 'partial',
        sources: [
          {
            sourceId: 'scim-a',
            source: { source_type: 'scim', source_identity: 'scim-a' },
            firstPageMs: 40,
            pages: 2,
            records: 150,
          },
          {
            sourceId: 'slow',
            source: { source_type: 'fixture', source_identity: 'slow' },
            pages: 0,
            records: 0,
            error: 'source_timeout',
          },
        ],
      });
      t.tools({
        name: 'search_people',
        phase: 'finish',
        startedAt: 0,
        outcome: 'tool_error',
        isError: true,
      });
      t.answered(200, 'session-123');
      await Promise.resolve();
    });
    // Assess
    const blobs = emfBlobs(lines);
    assert.deepEqual(
      blobs.flatMap((b) => emfProblems(b)),
      [],
    );
    const metric = (name: string, id?: string, extra?: string) =>
      blobs
        .flatMap((b) => emfMetrics(b))
        .find(
          (m) =>
            m.name === name &&
            (id === undefined || m.dimensions['source.id'] === id) &&
            m.dimensions['error.type'] === extra,
        );
    assert.equal(metric('SourceRateLimitWait', 'scim-a')?.value, 1500);
    assert.equal(metric('SourceRateLimitWait', 'scim-a')?.dimensions['source.type'], 'scim');
    assert.equal(metric('SourceRecords', 'scim-a')?.value, 150);
    assert.equal(metric('SourceFirstPageTime', 'slow'), undefined, 'no page, no first-page time');
    assert.equal(metric('SourceDeadlineHits', 'slow')?.value, 1);
    assert.equal(metric('SourceErrors', 'slow')?.value, 1);
    assert.equal(metric('SourceErrors', 'slow', 'source_timeout')?.value, 1);
    assert.equal(metric('ToolCalls')?.dimensions['bos.completeness'], 'partial', 'isError of a partial read');
    const call = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['message'] === 'mcp.call');
    assert.match(String(call?.['mcp.session.id']), /^[0-9a-f]{16}$/);
    assert.ok(!lines.some((l) => l.includes('session-123')), 'never the raw session id');
  });

  it('keeps two calls served side by side apart, each with its own figures', async () => {
    // Prepare
    const { t, lines } = telemetry();
    const call = (tool: string, status: number, wait: number) =>
      t.run(lambdaContext({ awsRequestId: tool }), async () => {
        t.calls.annotate({ method: 'tools/call', toolName: tool });
        await sleep(5);
        t.rateLimitWait('scim-a', wait);
        await sleep(5);
        t.answered(status, undefined);
      });
    // Act
    await Promise.all([call('one', 200, 10), call('two', 500, 20)]);
    // Assess
    const metrics = emfBlobs(lines).flatMap((b) => emfMetrics(b));
    const calls = metrics
      .filter((m) => m.name === 'Calls')
      .map((m) => m.dimensions['rpc.response.status_code']);
    assert.deepEqual(calls.sort(), ['200', '500']);
    const waits = metrics.filter((m) => m.name === 'SourceRateLimitWait').map((m) => m.value);
    assert.deepEqual(waits.sort(), [10, 20]);
    const tools = metrics.filter((m) => m.name === 'ToolCalls').map((m) => m.dimensions['bos.completeness']);
    assert.deepEqual(tools, ['error', 'error'], 'a tool call that never reported is an error');
  });

  it('publishes nothing for an invocation that answered no request (a completion notice)', async () => {
    // Prepare
    const { t, lines } = telemetry();
    // Act
    await t.run(lambdaContext(), () => Promise.resolve());
    // Assess
    assert.ok(!lines.some((l) => l.includes('"Calls"') || l.includes('mcp.call')), lines.join('\n'));
  });

  it('publishes the call in finally when the invocation throws', async () => {
    // Prepare
    const { t, lines } = telemetry();
    // Act
    await assert.rejects(
      t.run(lambdaContext(), () => {
        t.answered(200, undefined);
        return Promise.reject(new Error('stream failed'));
      }),
    );
    // Assess
    assert.ok(lines.some((l) => l.includes('"Calls"')));
  });
});
