/**
 * `npm start -- --directory <file> --secrets <file>`: the command line, and validation that names the field
 * at fault before anything starts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  describeDirectory,
  loadOwnDirectory,
  parseStartArgs,
  StartOptionsError,
} from '../../../local/own-directory.js';
import { REPO_ROOT } from '../../../local/paths.js';

const HANDLE = 'ctx_0123456789abcdef0123456789abcdef';

/** A directory of one context over a SCIM and an LDAP source; `overrides` replace top-level fields. */
function directory(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
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
      },
    ],
    sources: [
      {
        source_id: 'hr-scim',
        adapter: 'scim',
        options: { base_url: 'http://127.0.0.1:4010/scim/v2' },
        credential_ref: 'HR_SCIM_TOKEN',
      },
      {
        source_id: 'corp-ldap',
        adapter: 'ldap',
        options: {
          url: 'ldap://127.0.0.1:4389',
          base_dn: 'dc=example,dc=com',
          bind_dn: 'cn=reader,dc=example,dc=com',
        },
        credential_ref: 'CORP_LDAP_PASSWORD',
      },
    ],
    ...overrides,
  };
}

/** The problems `loadOwnDirectory` reports, or [] when it loads. */
async function problemsOf(run: () => Promise<unknown>): Promise<readonly string[]> {
  try {
    await run();
    return [];
  } catch (error) {
    assert.ok(error instanceof StartOptionsError, String(error));
    return error.problems;
  }
}

describe('npm start options', () => {
  it('reads --directory and --secrets, in either form', () => {
    assert.deepEqual(parseStartArgs(['--directory', 'd.json', '--secrets=.local/s.json']), {
      help: false,
      directory: 'd.json',
      secrets: '.local/s.json',
    });
    assert.deepEqual(parseStartArgs([]), { help: false });
  });

  it('refuses an unknown option, a missing value, and --secrets without --directory', () => {
    assert.throws(() => parseStartArgs(['--dir', 'd.json']), StartOptionsError);
    assert.throws(() => parseStartArgs(['--directory']), StartOptionsError);
    assert.throws(() => parseStartArgs(['--secrets', 's.json']), /--secrets needs --directory/);
  });
});

describe('loading your own directory', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bos-own-directory-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a valid directory and passes each credential as BOS_SECRET_<NAME>', async () => {
    await writeFile(file('ok.json'), JSON.stringify(directory()));
    await writeFile(file('secrets.json'), JSON.stringify({ HR_SCIM_TOKEN: 't0k', CORP_LDAP_PASSWORD: 'pw' }));
    const own = await loadOwnDirectory({
      help: false,
      directory: file('ok.json'),
      secrets: file('secrets.json'),
    });
    assert.deepEqual(own.environment, {
      BOS_SECRET_HR_SCIM_TOKEN: 't0k',
      BOS_SECRET_CORP_LDAP_PASSWORD: 'pw',
    });
    assert.equal(own.document.contexts[0]?.context_handle, HANDLE);
  });

  it('names the document field at fault', async () => {
    await writeFile(file('bad.json'), JSON.stringify(directory({ format: 'v0', principals: 'dev-user' })));
    const problems = await problemsOf(() => loadOwnDirectory({ help: false, directory: file('bad.json') }));
    assert.ok(
      problems.some((p) => p.endsWith('format must be "bos-directory/v1"')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.endsWith('principals must be an array')),
      problems.join('\n'),
    );
  });

  it('names the source option its adapter refuses', async () => {
    const sources = (directory().sources as Record<string, unknown>[]).map((s) =>
      s['source_id'] === 'hr-scim' ? { ...s, options: { base_url: 'ftp://hr.example.com/scim' } } : s,
    );
    await writeFile(file('bad-source.json'), JSON.stringify(directory({ sources })));
    const problems = await problemsOf(() =>
      loadOwnDirectory({ help: false, directory: file('bad-source.json') }),
    );
    assert.deepEqual(problems, [
      `${file('bad-source.json')}: sources[0] (hr-scim): options.base_url must use https (http only on a loopback host)`,
    ]);
  });

  it('names each credential the secrets file lacks, and a value that is not a string', async () => {
    await writeFile(file('ok.json'), JSON.stringify(directory()));
    await writeFile(file('partial.json'), JSON.stringify({ HR_SCIM_TOKEN: 42 }));
    const problems = await problemsOf(() =>
      loadOwnDirectory({ help: false, directory: file('ok.json'), secrets: file('partial.json') }),
    );
    assert.deepEqual(problems, [
      `${file('partial.json')}: "HR_SCIM_TOKEN" must be a non-empty string`,
      `sources[1] (corp-ldap).credential_ref "CORP_LDAP_PASSWORD" has no value in ${file('partial.json')}`,
    ]);
  });

  it('refuses a secrets file inside the repository that git would commit', async () => {
    await writeFile(file('ok.json'), JSON.stringify(directory()));
    const problems = await problemsOf(() =>
      loadOwnDirectory({ help: false, directory: file('ok.json'), secrets: join(REPO_ROOT, 'package.json') }),
    );
    assert.match(problems[0] ?? '', /package\.json is in the repository and not git-ignored/);
  });

  it('prints the contexts, the sources and where each reads, never a secret', () => {
    const lines = describeDirectory('my.json', directory() as never);
    assert.equal(lines[0], 'directory my.json: 1 principal(s), 1 context(s), 2 source(s)');
    assert.ok(lines.includes(`  context ${HANDLE}  Example / People  sources: hr-scim, corp-ldap`));
    assert.ok(
      lines.includes('  source hr-scim  scim  http://127.0.0.1:4010/scim/v2  credential HR_SCIM_TOKEN'),
    );
  });
});
