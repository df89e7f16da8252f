/**
 * The items-backed directory (what DynamoDB serves) against the in-memory demo directory, the
 * `bos-directory/v1` document validation, and source credentials by name.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import {
  createDemoDirectory,
  createEnvCredentialResolver,
  createItemsDirectory,
  createMemoryDirectoryItems,
  DEMO_DIRECTORY_DOCUMENT,
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
  documentToItems,
  parseDirectoryDocument,
  readSourceDefinitionEntries,
  readSourceDefinitions,
  sourceCredential,
} from '../../../lambda/bos/index.js';
import type { Directory, DirectoryItem, DirectoryItemsReader } from '../../../lambda/bos/index.js';

const GUESSED = 'ctx_00000000000000000000000000000000';
const SUBJECTS = ['dev-user', 'outsider', 'nobody'];
const HANDLES = [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE, GUESSED, 'ctx_x', '', '../etc'];

const principal = (subject: string) => ({ subject, scopes: ['bos.read'] });

/** Everything a directory answers for the demo subjects and handles, as one comparable value. */
async function answers(directory: Directory): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const subject of SUBJECTS) {
    out[`${subject} list`] = await directory.contextsFor(principal(subject));
    for (const handle of HANDLES)
      out[`${subject} ${handle}`] = await directory.find(principal(subject), handle);
  }
  return out;
}

/** A reader over a mutable item list, counting calls. */
function mutableReader(items: DirectoryItem[]): DirectoryItemsReader & { calls: number } {
  const reader = {
    calls: 0,
    query(pk: string, prefix: string) {
      reader.calls += 1;
      return createMemoryDirectoryItems(items).query(pk, prefix);
    },
    get(pk: string, sk: string) {
      reader.calls += 1;
      return createMemoryDirectoryItems(items).get(pk, sk);
    },
  };
  return reader;
}

describe('items-backed directory', () => {
  it('answers exactly like the in-memory demo directory on the demo data', async () => {
    const items = documentToItems(DEMO_DIRECTORY_DOCUMENT);
    const directory = createItemsDirectory({ reader: createMemoryDirectoryItems(items) });
    const expected = await answers(createDemoDirectory());
    assert.deepEqual(await answers(directory), expected);
    // Sanity: the comparison is not vacuous.
    assert.equal(((expected as Record<string, unknown[]>)['dev-user list'] ?? []).length, 3);
  });

  it('re-reads the grant on every call, so a revoked grant disappears at once despite the context cache', async () => {
    const items = documentToItems(DEMO_DIRECTORY_DOCUMENT);
    const reader = mutableReader(items);
    const directory = createItemsDirectory({ reader, contextCacheTtlMs: 60_000 });
    const user = principal('dev-user');
    assert.ok(await directory.find(user, DEMO_SALES_CONTEXT_HANDLE));
    const index = items.findIndex((i) => i.sk === `GRANT#${DEMO_SALES_CONTEXT_HANDLE}`);
    items.splice(index, 1);
    assert.equal(await directory.find(user, DEMO_SALES_CONTEXT_HANDLE), undefined);
    assert.deepEqual(
      (await directory.contextsFor(user)).map((g) => g.context.context_handle),
      [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_COMPLETE_CONTEXT_HANDLE],
    );
  });

  it('reuses a context definition only within its TTL', async () => {
    let now = 1_000_000;
    const reader = mutableReader(documentToItems(DEMO_DIRECTORY_DOCUMENT));
    const directory = createItemsDirectory({ reader, contextCacheTtlMs: 5_000, clock: () => now });
    await directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE);
    const first = reader.calls;
    await directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE);
    assert.equal(reader.calls, first + 1, 'grant read again, context from cache');
    now += 5_000;
    await directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE);
    assert.equal(reader.calls, first + 3, 'grant and context read again after the TTL');
  });

  it('ignores a grant whose expiresAt has passed even if the store still holds it', async () => {
    const now = Date.parse('2026-10-08T12:00:00Z');
    const items = documentToItems(DEMO_DIRECTORY_DOCUMENT).map((item) =>
      item.sk === `GRANT#${DEMO_PEOPLE_CONTEXT_HANDLE}` ? { ...item, expiresAt: now / 1000 - 1 } : item,
    );
    const directory = createItemsDirectory({ reader: createMemoryDirectoryItems(items), clock: () => now });
    assert.equal(await directory.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), undefined);
    assert.equal((await directory.contextsFor(principal('dev-user'))).length, 2);
  });

  it('fails closed on a malformed context item and on a store outage', async () => {
    const items = documentToItems(DEMO_DIRECTORY_DOCUMENT).map((item) =>
      item.pk === `CONTEXT#${DEMO_PEOPLE_CONTEXT_HANDLE}` ? { ...item, is_default: 'yes' } : item,
    );
    const broken = createItemsDirectory({ reader: createMemoryDirectoryItems(items) });
    await assert.rejects(broken.contextsFor(principal('dev-user')), {
      name: 'DirectoryDataError',
      code: 'invalid_item',
    });
    const down = createItemsDirectory({
      reader: {
        query: () => Promise.reject(new Error('ECONNREFUSED')),
        get: () => Promise.reject(new Error('x')),
      },
    });
    await assert.rejects(down.find(principal('dev-user'), DEMO_PEOPLE_CONTEXT_HANDLE), {
      name: 'StoreUnavailableError',
      store: 'directory',
    });
  });

  it('reads the source definitions back in id order', async () => {
    const reader = createMemoryDirectoryItems(documentToItems(DEMO_DIRECTORY_DOCUMENT));
    const sources = await readSourceDefinitions(reader);
    assert.deepEqual(
      sources.map((s) => s.source_id),
      [...DEMO_DIRECTORY_DOCUMENT.sources.map((s) => s.source_id)].sort(),
    );
    assert.deepEqual(sources[0], {
      source_id: 'acme-archive',
      adapter: 'fixture',
      options: { source_type: 'archive', record_count: 0 },
    });
    assert.equal(sources.find((s) => s.source_id === 'acme-crm')?.credential_ref, 'ACME_CRM_TOKEN');
  });

  it('reads each source definition on its own, so one malformed item does not hide the others', async () => {
    // Prepare
    const items = documentToItems(DEMO_DIRECTORY_DOCUMENT).map((item) =>
      item.sk === 'SOURCE#acme-legacy' ? { ...item, options: 'not a map' } : item,
    );
    const reader = createMemoryDirectoryItems(items);
    // Act
    const entries = await readSourceDefinitionEntries(reader);
    // Assess
    await assert.rejects(readSourceDefinitions(reader), { name: 'DirectoryDataError' });
    assert.equal(entries.length, 5);
    const legacy = entries.find((e) => e.source_id === 'acme-legacy');
    assert.ok(legacy !== undefined && 'error' in legacy);
    assert.equal(legacy.error.code, 'invalid_item');
    assert.match(legacy.error.message, /"options"/);
    const good = entries.filter((e) => 'definition' in e).map((e) => e.source_id);
    assert.deepEqual(good, ['acme-archive', 'acme-crm', 'acme-directory', 'acme-hr']);
  });
});

