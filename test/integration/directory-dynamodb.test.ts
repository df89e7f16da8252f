/**
 * The tenancy directory in DynamoDB Local (real Java process, one start for the file): seeding with the
 * library and the `seed:directory` CLI, parity with the in-memory demo directory, grant revocation, and
 * the platform refusing a guessed handle exactly like a real but not-granted one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient, DynamoDbDirectoryItems } from '../../lambda/aws/index.js';
import {
  createBosPlatform,
  createDemoDirectory,
  createItemsDirectory,
  createJwtVerifier,
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
  documentToItems,
  readSourceDefinitions,
} from '../../lambda/bos/index.js';
import type { Directory } from '../../lambda/bos/index.js';
import { silentLogger } from '../../lambda/mcp/index.js';
import { directoryTable } from '../../lib/table-schemas.js';
import { createDevAuth } from '../../local/dev-auth/index.js';
import { createTables, startDynamoDbLocal } from '../../local/dynamodb-local.js';
import type { DynamoDbLocal } from '../../local/dynamodb-local.js';
import { demoDirectoryDocument, seedDirectory } from '../../local/seed-directory-lib.js';
import { needsJava } from '../helpers/java.js';

const run = promisify(execFile);
const PREFIX = 'it-dir-';
const TABLE = `${PREFIX}${directoryTable.id}`;
const GUESSED = 'ctx_0123456789abcdef0123456789abcdef';
const ENDPOINT = 'https://bos.example.test/mcp/apps/bos/platform';
const ISSUER = 'https://issuer.example.test';
const SUBJECTS = ['dev-user', 'outsider', 'nobody'];
const HANDLES = [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE, GUESSED, 'ctx_x', ''];

const principal = (subject: string) => ({ subject, scopes: ['bos.read'] });

async function answers(directory: Directory): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const subject of SUBJECTS) {
    out[`${subject} list`] = await directory.contextsFor(principal(subject));
    for (const handle of HANDLES)
      out[`${subject} ${handle}`] = await directory.find(principal(subject), handle);
  }
  // Items come back with null prototypes; compare as JSON, which is also what the tools emit.
  return JSON.parse(JSON.stringify(out));
}

describe('directory in DynamoDB Local', { timeout: 300_000, skip: needsJava() }, () => {
  let db: DynamoDbLocal;
  let client: DynamoDBClient;
  let items: DynamoDbDirectoryItems;
  const workDir = mkdtempSync(join(tmpdir(), 'bos-dir-'));

  before(async () => {
    db = await startDynamoDbLocal({ tables: { schemas: [directoryTable], prefix: PREFIX } });
    client = createDynamoDbClient({ endpoint: db.endpoint, requestTimeoutMs: 5_000 });
    items = new DynamoDbDirectoryItems({ client, tableName: TABLE, operationTimeoutMs: 5_000 });
    const written = await seedDirectory(demoDirectoryDocument(), { table: TABLE, endpoint: db.endpoint });
    assert.equal(written, documentToItems(DEMO_DIRECTORY_DOCUMENT).length);
  });

  after(async () => {
    client?.destroy();
    await db?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('answers every demo principal and handle exactly like the in-memory demo directory', async () => {
    const fromDynamo = await answers(createItemsDirectory({ reader: items }));
    const expected = await answers(createDemoDirectory());
    assert.deepEqual(fromDynamo, expected);
    assert.equal((expected as Record<string, unknown[]>)['dev-user list']?.length, 3);
  });

  it('reads back the same items and source definitions that were seeded', async () => {
    const memory = createMemoryDirectoryItems(documentToItems(DEMO_DIRECTORY_DOCUMENT));
    assert.deepEqual(
      JSON.parse(JSON.stringify(await readSourceDefinitions(items))),
      await readSourceDefinitions(memory),
    );
    const pk = `SUBJECT#dev-user`;
    assert.deepEqual(
      JSON.parse(JSON.stringify(await items.query(pk, 'GRANT#'))),
      await memory.query(pk, 'GRANT#'),
    );
  });

  it('makes a deleted grant disappear on the very next call', async () => {
    const directory = createItemsDirectory({ reader: items, contextCacheTtlMs: 60_000 });
    const user = principal('dev-user');
    assert.ok(await directory.find(user, DEMO_SALES_CONTEXT_HANDLE));
    const key = { pk: { S: 'SUBJECT#dev-user' }, sk: { S: `GRANT#${DEMO_SALES_CONTEXT_HANDLE}` } };
    await client.send(new DeleteItemCommand({ TableName: TABLE, Key: key }));
    try {
      assert.equal(await directory.find(user, DEMO_SALES_CONTEXT_HANDLE), undefined);
      assert.equal((await directory.contextsFor(user)).length, 2);
    } finally {
      await seedDirectory(demoDirectoryDocument(), { table: TABLE, endpoint: db.endpoint });
    }
  });

  it('refuses a guessed handle with exactly the answer a real but not-granted handle gets', async () => {
    const auth = await createDevAuth({ issuer: ISSUER, audience: ENDPOINT });
    const platform = createBosPlatform({
      directory: createItemsDirectory({ reader: items }),
      sources: new Map(),
      verifier: createJwtVerifier({ issuer: ISSUER, audience: ENDPOINT, jwks: auth.jwks }),
      endpoint: ENDPOINT,
      logger: silentLogger,
      serverOptions: { name: 'bos-test', version: '0.0.0' },
    });
    const call = async (token: string, name: string, args: Record<string, unknown>) => {
      const response = await platform.handle(
        new Request(ENDPOINT, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': name,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: {
              name,
              arguments: args,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        }),
      );
      return { status: response.status, body: await response.text() };
    };
    const outsider = auth.tokens.outsider;
    for (const [name, extra] of [
      ['bos_list_tools', {}],
      ['bos_execute', { tool_name: 'search_people', arguments: { query: 'a' } }],
    ] as const) {
      const real = await call(outsider, name, { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, ...extra });
      const guessed = await call(outsider, name, { context_handle: GUESSED, ...extra });
      assert.deepEqual(guessed, real);
      assert.ok(!real.body.includes('Acme'), real.body);
      // The same call succeeds for the principal holding the grant: the refusal is about the grant.
      const granted = await call(auth.tokens['dev-user'], name, {
        context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
        ...extra,
      });
      assert.notDeepEqual(granted, real);
    }
    const listed = await call(outsider, 'bos_list_contexts', {});
    assert.equal(listed.status, 200);
    assert.ok(!listed.body.includes('Acme') && !listed.body.includes('ctx_'), listed.body);
  });

  it('seeds through the CLI, and rejects an invalid file before writing anything', async () => {
    const [second] = await createTables(db.endpoint, [directoryTable], `${PREFIX}cli-`);
    assert.ok(second !== undefined);
    const bad = join(workDir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ ...DEMO_DIRECTORY_DOCUMENT, principals: [{ subject: '', grants: 'x' }] }),
    );
    const cli = ['--import', 'tsx', 'local/seed-directory.ts', '--table', second, '--endpoint', db.endpoint];
    await assert.rejects(run(process.execPath, [...cli, '--file', bad]), (error: unknown) => {
      const failure = error as { code: number; stderr: string };
      assert.equal(failure.code, 2);
      assert.match(failure.stderr, /principals\[0\]\.subject must match/);
      assert.match(failure.stderr, /principals\[0\]\.grants must be an array/);
      return true;
    });
    const empty = new DynamoDbDirectoryItems({ client, tableName: second });
    assert.deepEqual(await empty.query('SOURCES', 'SOURCE#'), []);

    const good = join(workDir, 'good.json');
    writeFileSync(good, JSON.stringify(DEMO_DIRECTORY_DOCUMENT));
    const { stderr } = await run(process.execPath, [...cli, '--file', good]);
    assert.match(stderr, /"message":"directory seeded"/);
    assert.deepEqual(
      await answers(createItemsDirectory({ reader: empty })),
      await answers(createDemoDirectory()),
    );
  });
});
