/**
 * The shared REST entry (`compose-entry.ts`) and when it composes its app: on the first invocation by
 * default, or while the module loads (Lambda's init phase) with `prepareAtInit`, where it also starts the
 * app's `prepare()`. A composition that fails at init must change nothing for clients: the first invocation
 * composes again and answers as it always did. Real `@middy/core` streamify mode, fake `awslambda` global.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ConfigError } from '../../../lambda/aws/index.js';
import { createRestEntry } from '../../../lambda/handlers/compose-entry.js';
import type { ComposedApp } from '../../../lambda/handlers/compose-entry.js';
import { installFakeAwsLambda } from '../../helpers/fake-awslambda.js';
import { linesAt, withLogLines } from '../../helpers/log-lines.js';
import { FakeResponseStream, parseStreamedResponse } from '../../helpers/fake-response-stream.js';
import type { StreamedResponse } from '../../helpers/fake-response-stream.js';
import { lambdaContext, mcpPostEvent } from '../../helpers/rest-events.js';

type StreamingHandler = (
  event: APIGatewayProxyEvent,
  stream: FakeResponseStream,
  context: Context,
) => Promise<void>;

/** Counts compositions and `prepare()` calls; the app answers every request with 200 `{"ok":true}`. */
function countingApp(options: { failures?: number } = {}) {
  const counts = { composed: 0, prepared: 0, failed: 0 };
  const compose = (): ComposedApp => {
    if (counts.failed < (options.failures ?? 0)) {
      counts.failed += 1;
      throw new ConfigError(['MCP_ENDPOINT is required by the test app']);
    }
    counts.composed += 1;
    return {
      handle: () =>
        Promise.resolve(
          new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } }),
        ),
      prepare: () => {
        counts.prepared += 1;
      },
    };
  };
  return { counts, compose };
}

function entry(compose: () => ComposedApp, prepareAtInit?: boolean): StreamingHandler {
  return createRestEntry({
    component: 'test',
    serves: () => true,
    compose,
    ...(prepareAtInit === undefined ? {} : { prepareAtInit }),
  }) as unknown as StreamingHandler;
}

async function invoke(handler: StreamingHandler): Promise<StreamedResponse> {
  const stream = new FakeResponseStream();
  await handler(mcpPostEvent({ jsonrpc: '2.0', id: 1, method: 'ping' }), stream, lambdaContext());
  return parseStreamedResponse(stream.bytes());
}

describe('REST entry composition', () => {
  let restore: () => void = () => undefined;
  before(() => {
    // middy calls awslambda.streamifyResponse when the entry is created.
    restore = installFakeAwsLambda();
  });
  after(() => restore());

  it('composes nothing when the entry is created, and once on the first invocation, by default', async () => {
    // Prepare
    const app = countingApp();
    const handler = entry(app.compose);
    const atCreation = { ...app.counts };
    // Act
    await invoke(handler);
    await invoke(handler);
    // Assess
    assert.deepEqual(atCreation, { composed: 0, prepared: 0, failed: 0 });
    assert.deepEqual(app.counts, { composed: 1, prepared: 0, failed: 0 });
  });

  it('composes and starts prepare() when the entry is created with prepareAtInit, and never again', async () => {
    // Prepare
    const app = countingApp();
    const handler = entry(app.compose, true);
    const atCreation = { ...app.counts };
    // Act
    const { prelude, body } = await invoke(handler);
    await invoke(handler);
    // Assess
    assert.deepEqual(atCreation, { composed: 1, prepared: 1, failed: 0 });
    assert.deepEqual(app.counts, { composed: 1, prepared: 1, failed: 0 });
    assert.equal(prelude.statusCode, 200);
    assert.equal(body, '{"ok":true}');
  });

  it('lets the first invocation compose again when composition failed at init', async () => {
    // Prepare: the first composition (at init) throws, the next one succeeds.
    const app = countingApp({ failures: 1 });
    // Act
    const { result: prelude, lines } = await withLogLines(async () => {
      const handler = entry(app.compose, true);
      return (await invoke(handler)).prelude;
    });
    // Assess
    assert.equal(prelude.statusCode, 200);
    assert.deepEqual(app.counts, { composed: 1, prepared: 0, failed: 1 });
    assert.deepEqual(
      linesAt(lines, 'ERROR').map((line) => line['message']),
      ['composition failed at init; the first invocation tries again'],
    );
  });

  it('answers the same generic 500 as without prepareAtInit when the configuration stays invalid', async () => {
    // Prepare
    const atInit = countingApp({ failures: Number.POSITIVE_INFINITY });
    const lazy = countingApp({ failures: Number.POSITIVE_INFINITY });
    // Act
    const { result: withInit, lines } = await withLogLines(() => invoke(entry(atInit.compose, true)));
    const { result: without } = await withLogLines(() => invoke(entry(lazy.compose)));
    // Assess
    assert.equal(withInit.prelude.statusCode, 500);
    assert.deepEqual(withInit, without);
    assert.doesNotMatch(withInit.body, /MCP_ENDPOINT|required/);
    // The problem list goes to the log instead.
    assert.match(
      linesAt(lines, 'ERROR')
        .map((line) => JSON.stringify(line))
        .join('\n'),
      /MCP_ENDPOINT is required/,
    );
  });
});
