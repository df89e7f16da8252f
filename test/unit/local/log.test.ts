/**
 * The local stack's own log lines have the function's shape (Powertools Logger, what CloudWatch holds when
 * deployed): upper-case level names and an ISO `timestamp`, so one query or filter reads both.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPowertoolsLogger, loggerPort } from '../../../lambda/aws/index.js';
import { log } from '../../../local/log.js';

/** The lines `act` writes to `stream`, parsed. */
function captured(stream: NodeJS.WriteStream, act: () => void): Array<Record<string, unknown>> {
  const chunks: string[] = [];
  const write = stream.write.bind(stream);
  stream.write = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  try {
    act();
  } finally {
    stream.write = write;
  }
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('local stack log lines', () => {
  it('use the level names and time key of the function’s Powertools lines', () => {
    const [local] = captured(process.stderr, () =>
      log('warn', 'slapd is not installed', { source: 'acme-ldap' }),
    );
    // Powertools writes a warning through its console's stderr.
    const [deployed] = captured(process.stderr, () =>
      loggerPort(createPowertoolsLogger({ serviceName: 'bos-mcp' })).warn('bos.sources.provider_failed', {}),
    );
    assert.equal(deployed?.['level'], 'WARN');
    assert.equal(local?.['level'], deployed?.['level']);
    assert.ok(typeof deployed?.['timestamp'] === 'string');
    assert.match(String(local?.['timestamp']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal('time' in (local ?? {}), false);
    assert.deepEqual(Object.keys(local ?? {}).slice(0, 3), ['level', 'message', 'timestamp']);
    assert.equal(local?.['source'], 'acme-ldap');
  });

  it('names every level as Powertools does', () => {
    const levels = captured(process.stderr, () => {
      log('debug', 'd');
      log('info', 'i');
      log('error', 'e');
    }).map((line) => line['level']);
    assert.deepEqual(levels, ['DEBUG', 'INFO', 'ERROR']);
  });
});
