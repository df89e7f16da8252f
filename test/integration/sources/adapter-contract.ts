/**
 * The adapter contract every real source adapter passes against its real local provider, read through the
 * real federation engine: paging across provider page boundaries, delivery pages of at most 100, the first
 * delivery page before the provider's last page, each of the five error codes from a real provider
 * behaviour, cancellation on the deadline and on client disconnect, no credential or provider message in
 * any event or log line, and filter-injection attempts answered exactly as the escaped filter matches.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { runFederation } from '../../../lambda/federation/index.js';
import type {
  FederationEvent,
  FederationLogEntry,
  FederationResult,
  SourceAdapter,
  SourceErrorCode,
  SourceQuery,
} from '../../../lambda/federation/index.js';
import type { ProviderLogEntry } from '../../../lambda/sources/index.js';
import type { ProviderPerson } from '../../../local/providers/population.js';

/** How the adapter under test is built. */
export interface AdapterVariant {
  /** A credential the provider refuses. */
  readonly badCredential?: boolean;
  /** Configured so that the provider returns a record from outside the authorized source. */
  readonly foreignRecords?: boolean;
  /** Receives the kernel's log lines. */
  readonly log?: (entry: ProviderLogEntry) => void;
}

/** One adapter kind against its running local provider. */
export interface AdapterHarness {
  /** Why the suite cannot run here (printed, then the tests skip), or undefined. */
  readonly skipReason?: () => string | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
  adapter(variant?: AdapterVariant): SourceAdapter;
  /** Every person the provider serves (the filter oracle). */
  people(): readonly ProviderPerson[];
  /** Records per provider page the adapter asks for. */
  readonly providerPageSize: number;
  /** Holds every provider page after the first until `release` (or answers them slowly, for LDAP). */
  holdLaterPages(): { release(): void; heldSince(): boolean };
  /** Makes the provider answer slower than any deadline the tests use, from its `fromPage`th page. */
  slow(fromPage: number): void;
  /** Makes the provider throttle beyond any budget; undefined when the protocol has no such signal here. */
  throttle?: () => void | Promise<void>;
  /** Why {@link throttle} is missing. */
  readonly throttleSkipReason?: string;
  /** Why the provider cannot be made to return a foreign record (the variant is then not used). */
  readonly foreignRecordsSkipReason?: string;
  /** Takes the provider off the network (connects refused). */
  down(): Promise<void>;
  /** Undoes every switch above. */
  reset(): Promise<void>;
  /** How many provider requests the client closed before they were answered. */
  abortsSeen(): number;
  /** Strings that must never appear in an event or a log line (credentials, provider messages). */
  secrets(): readonly string[];
  /**
   * Whether the provider's search matches `person` for `text` (the filter oracle). Providers differ:
   * Graph and Okta match by prefix. @default name or email contains the text, case-insensitively
   */
  searchMatches?(person: ProviderPerson, text: string): boolean;
}

/** A person whose name carries filter syntax of both protocols. */
export const TRICKY_PERSON: ProviderPerson = {
  id: 'u999001',
  userName: 'zed.ohara.999001@example.com',
  givenName: 'Zed',
  familyName: 'O\'Hara (x*y) "Q" back\\slash',
  displayName: 'Zed O\'Hara (x*y) "Q" back\\slash',
  email: 'zed.ohara.999001@example.com',
  phone: '+19990001000',
  title: 'Analyst',
  department: 'Legal',
  active: true,
  lastModified: '2026-10-01T00:00:00Z',
};

/** Queries that would widen or break an unescaped filter in SCIM or LDAP. */
export const INJECTION_QUERIES = [
  '"',
  '"Q"',
  '*',
  'x*y',
  '(',
  ')',
  '\\',
  'back\\slash',
  '") or (userName pr',
  'a" or displayName pr or "',
  '*)(objectClass=*',
  ')(|(cn=*',
  'zed.ohara.999001@example.com',
];

interface Run {
  readonly events: FederationEvent[];
  readonly logs: (FederationLogEntry | ProviderLogEntry)[];
  readonly result: FederationResult | undefined;
  readonly error: unknown;
  /** When each event arrived (ms since the run started). */
  readonly at: number[];
}

