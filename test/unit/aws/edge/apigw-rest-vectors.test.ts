/**
 * The AppTheory `api-gateway-rest-sse` vectors (shared/fixtures, Apache-2.0) run through the real adapter:
 * event -> parseRestEvent/toRequest -> a tiny test app (the vectors' named handlers) -> Response ->
 * writeResponse into the fake Lambda stream -> prelude + body as API Gateway would read them.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RestEventParts, RestProxyEvent } from '../../../../lambda/aws/index.js';
import {
  parseRestEvent,
  RestEventError,
  restEventErrorResponse,
  toRequest,
  writeResponse,
} from '../../../../lambda/aws/index.js';
import { eventFrame } from '../../../../lambda/mcp/index.js';
import { installFakeAwsLambda } from '../../../helpers/fake-awslambda.js';
import { FakeResponseStream, parseStreamedResponse } from '../../../helpers/fake-response-stream.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const vectorDir = join(repoRoot, '..', 'shared', 'fixtures', 'apptheory', 'api-gateway-rest-sse');

interface Vector {
  id: string;
  name: string;
  setup: { routes: { handler: string }[] };
  input: { aws_event: { event: RestProxyEvent } };
  expect: {
    response: {
      status: number;
      headers: Record<string, string[]>;
      cookies: string[];
      body_json?: unknown;
      body?: { encoding: string; value: string };
    };
  };
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function grouped(entries: Iterable<[string, string]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of entries) (out[name] ??= []).push(value);
  return out;
}

/** The vectors' named handlers, written against what the adapter produced. */
async function runHandler(handler: string, request: Request, parts: RestEventParts): Promise<Response> {
  switch (handler) {
    case 'echo_request': {
      const url = new URL(request.url);
      const cookieHeader = request.headers.get('cookie');
      const cookies = Object.fromEntries(
        (cookieHeader ?? '')
          .split(';')
          .filter((c) => c.includes('='))
          .map((c) => c.trim().split('=', 2) as [string, string]),
      );
      const body = Buffer.from(await request.arrayBuffer()).toString('base64');
      const echoed = {
        method: request.method,
        path: url.pathname,
        query: grouped(url.searchParams.entries()),
        headers: Object.fromEntries(parts.headers),
        cookies,
        body_b64: body,
        is_base64: parts.isBase64,
      };
      return Response.json(echoed, { headers: JSON_TYPE });
    }
    case 'echo_path_params':
      return Response.json({ params: { ...parts.pathParameters } }, { headers: JSON_TYPE });
    case 'source_provenance': {
      const ip = parts.sourceIp ?? '';
      const provenance = {
        source_ip: ip,
        provider: 'apigw-v1',
        source: 'provider_request_context',
        valid: isIP(ip) !== 0,
      };
      return Response.json({ source_ip: ip, source_provenance: provenance }, { headers: JSON_TYPE });
    }
    case 'sse_single_event':
      return new Response(eventFrame(JSON.stringify({ ok: true }), '1', 'message'), {
        headers: {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        },
      });
    default:
      throw new Error(`unknown vector handler ${handler}`);
  }
}

async function serve(event: RestProxyEvent, handler: string): Promise<Response> {
  try {
    const parts = parseRestEvent(event);
    return await runHandler(handler, toRequest(parts), parts);
  } catch (error) {
    if (error instanceof RestEventError) return restEventErrorResponse(error);
    throw error;
  }
}

const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim();

describe('AppTheory api-gateway-rest-sse vectors through the REST v1 adapter', () => {
  let restore: () => void = () => undefined;
  before(() => {
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  it('runs all 10 vectors', async (t) => {
    if (!existsSync(vectorDir)) {
      t.skip(`fixture folder ${vectorDir} is absent`);
      return;
    }
    const files = readdirSync(vectorDir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    assert.equal(files.length, 10);
    for (const file of files) {
      const vector = JSON.parse(readFileSync(join(vectorDir, file), 'utf8')) as Vector;
      await t.test(`${vector.id}: ${vector.name}`, async () => {
        // Prepare
        const handler = vector.setup.routes[0]?.handler ?? '';
        const expected = vector.expect.response;
        const stream = new FakeResponseStream();
        // Act
        await writeResponse(await serve(vector.input.aws_event.event, handler), stream);
        const { prelude, body } = parseStreamedResponse(stream.bytes());
        // Assess
        assert.equal(prelude.statusCode, expected.status);
        assert.deepEqual(prelude.cookies ?? [], expected.cookies);
        if (vector.id === 'm3.apigw_proxy.invalid_base64_request_body') {
          // Deliberate difference: our endpoint speaks JSON-RPC, so the 400 carries a JSON-RPC parse error
          // (-32700) instead of AppTheory's `app.bad_request` envelope; status and media type match.
          assert.equal(mediaType(prelude.headers?.['content-type']), 'application/json');
          const parsed = JSON.parse(body) as { error: { code: number; message: string } };
          assert.equal(parsed.error.code, -32700);
          assert.match(parsed.error.message, /invalid base64/);
          return;
        }
        for (const [name, values] of Object.entries(expected.headers))
          assert.equal(prelude.headers?.[name], values.join(', '), `header ${name}`);
        if (expected.body_json !== undefined) assert.deepEqual(JSON.parse(body), expected.body_json);
        if (expected.body !== undefined) assert.equal(body, expected.body.value);
      });
    }
  });
});
