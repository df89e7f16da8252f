/**
 * What an operator gets from one federated read, and what they must never get. The whole local stack as
 * `npm start` runs it (the bundled platform entry under AWS's runtime client, the REST v1 front, DynamoDB
 * Local, the local SCIM server, slapd when installed, the Entra ID replay with its token server), every line
 * the function printed captured. One streamed `list_people` over the People Directory context (every demo
 * source), then:
 * - each EMF line conforms to CloudWatch's embedded metric format, and the read's metrics are all there;
 * - no line holds a bearer token (or a segment of one), a source credential (SCIM token, LDAP bind
 *   password, Entra client secret), the request-state secret, or any email, phone number or name the read
 *   returned; and the scan finds such a value when one is planted in a real line.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { CACHE_METRICS } from '../../lib/index.js';
import { startStack } from '../../local/stack.js';
import type { LocalStack } from '../../local/stack.js';
import { postStateless, statelessMeta } from '../helpers/bos-stack.js';
import { messagesOf, pairKey, parseSse } from '../helpers/bos-stream.js';
import { emfBlobs, emfMetrics, emfProblems } from '../helpers/emf.js';
import type { EmfMetric } from '../helpers/emf.js';
import { freePort } from '../helpers/free-port.js';
import { javaSuite } from '../helpers/java.js';
import { findLeaks, MIN_NEEDLE_LENGTH, tokenNeedles } from '../helpers/leak-scanner.js';
import type { Needle } from '../helpers/leak-scanner.js';

const REQUEST_STATE_SECRET = `rss-${randomBytes(24).toString('hex')}`;

/** Per source of a streamed read (`type/identity`): its pages, records, page origins and error code. */
function sourcesRead(
  text: string,
): Map<string, { type: string; pages: number; records: number; origins: Set<string>; error?: string }> {
  const read = new Map<
    string,
    { type: string; pages: number; records: number; origins: Set<string>; error?: string }
  >();
  for (const message of messagesOf(parseSse(text))) {
    const params = message.params;
    if (message.method !== 'notifications/bos/source_result' || params === undefined) continue;
    const key = pairKey(params.source);
    const source = read.get(key) ?? {
      type: params.source.source_type,
      pages: 0,
      records: 0,
      origins: new Set(),
    };
    read.set(key, source);
    if (params.status === 'page') {
      source.pages += 1;
      source.records += params.records.length;
      const origin = (params as { _meta?: Record<string, unknown> })._meta?.['bos/page_origin'];
      source.origins.add(typeof origin === 'string' ? origin : 'live');
    } else if (params.status === 'error') source.error = params.error?.code ?? 'unknown';
  }
  return read;
}

/** Every email, phone number and display name in a response body (pages and final result). */
function personalValues(text: string): Needle[] {
  const found = new Map<string, string>();
  for (const match of text.matchAll(/\\?"(email|phone|display_name)\\?":\s*\\?"([^"\\]+)\\?"/g)) {
    const [, field, value] = match;
    if (field !== undefined && value !== undefined && value.length >= MIN_NEEDLE_LENGTH)
      found.set(value, `${field} ${found.size + 1}`);
  }
  return [...found].map(([value, name]) => ({ name, value }));
}

