/**
 * `npm start -- --directory <file> --secrets <file>` as a user runs it: a directory naming a SCIM server and
 * an LDAP server of the user's (here the local SCIM server and slapd, started by the test on loopback), with
 * their credentials in a secrets file. The start output names every local endpoint and what it loaded, and a
 * streamed search reads both sources to a complete result.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpHttpClient } from '../../client/index.js';
import { LOCAL_DIR, REPO_ROOT } from '../../local/paths.js';
import { slapdPath, startSlapd, type LocalSlapd } from '../../local/providers/ldap/index.js';
import { startScimServer, type ScimServer } from '../../local/providers/scim/index.js';
import { needsJava } from '../helpers/java.js';

const HANDLE = 'ctx_5c0ffee5c0ffee5c0ffee5c0ffee5c0f';
const skip = needsJava() || (slapdPath() === undefined ? 'slapd is not installed' : false);

describe('npm start with your own directory', { timeout: 600_000, skip }, () => {
  let scim: ScimServer;
  let ldap: LocalSlapd;
  let dir: string;
  let start: ChildProcess;
  let stdout = '';
  const stderr: string[] = [];

  before(async () => {
    scim = await startScimServer();
    ldap = await startSlapd();
    dir = await mkdtemp(join(tmpdir(), 'bos-start-directory-'));
    await writeFile(
      join(dir, 'my-directory.json'),
      JSON.stringify({
        format: 'bos-directory/v1',
        principals: [{ subject: 'dev-user', grants: [HANDLE] }],
        contexts: [
          {
            context_handle: HANDLE,
            organization_name: 'Example',
            application_name: 'People',
            installation_name: 'Laptop',
            role_label: 'Reader',
            is_default: true,
            operations: ['search_people', 'get_person', 'list_people'],
            source_ids: ['hr-scim', 'corp-ldap'],
            source_timeout_ms: 20_000,
          },
        ],
        sources: [
          {
            source_id: 'hr-scim',
            adapter: 'scim',
            options: { base_url: scim.baseUrl },
            credential_ref: 'HR_SCIM_TOKEN',
          },
          {
            source_id: 'corp-ldap',
            adapter: 'ldap',
            options: { url: ldap.url, base_dn: ldap.baseDn, bind_dn: ldap.bindDn },
            credential_ref: 'CORP_LDAP_PASSWORD',
          },
        ],
      }),
    );
    await writeFile(
      join(dir, 'secrets.json'),
      JSON.stringify({ HR_SCIM_TOKEN: scim.token, CORP_LDAP_PASSWORD: ldap.bindPassword }),
      { mode: 0o600 },
    );
    start = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'local/start.ts',
        '--directory',
        join(dir, 'my-directory.json'),
        '--secrets',
        join(dir, 'secrets.json'),
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, PORT: '0', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // The stack's log lines are its own business here; kept for a failure message, never printed.
    start.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    start.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = once(start, 'exit').then(() => {
      throw new Error(`npm start exited early:\n${stderr.join('').slice(-2000)}`);
    });
    const tried = new Promise<void>((resolve) => {
      start.stdout?.on('data', () => {
        if (stdout.includes('--stream')) resolve();
      });
    });
    await Promise.race([tried, exited]);
  });

  after(async () => {
    if (start?.exitCode === null) {
      start.kill('SIGTERM');
      await once(start, 'exit');
    }
    await ldap?.stop();
    await scim?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('prints every local endpoint, what it loaded, and how to call it', () => {
    assert.match(stdout, /^ready: http:\/\/127\.0\.0\.1:\d+\/mcp\/apps\/bos\/platform$/m);
    assert.match(stdout, /^ {2}DynamoDB Local {6}http:\/\/127\.0\.0\.1:\d+ {2}\(directory table \S+\)$/m);
    assert.match(stdout, /^ {2}OAuth issuer {8}http:\/\/127\.0\.0\.1:\d+/m);
    assert.match(stdout, /: 1 principal\(s\), 1 context\(s\), 2 source\(s\)$/m);
    assert.ok(stdout.includes(`  source hr-scim  scim  ${scim.baseUrl}  credential HR_SCIM_TOKEN`), stdout);
    assert.ok(stdout.includes(`execute ${HANDLE} search_people`), stdout);
    assert.ok(!stdout.includes(scim.token) && !stdout.includes(ldap.bindPassword), 'no secret is printed');
  });

  it('streams a search that reads the SCIM and the LDAP source to a complete result', async () => {
    const url = /^ready: (\S+)$/m.exec(stdout)?.[1] ?? '';
    const tokens = JSON.parse(await readFile(join(LOCAL_DIR, 'dev-tokens.json'), 'utf8')) as Record<
      string,
      string
    >;
    const client = new McpHttpClient({ url, token: tokens['dev-user'] ?? '' });
    const pages: string[] = [];
    const outcome = await client.callTool(
      'bos_execute',
      { context_handle: HANDLE, tool_name: 'search_people', arguments: { query: 'a' } },
      { stream: true, onPage: (page) => pages.push(page.source.source_identity) },
    );
    await client.close();
    assert.equal(outcome.confirmed, true);
    assert.ok(outcome.confirmed);
    assert.equal(outcome.completeness, 'complete', JSON.stringify(outcome.sourceErrors));
    assert.equal(outcome.isError, false);
    assert.deepEqual([...new Set(pages)].sort(), ['corp-ldap', 'hr-scim']);
    assert.ok((outcome.resultCount ?? 0) > 0);
  });
});
