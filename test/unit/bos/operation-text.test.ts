/**
 * One rule for query text and instants, in the operations' input schemas (so `bos_execute` and the direct
 * tools refuse alike, before any source sees the value): text with control characters is -32602, since
 * sources disagree on what a NUL means (slapd ends the assertion there and matches everything); a date
 * that names no real instant is -32602, since sources would read it as "no filter".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createArgumentValidator, listPeople, searchPeople } from '../../../lambda/bos/operations/index.js';
import { InvalidParamsError } from '../../../lambda/mcp/errors.js';

describe('query text and instants', () => {
  const validate = createArgumentValidator();
  const refused = (promise: Promise<unknown>) =>
    assert.rejects(promise, (error) => error instanceof InvalidParamsError && error.code === -32602);

  it('refuses search text with NUL or any other control character', async () => {
    for (const query of [
      '\u0000zzqq',
      'zz\u0000',
      'a\u0001b',
      'tab\there',
      'line\nbreak',
      'del\u007f',
      'c1\u0085',
    ]) {
      await refused(validate(searchPeople.inputSchema, { query }));
    }
  });

  it('refuses search text that is only white space, which an adapter would trim to "everyone"', async () => {
    for (const query of [' ', '   ', '\u00a0', '\u3000 ']) {
      await refused(validate(searchPeople.inputSchema, { query }));
    }
  });

  it('keeps ordinary text, spaces and non-ASCII letters', async () => {
    for (const query of ['ada', 'Ada Lovelace', 'ÉLODIE', '山田', 'o’brien', '*)(uid=*']) {
      await validate(searchPeople.inputSchema, { query });
    }
  });

  it('refuses an updated_since that is no real instant', async () => {
    for (const updated_since of [
      '2026-13-45T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T00:00:00+24:00',
    ]) {
      await refused(validate(listPeople.inputSchema, { updated_since }));
    }
  });

  it('accepts real instants, leap days included, and each one parses to a time', async () => {
    for (const updated_since of [
      '2024-02-29T00:00:00Z',
      '2000-02-29T12:30:45.123Z',
      '2026-12-31T23:59:59+14:00',
      '2026-10-08T12:00:00-02:30',
    ]) {
      await validate(listPeople.inputSchema, { updated_since });
      assert.ok(Number.isFinite(Date.parse(updated_since)), updated_since);
    }
  });
});
