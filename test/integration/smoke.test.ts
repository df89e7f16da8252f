/**
 * `npm run smoke` against the local stack, as CI runs it: the real command (a child process, its table and
 * its exit code) against the platform entry behind the REST front. Every check passes with the demo user's
 * token; the same command fails, naming the checks, with the outsider's token, against a wrong URL, and
 * refuses a bad command line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import type { BosStack } from '../helpers/bos-stack.js';
import { startBosStack } from '../helpers/bos-stack.js';
import { javaSuite } from '../helpers/java.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CHECKS = [
  '401 names resource metadata',
  'discovery (RFC 9728 metadata)',
  'extension advertised',
  'streamed federated read',
  'JSON without the opt-in',
  'unauthorised context refused',
];

interface SmokeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** check -> PASS / FAIL, from the printed table. */
  results: Map<string, string>;
}

/** Runs `client/smoke/cli.ts` as `npm run smoke` does, with a timeout. */
function smoke(args: string[], timeoutMs = 240_000): Promise<SmokeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'client/smoke/cli.ts', ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`smoke did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const results = new Map<string, string>();
      for (const line of stdout.split('\n')) {
        const match = /^(.+?)\s{2,}(PASS|FAIL)\s{2}/.exec(line);
        if (match) results.set(match[1]!, match[2]!);
      }
      resolve({ code, stdout, stderr, results });
    });
  });
}

describe('npm run smoke against the local stack', javaSuite(900_000), () => {
  let bos: BosStack;
  let dir = '';
  const tokenFile = (): string => join(dir, 'tokens.json');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bos-smoke-'));
    bos = await startBosStack({ name: 'smoke', poolSize: 2 });
    await writeFile(
      tokenFile(),
      JSON.stringify({ 'dev-user': bos.token('dev-user'), outsider: bos.token('outsider') }),
    );
    // The raw-token form a deployed endpoint's operator would use.
    await writeFile(join(dir, 'token.txt'), `${bos.token('dev-user')}\n`);
  });
  after(async () => {
    await bos?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('passes every check with the demo user and exits 0, printing one table row per check', async () => {
    const run = await smoke(['--url', bos.url, '--token-file', join(dir, 'token.txt')]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual([...run.results.keys()], CHECKS);
    assert.deepEqual([...new Set(run.results.values())], ['PASS']);
    assert.match(run.stdout, /streamed federated read\s+PASS\s+\d+ pages before the final frame/);
    assert.match(run.stdout, /all 6 checks passed/);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(bos.token('dev-user')));
  });

  it('passes in the stateless 2026-07-28 shape too', async () => {
    const run = await smoke(['--url', bos.url, '--token-file', tokenFile(), '--stateless']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /extension advertised\s+PASS\s+stateless 2026-07-28/);
  });

  it("fails the reads for a principal with no context, and refuses it another principal's real handle", async () => {
    const run = await smoke([
      '--url',
      bos.url,
      '--token-file',
      tokenFile(),
      '--user',
      'outsider',
      '--foreign-context',
      DEMO_PEOPLE_CONTEXT_HANDLE,
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.results.get('streamed federated read'), 'FAIL');
    assert.equal(run.results.get('JSON without the opt-in'), 'FAIL');
    assert.equal(run.results.get('unauthorised context refused'), 'PASS');
    assert.match(run.stdout, /2 of 6 checks failed/);
  });

  it('fails every check against a URL the platform does not serve, and exits 1', async () => {
    const run = await smoke([
      '--url',
      `${bos.stack.baseUrl}/mcp/apps/bos/elsewhere`,
      '--token-file',
      tokenFile(),
      '--timeout-ms',
      '30000',
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual([...run.results.keys()], CHECKS);
    assert.deepEqual([...new Set(run.results.values())], ['FAIL']);
  });

  it('exits 2 with the usage for a missing token file or URL', async () => {
    const missing = await smoke(['--url', bos.url, '--token-file', join(dir, 'absent.txt')]);
    assert.equal(missing.code, 2);
    assert.equal(missing.results.size, 0);
    const noUrl = await smoke(['--token-file', tokenFile()]);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /usage: npm run smoke/);
  });
});
