/**
 * The local stack end to end with the real AWS runtime client: REST v1 front → Runtime API → `aws-lambda-ric`
 * → a streaming handler, and back through the prelude + 8 NUL bytes format.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LocalStack, startStack } from '../../local/stack.js';
import { SCENARIO_HANDLER, capture } from '../helpers/lambda-handlers/http-capture.js';
import { logged, messagesAt, withLogLines } from '../helpers/log-lines.js';

describe('the local stack streams a Lambda response through the REST v1 front', { timeout: 120_000 }, () => {
  let stack: LocalStack;
  const functionLines: string[] = [];
  const scenario = (name: string, query = ''): string => `${stack.url}?scenario=${name}${query}`;

  before(async () => {
    stack = await startStack({
      handlerEntry: SCENARIO_HANDLER,
      bundleDir: '.local/test-bundles/local-stack-streaming',
      poolSize: 2,
      timeoutSeconds: 30,
      env: { LOCAL_MARKER: 'from-stack-env' },
      onFunctionLog: (entry) => functionLines.push(entry.line),
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('delivers three events written 300 ms apart as three separate reads with gaps of at least 200 ms', async () => {
    const response = await capture(scenario('events', '&count=3&gap=300'));

    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/event-stream');
    assert.deepEqual(
      response.chunks.map((chunk) => chunk.text),
      ['data: event 1\n\n', 'data: event 2\n\n', 'data: event 3\n\n'],
    );
    const [first, second, third] = response.chunks.map((chunk) => chunk.at);
    assert.ok(second! - first! >= 200, `gap 1 was ${second! - first!} ms`);
    assert.ok(third! - second! >= 200, `gap 2 was ${third! - second!} ms`);
  });

  it('delivers a 2.4 MB final frame written as one chunk byte for byte, to fast and slow readers alike, every time', async () => {
    const size = 2_400_000;
    const pages = 'data: page 1\n\ndata: page 2\n\ndata: page 3\n\n';
    let digits = '';
    for (let index = 6; index < size - 2; index += 1) digits += String(index % 10);
    const expected = `${pages}data: ${digits}\n\n`;
    for (let round = 0; round < 4; round += 1) {
      const [fast, slow] = await Promise.all([
        capture(scenario('large-final', `&size=${size}`)),
        capture(scenario('large-final', `&size=${size}`), { pauseMs: 5 }),
      ]);
      for (const response of [fast, slow]) {
        assert.equal(response.status, 200);
        assert.equal(response.aborted, false, `round ${round}: the connection was cut`);
        assert.equal(response.body.length, expected.length, `round ${round}: body length`);
        assert.ok(
          response.body === expected,
          `round ${round}: the body differs from what the function wrote`,
        );
      }
    }
  });

  it('answers a bodyless 202 when the function writes an empty chunk after the prelude', async () => {
    const response = await capture(scenario('accepted'), { method: 'POST', body: '{}' });

    assert.equal(response.status, 202);
    assert.equal(response.body, '');
    assert.equal(response.aborted, false);
  });

  it('applies the status, headers, multi-value headers and cookies of the prelude', async () => {
    const response = await capture(scenario('headers'));

    assert.equal(response.status, 201);
    assert.equal(response.headers['x-single'], 'one');
    assert.equal(response.headers['x-multi'], 'a, b');
    assert.deepEqual(response.headers['set-cookie'], ['session=abc; Path=/', 'theme=dark']);
    assert.equal(response.body, 'made');
    assert.match(String(response.headers['x-amzn-requestid']), /^[0-9a-f-]{36}$/);
  });

  it('answers 502 when the function ends without ever writing its prelude', async () => {
    const { result: response, lines } = await withLogLines(() => capture(scenario('no-prelude')));
    assert.ok(messagesAt(lines, 'WARN').includes('function failed before the prelude'));

    assert.equal(response.status, 502);
    assert.deepEqual(JSON.parse(response.body), { message: 'Internal server error' });
  });

  it('answers 502 when the function calls end(data) without a write, which skips the prelude', async () => {
    const { result: response, lines } = await withLogLines(() => capture(scenario('end-with-data')));
    assert.ok(messagesAt(lines, 'WARN').includes('function failed before the prelude'));

    assert.equal(response.status, 502);
    assert.doesNotMatch(response.body, /payload only/);
  });

  it('answers 502 when the function streams bytes without a prelude', async () => {
    const { result: response, lines } = await withLogLines(() => capture(scenario('raw-bytes')));
    assert.ok(messagesAt(lines, 'WARN').includes('function failed before the prelude'));

    assert.equal(response.status, 502);
    assert.doesNotMatch(response.body, /just bytes/);
  });

  it('answers 502 without the error text when the function throws before the prelude', async () => {
    const { result: response, lines } = await withLogLines(() => capture(scenario('throw-before')));
    assert.ok(messagesAt(lines, 'WARN').includes('function failed before the prelude'));

    assert.equal(response.status, 502);
    assert.deepEqual(JSON.parse(response.body), { message: 'Internal server error' });
    assert.doesNotMatch(response.body, /failed before/);
  });

  it('cuts the client connection when the function fails after the prelude', async () => {
    const { result: response } = await withLogLines(async (lines) => {
      const answer = await capture(scenario('throw-mid'));
      assert.ok(await logged(lines, 'stream aborted'), 'the front logs the cut stream');
      return answer;
    });

    assert.equal(response.status, 200);
    assert.equal(response.body, 'partial\n');
    assert.equal(response.aborted, true);
  });

  it('keeps the function running unaware when the client goes away, as Lambda does', async () => {
    const marker = `m${Date.now()}`;
    await capture(scenario('until-closed', `&marker=${marker}`), { abortAfterFirstChunk: true });

    // The function writes 100 ticks 50 ms apart; none of its writes fails and its stream is never closed.
    const seen = await waitFor(
      () => functionLines.find((line) => line.includes(`until-closed ${marker}`)),
      20_000,
    );
    assert.match(seen, /never closed/);
    const next = await capture(scenario('accepted'));
    assert.equal(next.status, 202, 'the runtime keeps serving after the abandoned stream');
  });

  it('builds the REST v1 proxy event with stage, multi-value headers and query, and the function environment', async () => {
    const response = await capture(`${stack.url}?scenario=inspect&tag=a&tag=b`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Repeat': ['1', '2'] },
      body: '{"hello":"world"}',
    });

    assert.equal(response.status, 200);
    const seen = JSON.parse(response.body) as {
      event: Record<string, unknown> & { requestContext: Record<string, unknown> };
      env: string;
    };
    const { event } = seen;
    assert.equal(event['resource'], '/mcp/apps/bos/platform');
    assert.equal(event['path'], '/mcp/apps/bos/platform');
    assert.equal(event['httpMethod'], 'POST');
    assert.equal(event['body'], '{"hello":"world"}');
    assert.equal(event['isBase64Encoded'], false);
    assert.deepEqual(event['multiValueQueryStringParameters'], { scenario: ['inspect'], tag: ['a', 'b'] });
    assert.equal((event['queryStringParameters'] as Record<string, string>)['tag'], 'b');
    assert.deepEqual((event['multiValueHeaders'] as Record<string, string[]>)['X-Repeat'], ['1', '2']);
    assert.equal(event.requestContext['stage'], 'local');
    assert.equal(event.requestContext['path'], '/local/mcp/apps/bos/platform');
    assert.equal(event.requestContext['resourcePath'], '/mcp/apps/bos/platform');
    assert.equal((event.requestContext['identity'] as Record<string, unknown>)['sourceIp'], '127.0.0.1');
    assert.equal(seen.env, 'from-stack-env');
  });

  it('passes a binary body base64-encoded', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    const response = await capture(scenario('inspect'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });

    const { event } = JSON.parse(response.body) as { event: { body: string; isBase64Encoded: boolean } };
    assert.equal(event.isBase64Encoded, true);
    assert.deepEqual(Buffer.from(event.body, 'base64'), bytes);
  });

  it('answers 403 Missing Authentication Token for paths and methods the API does not define', async () => {
    const unknownPath = await capture(`${stack.baseUrl}/nowhere`);
    const unknownMethod = await capture(stack.url, { method: 'PUT' });

    for (const response of [unknownPath, unknownMethod]) {
      assert.equal(response.status, 403);
      assert.deepEqual(JSON.parse(response.body), { message: 'Missing Authentication Token' });
    }
  });
});

describe('the local stack in close-stream mode', { timeout: 120_000 }, () => {
  let stack: LocalStack;
  const functionLines: string[] = [];

  before(async () => {
    stack = await startStack({
      handlerEntry: SCENARIO_HANDLER,
      bundleDir: '.local/test-bundles/local-stack-streaming',
      poolSize: 1,
      timeoutSeconds: 30,
      onClientLoss: 'close-stream',
      onFunctionLog: (entry) => functionLines.push(entry.line),
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('closes the function response stream when the client goes away, and the function sees it', async () => {
    const marker = `m${Date.now()}`;
    await capture(`${stack.url}?scenario=until-closed&marker=${marker}`, { abortAfterFirstChunk: true });

    const seen = await waitFor(() => functionLines.find((line) => line.includes(`until-closed ${marker}`)));
    assert.match(seen, /saw close/);
    const next = await capture(`${stack.url}?scenario=accepted`);
    assert.equal(next.status, 202, 'the runtime keeps serving after a cancelled stream');
  });
});

/** Polls until `probe` returns a value (function log lines arrive asynchronously). */
async function waitFor(probe: () => string | undefined, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting for the function log line');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