describe('bos-directory/v1 documents', () => {
  it('accepts the embedded demo directory after a JSON round trip', () => {
    const parsed = parseDirectoryDocument(JSON.parse(JSON.stringify(DEMO_DIRECTORY_DOCUMENT)));
    assert.deepEqual(parsed, DEMO_DIRECTORY_DOCUMENT);
  });

  it('lists every problem of a bad document at once, by path', () => {
    type Loose = Record<string, unknown>;
    const bad = JSON.parse(JSON.stringify(DEMO_DIRECTORY_DOCUMENT)) as Record<string, Loose[]>;
    const at = (list: string, index: number): Loose => bad[list]?.[index] ?? {};
    at('contexts', 0)['context_handle'] = 'people';
    at('contexts', 1)['source_ids'] = ['acme-crm', 'acme-nowhere'];
    bad['principals']?.push({ subject: 'outsider', grants: [GUESSED] });
    at('sources', 0)['credential_ref'] = 'sk_live_abc123';
    assert.throws(
      () => parseDirectoryDocument(bad),
      (error: unknown) => {
        assert.ok(error instanceof Error && error.name === 'DirectoryDocumentError');
        const problems = (error as unknown as { problems: string[] }).problems;
        assert.deepEqual(
          problems.map((p) => p.split(' ')[0]),
          [
            'sources[0].credential_ref',
            'contexts[0].context_handle',
            'contexts[1].source_ids:',
            'principals[0].grants:',
            'principals[2].grants:',
            'principals:',
          ],
        );
        // A value put where a name belongs is not repeated back.
        assert.ok(!error.message.includes('sk_live_abc123'));
        return true;
      },
    );
  });

  it('refuses a non-object and a wrong format marker', () => {
    assert.throws(() => parseDirectoryDocument([]), { name: 'DirectoryDocumentError' });
    assert.throws(() => parseDirectoryDocument({ ...DEMO_DIRECTORY_DOCUMENT, format: 'v0' }), {
      message: /format must be "bos-directory\/v1"/,
    });
  });
});

describe('source credentials by name', () => {
  const SECRET = 'sup3r-s3cret-value-9f1c';

  it('resolves BOS_SECRET_<NAME> from the given environment only when asked', async () => {
    const credential = sourceCredential(
      createEnvCredentialResolver({ BOS_SECRET_ACME_HR: SECRET }),
      'ACME_HR',
    );
    assert.equal(await credential.value(), SECRET);
  });

  it('shows only the name when serialised, printed or inspected', () => {
    const credential = sourceCredential(
      createEnvCredentialResolver({ BOS_SECRET_ACME_HR: SECRET }),
      'ACME_HR',
    );
    for (const shown of [JSON.stringify({ credential }), String(credential), inspect({ credential })]) {
      assert.ok(shown.includes('[credential ACME_HR]'), shown);
      assert.ok(!shown.includes(SECRET), shown);
    }
  });

  it('names the missing or invalid reference in the error, never a value', async () => {
    const resolver = createEnvCredentialResolver({ BOS_SECRET_OTHER: SECRET });
    await assert.rejects(resolver.resolve('ACME_HR'), {
      name: 'CredentialError',
      code: 'unknown_credential',
      message: 'credential ACME_HR is not configured (BOS_SECRET_ACME_HR)',
    });
    await assert.rejects(resolver.resolve('acme hr'), { code: 'invalid_reference' });
  });
});
