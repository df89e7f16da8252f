/**
 * The `fixture` adapter kind built from a directory source definition: option mapping and validation,
 * the demo document's parity with the `demo` preset, the latency scale, and credentials resolved only
 * inside a read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_DIRECTORY_DOCUMENT } from '../../../lambda/bos/index.js';
import { runFederation } from '../../../lambda/federation/index.js';
import type { FederationEvent, RawRecord, SourceAdapter } from '../../../lambda/federation/index.js';
import {
  createFixtureSourceFactory,
  DEMO_SOURCE_OPTIONS,
  fixtureOptionsFromDefinition,
  SourceConfigError,
} from '../../../lambda/sources/index.js';
import type { ProviderCredential, SourceSpec } from '../../../lambda/sources/index.js';

const spec = (overrides: Partial<SourceSpec> = {}): SourceSpec => ({
  source_id: 'acme-test',
  adapter: 'fixture',
  options: { source_type: 'hr', record_count: 3 },
  ...overrides,
});

/** A credential whose resolutions are counted; `value` undefined = resolution fails. */
function recordingCredential(value: string | undefined, name = 'TEST_TOKEN') {
  const calls: string[] = [];
  const credential: ProviderCredential = {
    name,
    value: () => {
      calls.push(name);
      return value === undefined
        ? Promise.reject(new Error(`credential ${name} is not configured`))
        : Promise.resolve(value);
    },
  };
  return { credential, calls };
}

async function readAll(adapter: SourceAdapter): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  const options = { signal: new AbortController().signal, deadline: Date.now() + 5000 };
  for await (const page of adapter.read({ operation: 'list_people' }, options)) records.push(...page);
  return records;
}

async function terminalOf(adapter: SourceAdapter): Promise<string | undefined> {
  const events: FederationEvent[] = [];
  await runFederation({
    sources: [adapter],
    query: { operation: 'list_people' },
    deadline: Date.now() + 5000,
    onEvent: (e) => void events.push(e),
  });
  const terminal = events.find((e) => e.type !== 'page');
  return terminal?.type === 'error' ? terminal.code : terminal?.type;
}

describe('fixture options from a source definition', () => {
  it('maps the demo document onto exactly the demo preset, crm needing its credential', () => {
    // Act
    const mapped = DEMO_DIRECTORY_DOCUMENT.sources.map((d) =>
      fixtureOptionsFromDefinition(d.source_id, d.options),
    );
    // Assess
    const expected = DEMO_SOURCE_OPTIONS.map((o) =>
      o.source_identity === 'acme-crm' ? { ...o, requiresCredential: true } : o,
    );
    assert.deepEqual(mapped, expected);
    assert.deepEqual(
      DEMO_DIRECTORY_DOCUMENT.sources.filter((d) => d.credential_ref !== undefined).map((d) => d.source_id),
      ['acme-crm'],
    );
  });

  it('maps every option, the source id becoming the source identity', () => {
    const options = fixtureOptionsFromDefinition('acme-x', {
      source_type: 'crm',
      record_count: 10,
      provider_page_size: 4,
      latency_ms: 5,
      seed: 42,
      observed_at: '2026-01-02T03:04:05Z',
      timeout_ms: 900,
      overlaps: [{ with: 'acme-hr', with_record_count: 20, by: 'phone', share: 0.5 }],
      failure: { mode: 'error', code: 'rate_limited', after_pages: 2 },
      requires_credential: true,
    });
    assert.deepEqual(options, {
      source_type: 'crm',
      source_identity: 'acme-x',
      recordCount: 10,
      providerPageSize: 4,
      latencyMs: 5,
      seed: 42,
      observedAt: '2026-01-02T03:04:05Z',
      timeoutMs: 900,
      overlaps: [{ with: 'acme-hr', withRecordCount: 20, by: 'phone', share: 0.5 }],
      failure: { mode: 'error', code: 'rate_limited', afterPages: 2 },
      requiresCredential: true,
    });
  });

  it('reports every problem of a bad definition at once, each naming its option', () => {
    // Act
    let error: unknown;
    try {
      fixtureOptionsFromDefinition('acme-bad', {
        record_count: -1,
        latency_ms: 'slow',
        colour: 'blue',
        overlaps: [{ with: 'acme-hr', by: 'fax', share: 2 }],
        failure: { mode: 'error' },
        requires_credential: 'yes',
      });
    } catch (caught) {
      error = caught;
    }
    // Assess
    assert.ok(error instanceof SourceConfigError);
    assert.equal(error.code, 'invalid_options');
    assert.equal(error.sourceId, 'acme-bad');
    const expected = [
      'options.colour is not a fixture option',
      'options.record_count must be an integer from 0 to 100000',
      'options.latency_ms must be an integer from 0 to 600000',
      'options.overlaps[0].by must be "email" or "phone"',
      'options.overlaps[0].share must be a number from 0 to 1',
      'options.overlaps[0].with_record_count is required',
      'options.failure.code must be one of',
      'options.requires_credential must be a boolean',
      'options.source_type is required',
    ];
    for (const problem of expected)
      assert.ok(
        error.problems.some((p) => p.startsWith(problem)),
        `${problem} in ${error.problems.join(' | ')}`,
      );
    assert.equal(error.problems.length, expected.length, error.problems.join(' | '));
    assert.match(error.message, /^source acme-bad: /);
  });

  it('refuses a failure mode it does not know and a code on a mode that takes none', () => {
    assert.throws(
      () =>
        fixtureOptionsFromDefinition('a', {
          source_type: 'hr',
          record_count: 1,
          failure: { mode: 'explode' },
        }),
      (e: unknown) => e instanceof SourceConfigError && /failure\.mode must be one of/.test(e.message),
    );
    assert.throws(
      () =>
        fixtureOptionsFromDefinition('a', {
          source_type: 'hr',
          record_count: 1,
          failure: { mode: 'hang', code: 'rate_limited' },
        }),
      (e: unknown) => e instanceof SourceConfigError && /only for mode "error"/.test(e.message),
    );
  });
});

