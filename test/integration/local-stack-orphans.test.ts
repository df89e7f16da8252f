/**
 * No runtime outlives its stack: a stack process killed with SIGKILL runs no exit handler, so each runtime
 * must notice on its own (the preloaded watchdog in `local/runtime-api/runtime-process.ts`) and exit.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const SCENARIOS = fileURLToPath(new URL('../helpers/lambda-handlers/scenarios.ts', import.meta.url));
const STACK_MODULE = fileURLToPath(new URL('../../local/stack.ts', import.meta.url));

/** A stack in its own process that prints the pids of its runtimes once they are up. */
const CHILD_SCRIPT = `
import { startStack } from ${JSON.stringify(STACK_MODULE)};
const stack = await startStack({ handlerEntry: ${JSON.stringify(SCENARIOS)},
  bundleDir: '.local/test-bundles/local-stack-orphans', poolSize: 2, onFunctionLog: () => undefined });
// Both runtimes busy in an invocation that never ends: they are not polling the Runtime API, so only the
// watchdog can notice the stack is gone.
for (let i = 0; i < 2; i += 1) void fetch(stack.url + '?scenario=stream-then-hang').then((r) => r.body?.getReader().read());
await new Promise((resolve) => setTimeout(resolve, 1500));
const { execFileSync } = await import('node:child_process');
const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'aws-lambda-ric']).toString().trim();
process.stdout.write(JSON.stringify({ url: stack.url, runtimes: pids.split('\\n').map(Number) }) + '\\n');
`;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('runtimes of a killed stack', { timeout: 120_000 }, () => {
  it('exit on their own within seconds after the stack process is killed with SIGKILL mid-invocation', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD_SCRIPT], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const { runtimes } = JSON.parse(line) as { runtimes: number[] };
    assert.equal(runtimes.length, 2, 'two runtimes started');
    assert.ok(runtimes.every(alive), 'runtimes alive while the stack runs');

    child.kill('SIGKILL');
    await once(child, 'exit');
    const deadline = Date.now() + 10_000;
    while (runtimes.some(alive) && Date.now() < deadline) await sleep(100);
    assert.deepEqual(runtimes.filter(alive), [], 'no runtime outlived the stack');
  });
});
