/**
 * The BOS tools' operation report, recorded against the call being served: the call keeps the worst outcome of
 * the operations it ran, sums each source's figures and counts a `source_timeout` as a deadline hit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { createPowertoolsLogger, InvocationTelemetry } from '../../../lambda/aws/index.js';
import type { CallRecord } from '../../../lambda/aws/index.js';
import { operationTelemetry } from '../../../lambda/handlers/operation-telemetry.js';
import { lambdaContext } from '../../helpers/rest-events.js';

/** Runs `report` inside one invocation (never answered, so nothing is published) and returns its record. */
async function recorded(report: (t: InvocationTelemetry) => void): Promise<CallRecord | undefined> {
  const logger = createPowertoolsLogger({ component: 'test' });
  const t = new InvocationTelemetry({
    logger,
    metrics: new Metrics({ namespace: 'Test', serviceName: 'test' }),
  });
  t.setSourceKinds(() => 'fixture');
  let record: CallRecord | undefined;
  await t.run(lambdaContext(), () => {
    report(t);
    record = t.call;
    return Promise.resolve();
  });
  return record;
}

describe('operationTelemetry', () => {
  it('keeps the worst outcome of the operations a call ran (a batch), whatever their order', async () => {
    // Act
    const record = await recorded((t) => {
      const port = operationTelemetry(t);
      port.operationFinished({ completeness: 'partial', sources: [] });
      port.operationFinished({ completeness: 'complete', sources: [] });
    });
    // Assess
    assert.equal(record?.completeness, 'partial');
  });

  it("sums a source's pages and records across operations, with its earliest first page and each error", async () => {
    // Act
    const record = await recorded((t) => {
      const port = operationTelemetry(t);
      port.operationFinished({
        completeness: 'complete',
        sources: [
          {
            sourceId: 'hr',
            source: { source_type: 'fixture', source_identity: 'hr' },
            firstPageMs: 30,
            pages: 2,
            records: 150,
          },
        ],
      });
      port.operationFinished({
        completeness: 'partial',
        sources: [
          {
            sourceId: 'hr',
            source: { source_type: 'fixture', source_identity: 'hr' },
            firstPageMs: 20,
            pages: 1,
            records: 5,
            error: 'source_timeout',
          },
        ],
      });
    });
    // Assess
    const tally = record?.sources.get('hr');
    assert.deepEqual(
      {
        firstPageMs: tally?.firstPageMs,
        pages: tally?.pages,
        records: tally?.records,
        errors: tally?.errors,
        deadlineHits: tally?.deadlineHits,
        type: tally?.type,
      },
      {
        firstPageMs: 20,
        pages: 3,
        records: 155,
        errors: ['source_timeout'],
        deadlineHits: 1,
        type: 'fixture',
      },
    );
    assert.equal(record?.completeness, 'partial');
  });

  it('records nothing outside an invocation', () => {
    const logger = createPowertoolsLogger({ component: 'test' });
    const t = new InvocationTelemetry({
      logger,
      metrics: new Metrics({ namespace: 'Test', serviceName: 'test' }),
    });
    assert.doesNotThrow(() =>
      operationTelemetry(t).operationFinished({ completeness: 'error', sources: [] }),
    );
    assert.equal(t.call, undefined);
  });
});