describe('the fixture source factory', () => {
  it('builds an adapter whose identity is the source id and whose records follow the options', async () => {
    const adapter = createFixtureSourceFactory()(spec());
    assert.deepEqual(adapter.source, { source_type: 'hr', source_identity: 'acme-test' });
    const records = await readAll(adapter);
    assert.equal(records.length, 3);
    assert.ok(records.every((r) => r.source_identity === 'acme-test'));
  });

  it('refuses requires_credential on a definition that names no credential_ref', () => {
    assert.throws(
      () =>
        createFixtureSourceFactory()(
          spec({ options: { source_type: 'hr', record_count: 1, requires_credential: true } }),
        ),
      (e: unknown) =>
        e instanceof SourceConfigError && /needs the definition to name a credential_ref/.test(e.message),
    );
  });

  it('multiplies the per-page latency by the latency scale', async (t) => {
    // Prepare: mocked timers, so the test watches the adapter's wait without measuring time.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const adapter = createFixtureSourceFactory({ latencyScale: 0.25 })(
      spec({ options: { source_type: 'hr', record_count: 1, latency_ms: 40 } }),
    );
    const read = { signal: new AbortController().signal, deadline: Number.MAX_SAFE_INTEGER };
    const pages = adapter.read({ operation: 'list_people' }, read);
    const iterator = pages[Symbol.asyncIterator]();
    let settled = false;
    const first = iterator.next().then((step) => {
      settled = true;
      return step;
    });
    // Act + Assess: not before 10 ms (40 × 0.25), at 10 ms.
    await flush();
    t.mock.timers.tick(9);
    await flush();
    assert.equal(settled, false);
    t.mock.timers.tick(1);
    await flush();
    assert.equal(settled, true);
    assert.equal((await first).done, false);
  });
});

describe('a credential resolved inside the read', () => {
  const needsCredential = { source_type: 'crm', record_count: 2, requires_credential: true };

  it('is not resolved when the adapter is built, and resolved once by each read', async () => {
    // Prepare
    const { credential, calls } = recordingCredential('s3cret-value');
    // Act
    const adapter = createFixtureSourceFactory()(spec({ options: needsCredential, credential }));
    // Assess
    assert.deepEqual(calls, [], 'building never resolves');
    assert.equal((await readAll(adapter)).length, 2);
    assert.deepEqual(calls, ['TEST_TOKEN']);
    await readAll(adapter);
    assert.deepEqual(calls, ['TEST_TOKEN', 'TEST_TOKEN']);
  });

  it('is never resolved by a source that does not require it', async () => {
    const { credential, calls } = recordingCredential('s3cret-value');
    const adapter = createFixtureSourceFactory()(spec({ credential }));
    await readAll(adapter);
    assert.deepEqual(calls, []);
  });

  it('ends the source with provider_authorization_required when resolution fails or gives nothing', async () => {
    const failing = recordingCredential(undefined);
    const empty = recordingCredential('');
    for (const { credential, calls } of [failing, empty]) {
      const adapter = createFixtureSourceFactory()(spec({ options: needsCredential, credential }));
      assert.equal(await terminalOf(adapter), 'provider_authorization_required');
      assert.equal(calls.length, 1);
    }
  });
});

/** Lets pending promise callbacks run (mocked timers do not advance the microtask queue). */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
