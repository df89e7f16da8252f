import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createDemoDirectory,
  createInMemoryDirectory,
  DEMO_COMPLETE_CONTEXT_HANDLE,
  DEMO_PEOPLE_CONTEXT_HANDLE,
  DEMO_SALES_CONTEXT_HANDLE,
} from '../../../lambda/bos/directory/index.js';

const devUser = { subject: 'dev-user', scopes: ['bos.read'] };
const outsider = { subject: 'outsider', scopes: ['bos.read'] };

describe('demo directory', () => {
  it('grants dev-user the default People Directory context over the five demo sources', async () => {
    const [people, sales, complete, ...rest] = await createDemoDirectory().contextsFor(devUser);
    assert.equal(rest.length, 0);
    assert.equal(complete?.context.context_handle, DEMO_COMPLETE_CONTEXT_HANDLE);
    assert.deepEqual(people?.context, {
      context_handle: DEMO_PEOPLE_CONTEXT_HANDLE,
      organization_name: 'Acme Corp',
      application_name: 'People Directory',
      installation_name: 'Production',
      role_label: 'Analyst',
      is_default: true,
    });
    assert.deepEqual(people?.sourceIds, [
      'acme-hr',
      'acme-crm',
      'acme-directory',
      'acme-archive',
      'acme-legacy',
    ]);
    assert.equal(people?.sourceTimeoutMs, 1500);
    assert.equal(sales?.context.application_name, 'Sales');
    assert.equal(sales?.context.is_default, false);
    assert.deepEqual(sales?.sourceIds, ['acme-crm']);
  });

  it('grants outsider nothing, and finds no dev-user handle for it', async () => {
    const directory = createDemoDirectory();
    assert.deepEqual(await directory.contextsFor(outsider), []);
    assert.equal(await directory.find(outsider, DEMO_PEOPLE_CONTEXT_HANDLE), undefined);
    assert.equal(await directory.find(outsider, DEMO_SALES_CONTEXT_HANDLE), undefined);
  });

  it('uses 128-bit random-looking handles', () => {
    for (const handle of [DEMO_PEOPLE_CONTEXT_HANDLE, DEMO_SALES_CONTEXT_HANDLE]) {
      assert.match(handle, /^ctx_[0-9a-f]{32}$/);
    }
  });
});

describe('in-memory directory', () => {
  const grant = (handle: string) => ({
    context: {
      context_handle: handle,
      organization_name: 'O',
      application_name: 'A',
      installation_name: 'I',
      role_label: 'R',
      is_default: false,
    },
    operations: ['search_people'],
    sourceIds: ['s'],
  });

  it('answers an unknown handle and a not-granted handle the same way', async () => {
    const directory = createInMemoryDirectory({
      contexts: [grant('ctx_a'), grant('ctx_b')],
      grants: { alice: ['ctx_a'] },
    });
    const alice = { subject: 'alice', scopes: [] };
    assert.equal((await directory.find(alice, 'ctx_a'))?.context.context_handle, 'ctx_a');
    assert.equal(await directory.find(alice, 'ctx_b'), undefined);
    assert.equal(await directory.find(alice, 'ctx_zzz'), undefined);
  });

  it('ignores prototype keys as subjects and grants naming contexts that do not exist', async () => {
    const directory = createInMemoryDirectory({ contexts: [grant('ctx_a')], grants: { bob: ['ctx_gone'] } });
    assert.deepEqual(await directory.contextsFor({ subject: '__proto__', scopes: [] }), []);
    assert.deepEqual(await directory.contextsFor({ subject: 'constructor', scopes: [] }), []);
    assert.deepEqual(await directory.contextsFor({ subject: 'bob', scopes: [] }), []);
  });
});
