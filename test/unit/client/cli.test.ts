/**
 * The CLI in-process against the fake platform (real HTTP on 127.0.0.1), plus one run of the entry file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli } from '../../../client/index.js';
import { startFakePlatform, type FakePlatform } from './fake-platform.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the CLI and captures its output lines and exit code. */
async function cli(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (l) => out.push(l), stderr: (l) => err.push(l) });
  return { code, out, err };
}

describe('client CLI', () => {
  let platform: FakePlatform;
  let dir: string;
  let tokenFile: string;
  before(async () => {
    platform = await startFakePlatform();
    dir = await mkdtemp(join(tmpdir(), 'bos-cli-'));
    tokenFile = join(dir, 'dev-tokens.json');
    await writeFile(tokenFile, JSON.stringify({ 'dev-user': 'tok-dev', outsider: 'tok-out' }));
  });
  after(async () => {
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints one line per streamed event, then the summary, and exits 3 for a confirmed partial result', async () => {
    const args = ['--url', platform.url, '--stateless', '--token-file', tokenFile, '--user', 'outsider'];
    const { code, out } = await cli([...args, 'execute', 'h', 'search_people', '{"query":"ex"}', '--stream']);
    assert.equal(code, 3);
    assert.equal(out.length, 6, out.join('\n'));
    assert.match(
      out[0] ?? '',
      /^\+ +\d+ ms {2}example\/demo-source {2}pageIndex=1 {2}records=1 {2}page \(provisional, live\)$/,
    );
    assert.match(out[1] ?? '', /example\/demo-source {2}pageIndex=1 {2}records=0 {2}complete$/);
    assert.match(
      out[2] ?? '',
      /example\/other-demo-source {2}pageIndex=0 {2}records=0 {2}error {2}code=source_timeout$/,
    );
    assert.match(out[3] ?? '', /^final: confirmed \(sse\).*completeness=partial {2}result_count=1/);
    assert.equal(out[4], '  pages  example/demo-source  live');
    assert.equal(out[5], '  source_error  example/other-demo-source  source_timeout');
    assert.equal(platform.requests.at(-1)?.headers.authorization, 'Bearer tok-out');
    const body = platform.requests.at(-1)?.body as { params: Record<string, unknown> };
    assert.deepEqual(body.params.arguments, {
      context_handle: 'h',
      tool_name: 'search_people',
      arguments: { query: 'ex' },
    });
  });

  it('prints JSON lines with --json', async () => {
    const { code, out } = await cli([
      '--url',
      platform.url,
      '--json',
      'call',
      'bos_execute',
      '{}',
      '--stream',
    ]);
    assert.equal(code, 3);
    const lines = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => l.event),
      ['page', 'complete', 'error', 'final'],
    );
    assert.equal(lines[2]?.code, 'source_timeout');
    assert.deepEqual(lines[3]?.source_errors, [
      { source: { source_type: 'example', source_identity: 'other-demo-source' }, code: 'source_timeout' },
    ]);
    assert.equal(lines[3]?.result_count, 1);
  });

  it('prints the result without --stream and reads the JSON delivery', async () => {
    const { code, out } = await cli(['--url', platform.url, '--json', 'call', 'bos_execute', '{}']);
    assert.equal(code, 3);
    const final = JSON.parse(out.at(-1) ?? '{}') as Record<string, unknown>;
    assert.equal(final.delivery, 'json');
    assert.equal((final.result as { contract_version: string }).contract_version, 'bos-identity-mcp/v2');
  });

  it('shows the advertised extension with discover', async () => {
    const { code, out } = await cli(['--url', platform.url, '--stateless', 'discover']);
    assert.equal(code, 0);
    assert.ok(
      out.some((l) => l.startsWith('bos/source-results/v1: {"pageSize":100')),
      out.join('\n'),
    );
  });

  it('exits 2 on usage errors', async () => {
    assert.equal((await cli(['--url', platform.url, 'call', 'x', 'not json'])).code, 2);
    assert.equal((await cli(['--url', platform.url, 'frobnicate'])).code, 2);
    assert.equal((await cli(['--token', 'a', '--token-file', 'b', 'contexts'])).code, 2);
    assert.equal((await cli([])).code, 2);
  });

  it('exits 4 with no confirmed result when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const { code, err } = await cli(['--url', `http://127.0.0.1:${port}/mcp`, 'call', 'x', '{}']);
    assert.equal(code, 4);
    assert.match(err.join('\n'), /network/);
  });

  it('runs as a program through npm run client (entry file prints usage)', async () => {
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'client/cli.ts', '--help'],
      {
        cwd: root,
      },
    );
    assert.match(out, /^usage: npm run client/);
  });
});

describe('client CLI when the stream ends before the final frame', () => {
  let platform: FakePlatform;
  before(async () => {
    platform = await startFakePlatform({ dropFinal: true });
  });
  after(() => platform.close());

  it('says there is no confirmed result and exits 4', async () => {
    const { code, out } = await cli(['--url', platform.url, 'call', 'bos_execute', '{}', '--stream']);
    assert.equal(code, 4);
    assert.match(out.at(-1) ?? '', /^final: NO CONFIRMED RESULT \(eof\); 1 provisional page\(s\) observed/);
  });
});
