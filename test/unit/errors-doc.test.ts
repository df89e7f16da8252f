/**
 * docs/errors.md names every code the product sends, and nothing else: the JSON-RPC codes of the runtime's
 * one table (and any literal code in the source), the source error codes, the CLI's exit codes, and the HTTP
 * statuses the function, the CDK gateway responses and the local REST front answer with.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI_EXIT_CODES } from '../../client/cli-output.js';
import { SOURCE_ERROR_CODES } from '../../lambda/federation/index.js';
import { JsonRpcCode } from '../../lambda/mcp/index.js';
import { UNAUTHORIZED_JSON_RPC_CODE } from '../../lib/constructs/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const doc = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');

/** The codes in the first column of the table under `## <heading>` (each written as `code`). */
function documented(heading: string): string[] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/errors.md has a "## ${heading}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1] ?? '');
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Code that answers clients: the function, the CDK stack, the local stack's HTTP fronts. */
const shipped = [
  ...sourceFiles(join(root, 'lambda')),
  ...sourceFiles(join(root, 'lib')),
  ...sourceFiles(join(root, 'local')).filter(
    (f) => !f.includes('/runtime-api/') && !f.includes('/providers/') && !f.includes('/conformance/'),
  ),
];

/** Every match of `pattern`'s first group in the shipped code outside comments. */
function inCode(pattern: RegExp): Set<string> {
  const found = new Set<string>();
  for (const file of shipped) {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(pattern)) found.add(match[1] ?? '');
  }
  return found;
}

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

describe('docs/errors.md', () => {
  it('lists every JSON-RPC code of the runtime table, and only those', () => {
    assert.deepEqual(
      sorted(documented('JSON-RPC error codes')),
      sorted(Object.values(JsonRpcCode).map(String)),
    );
  });

  it('gives each JSON-RPC code one name in the table', () => {
    const values = Object.values(JsonRpcCode);
    assert.equal(new Set(values).size, values.length);
  });

  it('answers API Gateway’s own 401 with the same code as the function’s 401', () => {
    assert.equal(UNAUTHORIZED_JSON_RPC_CODE, JsonRpcCode.Unauthorized);
  });

  it('knows every JSON-RPC code written as a number in the shipped code', () => {
    const table = new Set(Object.values(JsonRpcCode).map(String));
    const literal = [...inCode(/(?<![\w.])(-32\d{3})\b/g)].filter((code) => !table.has(code));
    assert.deepEqual(literal, [], 'use JsonRpcCode for these codes, or add them to the table and the doc');
  });

  it('lists the five source error codes', () => {
    assert.deepEqual(sorted(documented('Source error codes')), sorted(SOURCE_ERROR_CODES));
  });

  it('lists the CLI exit codes of the client table', () => {
    assert.deepEqual(
      sorted(documented('CLI exit codes')),
      sorted(Object.values(CLI_EXIT_CODES).map((e) => String(e.code))),
    );
  });

  it('lists every HTTP status the shipped code answers with', () => {
    const statuses = new Set([
      ...inCode(/\b(?:rpcError|plainError|jsonRpcErrorResponse|writeHead)\(\s*([1-5]\d\d)\b/g),
      ...inCode(/sendGatewayError\(\s*\w+,\s*([1-5]\d\d)\b/g),
      ...inCode(/\bstatus(?:Code)?: '?([1-5]\d\d)\b/g),
    ]);
    const listed = new Set(documented('HTTP statuses'));
    const missing = [...statuses].filter((status) => !listed.has(status));
    assert.deepEqual(missing, []);
  });
});
