/**
 * The `Logger` port over Powertools Logger: Powertools' JSON keys, the call site's fields, and the two rules
 * the port adds (an `Error` prints as its class name only; a field named like a Powertools key is kept
 * under `field.<name>`). Lines are captured from the process's stdout and stderr.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPowertoolsLogger, loggerPort } from '../../../../lambda/aws/index.js';

/** Runs `work` with stdout and stderr captured; returns the JSON lines written. */
function capture(work: () => void): Record<string, unknown>[] {
  const originals = [
    process.stdout.write.bind(process.stdout),
    process.stderr.write.bind(process.stderr),
  ] as const;
  let text = '';
  const sink = ((chunk: string | Uint8Array) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = sink;
  process.stderr.write = sink;
  try {
    work();
  } finally {
    process.stdout.write = originals[0];
    process.stderr.write = originals[1];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('Powertools logger port', () => {
  it('writes one JSON line with level, message, timestamp, service, component and the fields', () => {
    // Prepare
    const logger = loggerPort(createPowertoolsLogger({ component: 'test', serviceName: 'svc' }));
    // Act
    const [line] = capture(() => logger.info('bos.operation.finished', { sources: 3 }));
    // Assess
    assert.equal(line?.['level'], 'INFO');
    assert.equal(line?.['message'], 'bos.operation.finished');
    assert.equal(line?.['service'], 'svc');
    assert.equal(line?.['component'], 'test');
    assert.equal(line?.['sources'], 3);
    assert.match(String(line?.['timestamp']), /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(line?.['msg'], undefined);
  });

  it('prints an Error in the fields as its class name only: no message, stack or cause', () => {
    // Prepare
    const logger = loggerPort(createPowertoolsLogger({ component: 'test' }));
    const error = new TypeError('token abc.def.ghi rejected by https://idp.example/secret');
    // Act
    const lines = capture(() => logger.error('source failed', { error, nested: { cause: error } }));
    // Assess
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0]?.['error'], { name: 'TypeError' });
    assert.deepEqual(lines[0]?.['nested'], { cause: { name: 'TypeError' } });
    assert.doesNotMatch(JSON.stringify(lines), /abc\.def|idp\.example|at /);
  });

  it("keeps a field named like one of Powertools' keys under field.<name>, without a warning line", () => {
    // Prepare
    const logger = loggerPort(createPowertoolsLogger({ component: 'test' }));
    // Act
    const lines = capture(() =>
      logger.warn('federation.source_failed', { level: 'warn', reason: 'adapter_threw' }),
    );
    // Assess
    assert.equal(lines.length, 1, 'no "reserved key" warning line');
    assert.equal(lines[0]?.['level'], 'WARN');
    assert.equal(lines[0]?.['field.level'], 'warn');
    assert.equal(lines[0]?.['reason'], 'adapter_threw');
  });
});