async function federate(
  adapter: SourceAdapter,
  query: SourceQuery,
  extra: { budgetMs?: number; signal?: AbortSignal; logs?: Run['logs'] } = {},
): Promise<Run> {
  const events: FederationEvent[] = [];
  const at: number[] = [];
  const logs = extra.logs ?? [];
  const started = Date.now();
  let result: FederationResult | undefined;
  let error: unknown;
  try {
    result = await runFederation({
      sources: [adapter],
      query,
      pageSize: 100,
      deadline: Date.now() + (extra.budgetMs ?? 10_000),
      ...(extra.signal === undefined ? {} : { signal: extra.signal }),
      onEvent: (event) => {
        events.push(event);
        at.push(Date.now() - started);
      },
      onLog: (entry) => logs.push(entry),
    });
  } catch (caught) {
    error = caught;
  }
  return { events, logs, result, error, at };
}

const terminal = (run: Run) => run.events.find((e) => e.type !== 'page');
const pages = (run: Run) => run.events.filter((e) => e.type === 'page');
const codeOf = (run: Run): SourceErrorCode | undefined => {
  const end = terminal(run);
  return end?.type === 'error' ? end.code : undefined;
};

/** The people the provider's search matches for `text` (by default: name or email contains it). */
function expectedIds(harness: AdapterHarness, text: string): string[] {
  const needle = text.trim().toLowerCase();
  const matches =
    harness.searchMatches?.bind(harness) ??
    ((p: ProviderPerson) =>
      p.displayName.toLowerCase().includes(needle) || p.email.toLowerCase().includes(needle));
  return harness
    .people()
    .filter((p) => matches(p, text))
    .map((p) => p.email)
    .sort();
}

