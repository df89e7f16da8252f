/**
 * A function whose module fails to load: the runtime client reports `/runtime/init/error`, and the local
 * stack refuses to start with that reason instead of serving 502s.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RuntimePoolStartError } from '../../local/runtime-api/index.js';
import { startStack } from '../../local/stack.js';

const INIT_FAILURE = fileURLToPath(new URL('../helpers/lambda-handlers/init-failure.ts', import.meta.url));

describe('a function that fails during init', { timeout: 60_000 }, () => {
  it('makes startStack reject with the error the runtime client reported', async () => {
    const lines: string[] = [];

    const starting = startStack({
      handlerEntry: INIT_FAILURE,
      bundleDir: '.local/test-bundles/local-stack-init',
      poolSize: 1,
      onFunctionLog: (entry) => lines.push(entry.line),
    });

    await assert.rejects(starting, (error: unknown) => {
      assert.ok(error instanceof RuntimePoolStartError);
      assert.match(error.message, /failed to initialise: Error: configuration is broken at load time/);
      return true;
    });
    assert.ok(
      lines.some((line) => line.includes('Init Error')),
      'the runtime client logged its init error',
    );
  });
});
