/**
 * Enforces the dependency direction of DESIGN.md §2 by reading every import in lambda/.
 * ESLint has the same rules; this test keeps them true even where lint is not run.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Folders of ours each lambda area may import (besides itself and npm packages). */
const allowed: Record<string, readonly string[]> = {
  'lambda/mcp': [],
  'lambda/federation': [],
  'lambda/sources': ['lambda/federation'],
  'lambda/bos': ['lambda/mcp', 'lambda/federation'],
  'lambda/aws': ['lambda/mcp'],
  'lambda/handlers': ['lambda/mcp', 'lambda/federation', 'lambda/bos', 'lambda/sources', 'lambda/aws'],
};

const topLevelFolders = ['lambda', 'local', 'client', 'test', 'bench', 'bin', 'lib', 'tools'];

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTs(path));
    else if (/\.(ts|mts|cts|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

/** Import specifiers of a module: static imports, re-exports, dynamic imports and requires. */
export function importsOf(source: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[\w*{}\s,]+\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) specs.push(match[1] ?? '');
  return specs;
}

/** The area (e.g. `lambda/mcp`, `local`) a repository-relative path belongs to. */
export function areaOf(repoPath: string): string | undefined {
  const parts = repoPath.split(sep).join('/').split('/');
  if (parts[0] === 'lambda' && parts.length > 2) return `lambda/${parts[1]}`;
  return topLevelFolders.includes(parts[0] ?? '') ? parts[0] : undefined;
}

export function violations(file: string, source: string): string[] {
  const fromArea = areaOf(relative(root, file));
  if (fromArea === undefined || !(fromArea in allowed)) return [];
  const permitted = new Set([fromArea, ...(allowed[fromArea] ?? [])]);
  const found: string[] = [];
  for (const spec of importsOf(source)) {
    if (!spec.startsWith('.')) continue;
    const target = areaOf(relative(root, resolve(dirname(file), spec)));
    if (target !== undefined && !permitted.has(target))
      found.push(`${relative(root, file)} imports ${spec} (${target})`);
  }
  return found;
}

describe('dependency boundaries (DESIGN.md §2)', () => {
  it('no module in lambda/ imports a layer it may not depend on', () => {
    const files = listTs(join(root, 'lambda'));
    const found = files.flatMap((file) => violations(file, readFileSync(file, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('flags a forbidden import (the check itself can fail)', () => {
    const file = join(root, 'lambda', 'mcp', 'server.ts');
    assert.deepEqual(violations(file, "import { x } from '../bos/index.js';"), [
      'lambda/mcp/server.ts imports ../bos/index.js (lambda/bos)',
    ]);
    assert.deepEqual(violations(file, "import type { y } from '../../local/start.js';"), [
      'lambda/mcp/server.ts imports ../../local/start.js (local)',
    ]);
    assert.deepEqual(violations(join(root, 'lambda', 'bos', 'tools.ts'), "import '../mcp/index.js';"), []);
    assert.deepEqual(
      violations(join(root, 'lambda', 'federation', 'engine.ts'), "await import('../aws/env.js')"),
      ['lambda/federation/engine.ts imports ../aws/env.js (lambda/aws)'],
    );
  });
});
