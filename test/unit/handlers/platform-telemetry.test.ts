/**
 * The platform entry's telemetry in process: a streamed federated read through the deployed handler (real
 * `@middy/core` streamify mode, fake `awslambda` global, the demo directory's fixture sources, a local
 * issuer), with its log and EMF lines captured. Its EMF lines must conform to the format and carry the call,
 * tool and per-source metrics; its call line the OpenTelemetry MCP keys, the session only as a digest.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { sessionDigest } from '../../../lambda/aws/index.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../../lambda/bos/index.js';
import { startDevIssuer } from '../../../local/dev-auth/index.js';
import type { RunningDevIssuer } from '../../../local/dev-auth/index.js';
import { emfBlobs, emfMetrics, emfProblems } from '../../helpers/emf.js';
import { linesAt, withLogLines } from '../../helpers/log-lines.js';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import { lambdaContext, mcpPostEvent } from '../../helpers/rest-events.js';
import { METRICS_NAMESPACE, PLATFORM_METRICS } from '../../../lib/constructs/platform-metrics.js';

type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: FakeResponseStream,
  context: Context,
) => Promise<void>;

const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
const ENV = ['MCP_ENDPOINT', 'AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'BOS_FIXTURE_LATENCY_SCALE'];

describe('platform entry telemetry (in process)', () => {
  let restore: () => void = () => undefined;
  let handler: StreamingHandler;
  let issuer: RunningDevIssuer;
  const saved = new Map<string, string | undefined>();
  let lines: string[] = [];
  let body = '';

  before(async () => {
    for (const name of ENV) saved.set(name, process.env[name]);
    issuer = await startDevIssuer({ audience: ENDPOINT });
    Object.assign(process.env, {
      MCP_ENDPOINT: ENDPOINT,
      AUTH_ISSUER: issuer.issuer,
      AUTH_AUDIENCE: issuer.audience,
      AUTH_JWKS_URL: issuer.jwksUrl,
      BOS_FIXTURE_LATENCY_SCALE: '0',
    });
    restore = installFakeAwsLambda();
    // A module instance of this file's own: the unit suite shares one process, and another file may have
    // loaded the entry under another environment (the entry composes from the environment at load).
    const entry: unknown = await import(`../../../lambda/handlers/platform.js?from=${import.meta.url}`);
    ({ handler } = entry as { handler: StreamingHandler });
    const token = issuer.tokens['dev-user'];
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'bos_execute',
        arguments: { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'list_people', arguments: {} },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { experimental: { 'bos/source-results/v1': {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'telemetry-test', version: '1' },
        },
      },
    };
    ({ lines } = await withLogLines(async () => {
      const stream = new FakeResponseStream();
      await handler(
        mcpPostEvent(call, {
          Authorization: `Bearer ${token}`,
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'bos_execute',
        }),
        stream,
        lambdaContext({ awsRequestId: 'telemetry-1' }),
      );
      body = parseStreamedResponse(stream.bytes()).body;
    }));
  });

  after(async () => {
    restore();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await issuer?.close();
  });

  const metrics = () => emfBlobs(lines).flatMap((blob) => emfMetrics(blob));

  it('streams the read to its final result', () => {
    assert.match(body, /notifications\/bos\/source_result/);
    assert.match(body, /"resultType":"complete"/);
  });

  it('prints EMF lines that conform to the format, every one after the body ended', () => {
    const blobs = emfBlobs(lines);
    assert.ok(blobs.length >= 4, `${blobs.length} EMF lines`);
    assert.deepEqual(
      blobs.flatMap((blob) => emfProblems(blob)),
      [],
    );
  });

  it('counts the call by method and status, the tool call by completeness, and each source', () => {
    const named = (name: string) => metrics().filter((m) => m.name === name);
    assert.deepEqual(
      named('Calls').map((m) => m.dimensions),
      [{ service: 'bos-mcp', 'mcp.method.name': 'tools/call', 'rpc.response.status_code': '200' }],
    );
    assert.deepEqual(
      named('ToolCalls').map((m) => m.dimensions),
      [{ service: 'bos-mcp', 'gen_ai.tool.name': 'bos_execute', 'bos.completeness': 'partial' }],
      'acme-legacy times out in the demo, so the read is partial',
    );
    const pages = named('SourcePages');
    assert.ok(pages.length >= 3, `${pages.length} sources`);
    assert.ok(pages.every((m) => m.dimensions['source.type'] === 'fixture'));
    const timeouts = named('SourceErrors').filter((m) => m.dimensions['error.type'] === 'source_timeout');
    assert.ok(timeouts.length >= 1, 'the timed-out source counted under its code');
    const hits = named('SourceDeadlineHits').find(
      (m) => m.dimensions['source.id'] === timeouts[0]?.dimensions['source.id'],
    );
    assert.equal(hits?.value, 1);
  });

  it('publishes exactly the metric names and dimension sets the CDK dashboard and alarms read', () => {
    const key = (name: string, dimensions: readonly string[]): string =>
      `${name}{${[...dimensions].sort().join(',')}}`;
    const read = new Set(
      Object.values(PLATFORM_METRICS).map((m) => key(m.name, [...m.dimensions, 'service'])),
    );
    const published = new Set(metrics().map((m) => key(m.name, Object.keys(m.dimensions))));
    assert.deepEqual(
      [...published].filter((k) => !read.has(k)),
      [],
      'published, but on no graph or alarm',
    );
    // A cold start is counted only by the first invocation of an environment; the rest must all appear.
    const expected = [...read].filter((k) => !k.startsWith('ColdStart{'));
    assert.deepEqual(
      expected.filter((k) => !published.has(k)),
      [],
      'read by the dashboard, never published',
    );
    assert.ok(metrics().every((m) => m.namespace === METRICS_NAMESPACE));
  });

  it('writes one call line with the OpenTelemetry MCP keys and the Lambda context', () => {
    const call = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['message'] === 'mcp.call');
    assert.ok(call !== undefined);
    assert.equal(call['mcp.method.name'], 'tools/call');
    assert.equal(call['gen_ai.tool.name'], 'bos_execute');
    assert.equal(call['mcp.protocol.version'], '2026-07-28');
    assert.equal(call['rpc.response.status_code'], '200');
    assert.equal(call['function_request_id'], 'telemetry-1');
    assert.equal(call['level'], 'INFO');
  });

  it('logs the demo source without its credential as a warning, and nothing as an error', () => {
    assert.deepEqual(linesAt(lines, 'ERROR'), []);
    assert.deepEqual(
      linesAt(lines, 'WARN').map((line) => line['message']),
      ['bos.sources.credential_unavailable'],
    );
  });

  it('keeps a session id only as its digest', () => {
    assert.match(sessionDigest('a-session'), /^[0-9a-f]{16}$/);
    assert.notEqual(sessionDigest('a-session'), sessionDigest('b-session'));
  });
});