describe('telemetry of a federated read through the local stack', javaSuite(600_000), () => {
  let stack: LocalStack;
  /** Every line the function printed, stdout and stderr, JSON or not. */
  const lines: string[] = [];
  let body = '';
  let linesAfterRead = 0;
  /** The execution environments (pool slots) that printed metrics. */
  const emfSlots = new Set<number>();
  const waiters = new Set<{ done: () => boolean }>();
  /** Resolves once `ready()` holds for the lines printed so far (checked as each line arrives). */
  const untilLines = (ready: () => boolean, timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`the function's lines never met the condition (${lines.length} lines)`));
      }, timeoutMs);
      const waiter = {
        done: () => {
          if (!ready()) return false;
          clearTimeout(timer);
          resolve();
          return true;
        },
      };
      if (!waiter.done()) waiters.add(waiter);
    });
  const published = (name: string): EmfMetric[] =>
    emfBlobs(lines)
      .flatMap((blob) => emfMetrics(blob))
      .filter((m) => m.name === name);

  before(async () => {
    const port = await freePort();
    stack = await startStack({
      port,
      providers: true,
      // As `npm start` runs it: acme-scim and acme-entra are synced before the stack is ready, so their reads
      // answer from the baseline and the sync invocation's own metrics are printed too.
      cacheSync: true,
      bundleDir: '.local/test-bundles/telemetry-output',
      poolSize: 1,
      timeoutSeconds: 60,
      env: { MCP_REQUEST_STATE_SECRET: REQUEST_STATE_SECRET, BOS_FIXTURE_LATENCY_SCALE: '0.25' },
      onFunctionLog: ({ line, slot }) => {
        lines.push(line);
        if (line.includes('"_aws"')) emfSlots.add(slot);
        for (const waiter of [...waiters]) if (waiter.done()) waiters.delete(waiter);
      },
    });
    const token = stack.devTokens?.['dev-user'] ?? assert.fail('the stack minted no dev-user token');
    const response = await postStateless(stack.url, {
      token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'bos_execute',
          arguments: { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} },
          _meta: statelessMeta(true),
        },
      },
    });
    body = await response.text();
    assert.match(
      response.headers.get('content-type') ?? '',
      /^text\/event-stream/,
      `${response.status} ${body.slice(0, 300)}`,
    );
    // The call's metrics are published when the invocation ends, just after the body, and reach this process
    // through the runtime's output pipe, a line at a time. `ToolCalls` is printed before the per-source lines,
    // so it is no sign that they arrived: wait for one per-source line for each source the stream delivered,
    // and one per error code for each source that failed in it.
    const read = sourcesRead(body);
    await untilLines(
      () =>
        published('SourcePages').length >= read.size &&
        published('SourceErrors').filter((m) => m.dimensions['error.type'] !== undefined).length >=
          [...read.values()].filter((s) => s.error !== undefined).length,
      30_000,
    );
    linesAfterRead = lines.length;
  });

  after(async () => {
    await stack?.close();
  });

  const metrics = (): EmfMetric[] => emfBlobs(lines).flatMap((blob) => emfMetrics(blob));
  const find = (name: string, dimensions: Record<string, string>) =>
    metrics().filter(
      (m) => m.name === name && Object.entries(dimensions).every(([k, v]) => m.dimensions[k] === v),
    );

  it('answers the read with pages and a final result (so the output below is of a real read)', () => {
    assert.match(body, /notifications\/bos\/source_result/);
    assert.match(body, /"resultType":"complete"/);
    assert.ok(linesAfterRead > 0, 'the function printed lines');
  });

  it('prints only EMF lines that conform to the specification', (t) => {
    const blobs = emfBlobs(lines);
    assert.ok(blobs.length >= 5, `${blobs.length} EMF lines`);
    const problems = blobs.flatMap((blob, i) => emfProblems(blob).map((p) => `EMF line ${i + 1}: ${p}`));
    assert.deepEqual(problems, []);
    t.diagnostic(`${blobs.length} EMF lines, ${metrics().length} metrics, all conforming`);
  });

  it('publishes the call, the tool call and every source of the read under the shared names', () => {
    const all = metrics();
    assert.ok(
      all.every((m) => m.namespace === 'BosMcp' && m.dimensions['service'] === 'bos-mcp'),
      'namespace BosMcp, service bos-mcp',
    );
    // One per execution environment that ran an invocation: the read usually reuses the sync's environment,
    // but one still finishing the sync when the read arrives makes the pool start another, as Lambda would.
    assert.equal(find('ColdStart', {}).length, emfSlots.size, 'one cold start per environment');
    const call = { 'mcp.method.name': 'tools/call' };
    assert.equal(find('CallDuration', call).length, 1);
    assert.equal(find('Calls', { ...call, 'rpc.response.status_code': '200' }).length, 1);
    const tool = find('ToolCalls', { 'gen_ai.tool.name': 'bos_execute' });
    assert.equal(tool.length, 1);
    assert.match(tool[0]?.dimensions['bos.completeness'] ?? '', /^(complete|partial)$/);
    // Every source of the People Directory context, by adapter kind and id.
    const sources = new Map(
      find('SourcePages', {}).map((m) => [m.dimensions['source.id'], m.dimensions['source.type']]),
    );
    assert.equal(sources.get('acme-hr'), 'fixture');
    assert.equal(sources.get('acme-scim'), 'scim');
    assert.equal(sources.get('acme-entra'), 'entra');
    for (const name of ['SourceRecords', 'SourceErrors', 'SourceRateLimitWait', 'SourceDeadlineHits'])
      assert.equal(find(name, { 'source.id': 'acme-scim' }).length, 1, name);
    const [records] = find('SourceRecords', { 'source.id': 'acme-scim' });
    assert.ok(typeof records?.value === 'number' && records.value > 0, 'acme-scim delivered records');
    assert.equal(find('SourceFirstPageTime', { 'source.id': 'acme-scim' }).length, 1);
  });

  it('publishes a source answered from its baseline like a live one: its pages and records as the client got them', () => {
    const read = sourcesRead(body);
    const scim = [...read.values()].find((s) => s.type === 'scim');
    assert.ok(scim !== undefined, 'acme-scim was read');
    assert.ok(
      scim.origins.has('cache_baseline'),
      `acme-scim pages came from ${[...scim.origins].join(', ')}`,
    );
    for (const source of read.values()) {
      const where = { 'source.type': source.type };
      // A real adapter's records carry its kind as their source type, and the context reads one source of
      // each; the fixture sources' types are their own (`hr`, `archive`, …), their metrics say `fixture`.
      if (!['scim', 'ldap', 'entra'].includes(source.type)) continue;
      assert.deepEqual(
        ['SourcePages', 'SourceRecords'].map((name) => find(name, where).map((m) => m.value)),
        [[source.pages], [source.records]],
        `${source.type}: pages and records as streamed`,
      );
    }
    assert.ok(scim.records > 0, 'acme-scim delivered records');
  });

  it('publishes the sync invocation’s per-source metrics under the names the CDK dashboard and alarm read', () => {
    const key = (name: string, dimensions: readonly string[]) =>
      `${name}{${[...dimensions].sort().join(',')}}`;
    const sync = metrics().filter((m) => m.name.startsWith('Cache'));
    const cached = new Set(sync.map((m) => m.dimensions['source.id']).filter((id) => id !== undefined));
    assert.deepEqual([...cached].sort(), ['acme-entra', 'acme-scim']);
    assert.deepEqual(
      [...new Set(sync.map((m) => key(m.name, Object.keys(m.dimensions))))].sort(),
      Object.values(CACHE_METRICS)
        .map((m) => key(m.name, [...m.dimensions, 'service']))
        .sort(),
    );
    assert.deepEqual(
      find('CacheSyncFailures', {}).map((m) => m.value),
      [0, 0],
    );
  });

  it('writes one call line with the OpenTelemetry MCP keys and a hashed session, never a raw one', () => {
    const calls = lines.filter((l) => l.includes('"message":"mcp.call"'));
    const line = calls
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((c) => c['gen_ai.tool.name']);
    assert.ok(line !== undefined, 'a call line for the tool call');
    assert.equal(line['mcp.method.name'], 'tools/call');
    assert.equal(line['mcp.protocol.version'], '2026-07-28');
    assert.equal(line['rpc.response.status_code'], '200');
    assert.equal(typeof line['duration_ms'], 'number');
    assert.ok(
      lines.every((l) => !l.includes('"msg"')),
      'one message key: "message"',
    );
  });

  /** Tokens and their segments, source credentials, the request-state secret, personal values read. */
  function needles(): Needle[] {
    const tokens = Object.entries(stack.devTokens ?? {}).flatMap(([user, token]) =>
      tokenNeedles(`${user} token`, token),
    );
    const secrets = Object.entries(stack.environment)
      .filter(([name]) => name.startsWith('BOS_SECRET_'))
      .map(([name, value]) => ({ name, value }));
    const names = secrets.map((s) => s.name);
    for (const expected of ['BOS_SECRET_ACME_SCIM_TOKEN', 'BOS_SECRET_ACME_ENTRA_CLIENT_SECRET'])
      assert.ok(names.includes(expected), `${expected} reached the function`);
    const people = personalValues(body);
    assert.ok(
      people.some((p) => p.name.startsWith('email')),
      'the read returned emails',
    );
    assert.ok(
      people.some((p) => p.name.startsWith('phone')),
      'the read returned phone numbers',
    );
    return [
      ...tokens,
      ...secrets,
      { name: 'MCP_REQUEST_STATE_SECRET', value: REQUEST_STATE_SECRET },
      ...people,
    ];
  }

  it('prints no token, credential, secret, email, phone number or name in any line or metric', (t) => {
    const searched = needles();
    const leaks = findLeaks(
      lines.map((text, index) => ({ where: `function line ${index + 1}`, text })),
      searched,
    );
    t.diagnostic(
      `${lines.length} lines searched for ${searched.length} values ` +
        `(${searched.filter((n) => /^(email|phone|display_name) /.test(n.name)).length} personal); ` +
        `${leaks.length} found`,
    );
    assert.deepEqual(
      leaks.slice(0, 5).map((l) => `${l.needle} in ${l.where}: ${l.excerpt}`),
      [],
    );
  });

  it('has a scan that would catch a leak: values planted in a real EMF line and a real log line are found', () => {
    // Prepare
    const emf =
      lines.find((l) => l.includes('"SourcePages"') && l.includes('"acme-scim"')) ??
      assert.fail('no acme-scim EMF line');
    const log = lines.find((l) => l.includes('"message":"mcp.call"')) ?? assert.fail('no call line');
    const searched = needles();
    const email = searched.find((n) => n.name.startsWith('email')) ?? assert.fail('no email');
    const scim =
      searched.find((n) => n.name === 'BOS_SECRET_ACME_SCIM_TOKEN') ?? assert.fail('no SCIM token');
    const planted = [
      { where: 'planted EMF', text: emf.replace('"acme-scim"', JSON.stringify(email.value)) },
      { where: 'planted log', text: log.replace('"mcp.call"', JSON.stringify(`mcp.call ${scim.value}`)) },
      { where: 'clean', text: log },
    ];
    // Act
    const leaks = findLeaks(planted, searched);
    // Assess
    assert.deepEqual(
      leaks.map((l) => [l.needle, l.where]),
      [
        [email.name, 'planted EMF'],
        ['BOS_SECRET_ACME_SCIM_TOKEN', 'planted log'],
      ],
    );
    assert.deepEqual(emfProblems(JSON.parse(emf)), [], 'the EMF line itself conforms');
  });
});