/** Registers the shared suite for one adapter kind. */
export function adapterContract(name: string, harness: AdapterHarness): void {
  describe(`the ${name} adapter contract`, { timeout: 120_000 }, () => {
    const skip = harness.skipReason?.();
    if (skip !== undefined) {
      it(`is skipped: ${skip}`, (t) => {
        process.stdout.write(`# ${name} adapter contract skipped: ${skip}\n`);
        t.skip(skip);
      });
      return;
    }
    before(() => harness.start());
    after(() => harness.stop());
    const list: SourceQuery = { operation: 'list_people' };

    it('reads every person across provider page boundaries in delivery pages of at most 100', async () => {
      await harness.reset();
      const run = await federate(harness.adapter(), list);
      assert.equal(codeOf(run), undefined, 'the source completes');
      const delivered = pages(run).flatMap((p) => (p.type === 'page' ? p.records : []));
      assert.ok(pages(run).every((p) => p.type === 'page' && p.records.length <= 100));
      assert.ok(harness.people().length > harness.providerPageSize, 'more than one provider page');
      const emails = delivered.map((r) => r.email).sort();
      assert.deepEqual(
        emails,
        harness
          .people()
          .map((p) => p.email)
          .sort(),
      );
      assert.equal(new Set(delivered.map((r) => r.sources[0]?.external_id)).size, harness.people().length);
    });

    it('emits the first delivery page before the provider has answered its last page', async () => {
      await harness.reset();
      const hold = harness.holdLaterPages();
      const events: FederationEvent[] = [];
      const done = runFederation({
        sources: [harness.adapter()],
        query: list,
        deadline: Date.now() + 20_000,
        onEvent: (event) => void events.push(event),
      });
      const until = Date.now() + 10_000;
      while (events.length === 0 && Date.now() < until) await delay(10);
      assert.equal(events[0]?.type, 'page', 'a page arrived while later provider pages are held');
      // The next page's request may still be on its way to the provider: give it a moment to arrive.
      const asked = Date.now() + 2000;
      while (!hold.heldSince() && Date.now() < asked) await delay(10);
      assert.ok(hold.heldSince(), 'the provider was still holding a later page');
      hold.release();
      const result = await done;
      assert.equal(result.metadata.completeness, 'complete');
    });

    it('ends with provider_authorization_required when the provider refuses the credential', async () => {
      await harness.reset();
      const run = await federate(harness.adapter({ badCredential: true }), list);
      assert.equal(codeOf(run), 'provider_authorization_required');
      assert.equal(pages(run).length, 0);
    });

    it('ends with rate_limited when the provider throttles beyond the budget', async (t) => {
      if (harness.throttle === undefined) {
        const reason = harness.throttleSkipReason ?? 'no throttling signal';
        process.stdout.write(`# ${name}: rate_limited case skipped: ${reason}\n`);
        t.skip(reason);
        return;
      }
      await harness.reset();
      await harness.throttle();
      const started = Date.now();
      const run = await federate(harness.adapter(), list, { budgetMs: 5000 });
      assert.equal(codeOf(run), 'rate_limited');
      assert.ok(Date.now() - started < 4000, 'no wait that cannot fit the budget');
    });

    it('ends with source_unavailable when the provider is down', async () => {
      await harness.reset();
      await harness.down();
      const run = await federate(harness.adapter(), list);
      assert.equal(codeOf(run), 'source_unavailable');
      await harness.reset();
    });

    it('ends with source_timeout at the deadline, keeping the pages it delivered, and aborts the request', async () => {
      await harness.reset();
      harness.slow(2);
      const abortsBefore = harness.abortsSeen();
      const run = await federate(harness.adapter(), list, { budgetMs: 2500 });
      assert.equal(codeOf(run), 'source_timeout');
      assert.ok(pages(run).length >= 1, 'the first page was delivered before the provider slowed down');
      assert.ok(run.result !== undefined && run.result.records.length >= 1, 'the final result keeps them');
      await delay(300);
      assert.ok(harness.abortsSeen() > abortsBefore, 'the provider saw the request abandoned');
    });

    it('stops reading when the client disconnects, and the provider sees the request aborted', async () => {
      await harness.reset();
      harness.slow(1);
      const abortsBefore = harness.abortsSeen();
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException('client went away', 'AbortError')), 400);
      const run = await federate(harness.adapter(), list, { signal: controller.signal });
      assert.equal((run.error as { code?: string } | undefined)?.code, 'operation_aborted');
      await delay(300);
      assert.ok(harness.abortsSeen() > abortsBefore, 'the provider saw the request abandoned');
    });

    it('ends with source_identity_mismatch for a record outside the authorized source, publishing none', async (t) => {
      if (harness.foreignRecordsSkipReason !== undefined) {
        process.stdout.write(
          `# ${name}: source_identity_mismatch case skipped: ${harness.foreignRecordsSkipReason}\n`,
        );
        t.skip(harness.foreignRecordsSkipReason);
        return;
      }
      await harness.reset();
      const run = await federate(harness.adapter({ foreignRecords: true }), list);
      assert.equal(codeOf(run), 'source_identity_mismatch');
      assert.equal(pages(run).length, 0);
    });

    it('puts no credential or provider message in any event or log line', async () => {
      await harness.reset();
      const logs: Run['logs'] = [];
      const log = (entry: ProviderLogEntry) => logs.push(entry);
      const runs = [await federate(harness.adapter({ badCredential: true, log }), list, { logs })];
      if (harness.foreignRecordsSkipReason === undefined)
        runs.push(await federate(harness.adapter({ foreignRecords: true, log }), list, { logs }));
      if (harness.throttle !== undefined) {
        await harness.throttle();
        runs.push(await federate(harness.adapter({ log }), list, { logs, budgetMs: 3000 }));
        await harness.reset();
      }
      await harness.down();
      runs.push(await federate(harness.adapter({ log }), list, { logs }));
      await harness.reset();
      const text = JSON.stringify([runs.map((r) => [r.events, r.result]), logs]);
      for (const secret of harness.secrets())
        assert.ok(!text.includes(secret), `no "${secret.slice(0, 4)}…" leaked`);
      assert.ok(
        logs.some((l) => 'code' in l && l.code !== undefined),
        'failures were logged, by code',
      );
    });

    it('answers filter-injection attempts with exactly what the escaped filter matches', async () => {
      await harness.reset();
      for (const text of INJECTION_QUERIES) {
        const run = await federate(harness.adapter(), { operation: 'search_people', query: text });
        assert.equal(codeOf(run), undefined, `query ${JSON.stringify(text)} completes`);
        const got = (run.result?.records ?? []).map((r) => r.email ?? '').sort();
        assert.deepEqual(got, expectedIds(harness, text), `query ${JSON.stringify(text)}`);
      }
    });
  });
}
