/**
 * The local stack answers as API Gateway REST + Lambda streaming do (docs/aws.md "AWS facts and the local
 * front"): the completion invocation after every streamed response, answered by the function with no error
 * line; a request body over API Gateway's 10 MB and a proxy event over Lambda's 6 MB invocation payload, each
 * with AWS's status and body; and the bandwidth cap of a streamed response past its burst.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import type { SourceResultsOutcome } from '../../client/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { SSE_ACCEPT, startBosStack } from '../helpers/bos-stack.js';
import { javaSuite } from '../helpers/java.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A JSON-RPC POST whose body is `bytes` long (a ping padded with a long string parameter). */
async function postOfSize(
  bos: BosStack,
  bytes: number,
): Promise<{ status: number; type: string; body: string }> {
  const skeleton = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: '' } });
  const body = skeleton.replace('"pad":""', `"pad":"${'a'.repeat(bytes - skeleton.length)}"`);
  assert.equal(Buffer.byteLength(body), bytes);
  const response = await fetch(bos.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: SSE_ACCEPT,
      Authorization: `Bearer ${bos.token('dev-user')}`,
    },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
  };
}

describe('AWS fidelity of the local stack', javaSuite(300_000), () => {
  let bos: BosStack;

  before(async () => {
    bos = await startBosStack({ name: 'aws-fidelity', poolSize: 1 });
  });
  after(async () => {
    await bos?.close();
  });

  it('follows a streamed read with its completion invocation, which the function answers with no error line', async (t) => {
    // Prepare: a first call warms the function and DynamoDB Local (a fresh JVM on a loaded machine can
    // miss the store's 2 s timeout once; that is not what this test is about).
    const client = new McpHttpClient({ url: bos.url, token: bos.token('dev-user') });
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.connect();
        await client.callTool('bos_list_contexts', {});
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    const before = bos.completions.length;
    const linesBefore = bos.lines.length;

    // Act
    const outcome: SourceResultsOutcome = await client.callTool(
      'search_people',
      { query: 'a' },
      { stream: true },
    );
    for (let waited = 0; bos.completions.length === before && waited < 10_000; waited += 50) await sleep(50);
    await sleep(200);

    // Assess
    assert.equal(outcome.confirmed, true);
    assert.ok(outcome.observedPages.length >= 1);
    const completion = bos.completions.at(-1);
    t.diagnostic(`completion invocation: ${JSON.stringify(completion)}`);
    assert.equal(completion?.notice.invokeCompletionStatus, 'Success');
    assert.equal(completion?.outcome, 'answered');
    assert.equal(completion?.statusCode, 200);
    const after = bos.lines.slice(linesBefore);
    t.diagnostic(`function output during the call and its completion (${after.length} lines):`);
    for (const line of after) t.diagnostic(`  ${line.slice(0, 200)}`);
    const errorLines = after.filter((line) => /"level":"(error|warn)"|\bERROR\b|Invoke Error/.test(line));
    assert.deepEqual(errorLines, []);
  });

  it('answers a body over 10 MB with API Gateway 413 "HTTP content length exceeded 10485760 bytes."', async () => {
    // Act
    const answer = await postOfSize(bos, 10 * 1024 * 1024 + 1);
    // Assess
    assert.deepEqual(answer, {
      status: 413,
      type: 'text; charset=utf-8',
      body: 'HTTP content length exceeded 10485760 bytes.',
    });
  });

  it('answers an event over Lambda\'s 6 MB invocation payload with 413 {"message": "Request Too Long"}, without invoking', async () => {
    // Prepare: a 7 MiB body is under API Gateway's cap, but its proxy event is over Lambda's.
    const completionsBefore = bos.completions.length;
    // Act
    const answer = await postOfSize(bos, 7 * 1024 * 1024);
    // Assess
    assert.deepEqual(answer, {
      status: 413,
      type: 'application/json',
      body: '{"message": "Request Too Long"}',
    });
    assert.equal(bos.completions.length, completionsBefore);
  });

  it('still invokes the function with an event under the limit', async () => {
    // Prepare
    const completionsBefore = bos.completions.length;
    // Act: 5 MiB of body reaches the function, which applies its own body limit (a JSON-RPC answer).
    const answer = await postOfSize(bos, 5 * 1024 * 1024);
    for (let waited = 0; bos.completions.length === completionsBefore && waited < 10_000; waited += 50)
      await sleep(50);
    // Assess
    assert.match(answer.body, /"jsonrpc":"2.0"/);
    assert.equal(bos.completions.length, completionsBefore + 1);
  });
});
