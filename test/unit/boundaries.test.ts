/**
 * Enforces the dependency rules of DESIGN.md §2 by reading every import in lambda/: the direction between
 * areas, the packages `lambda/mcp` and `lambda/federation` must not use (no AWS SDK or Lambda libraries, no
 * `node:http` or other sockets), no import cycle between modules, and none between the folders of `lambda/mcp`. ESLint has the area rules; this test keeps
 * all of them true even where lint is not run.
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
  // Browser code: the client library only. The function serves the console's built files, never its source.
  console: ['client'],
};

/**
 * Packages the pure areas may not import: AWS (SDK, Lambda types and middleware, CDK) and sockets. Each entry
 * matches the specifier itself or anything under it (`@aws-sdk/` matches every client).
 */
const forbiddenPackages: Record<string, readonly string[]> = {
  'lambda/mcp': [
    '@aws-sdk/',
    '@smithy/',
    'aws-sdk',
    'aws-lambda',
    '@middy/',
    'aws-cdk-lib',
    'http',
    'https',
    'http2',
    'net',
  ],
  'lambda/federation': [
    '@aws-sdk/',
    '@smithy/',
    'aws-sdk',
    'aws-lambda',
    '@middy/',
    'aws-cdk-lib',
    'http',
    'https',
    'http2',
    'net',
  ],
};

const topLevelFolders = ['lambda', 'local', 'client', 'console', 'test', 'bench', 'bin', 'lib', 'tools'];

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

/** The package specifiers of `source` that its area may not import. */
export function packageViolations(file: string, source: string): string[] {
  const area = areaOf(relative(root, file));
  const forbidden = area === undefined ? undefined : forbiddenPackages[area];
  if (forbidden === undefined) return [];
  return importsOf(source)
    .filter((spec) => !spec.startsWith('.'))
    .filter((spec) => {
      const name = spec.replace(/^node:/, '');
      return forbidden.some((entry) =>
        entry.endsWith('/') ? name.startsWith(entry) : name === entry || name.startsWith(`${entry}/`),
      );
    })
    .map((spec) => `${relative(root, file)} imports ${spec}`);
}

/** Every import cycle among `files` (type-only imports included), each as its repository-relative paths. */
export function importCycles(files: readonly string[], read: (file: string) => string): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(read(file))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    edges.set(file, targets);
  }
  // Tarjan's strongly connected components: a component of more than one module is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * Import cycles between the folders below `base` (type-only imports included), each as the sorted folder
 * names of one strongly connected component. Modules directly in `base` (the runtime's public surface and
 * the leaf modules every folder shares) are not a folder of their own; the module-level check covers them.
 */
export function folderCycles(
  base: string,
  files: readonly string[],
  read: (file: string) => string,
): string[][] {
  const folderOf = (file: string): string | undefined => {
    const parts = relative(base, file).split(sep);
    return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
  };
  const folders = new Map<string, string[]>();
  for (const file of files) {
    const folder = folderOf(file);
    if (folder !== undefined) folders.set(folder, [...(folders.get(folder) ?? []), file]);
  }
  // One pseudo-module per folder that imports whatever its files import from other folders.
  const modules = [...folders.keys()].map((folder) => join(base, folder, '(folder).ts'));
  const sources = new Map<string, string>();
  for (const [folder, members] of folders) {
    const targets = new Set<string>();
    for (const file of members)
      for (const spec of importsOf(read(file)).filter((s) => s.startsWith('.'))) {
        const target = folderOf(resolve(dirname(file), spec));
        if (target !== undefined && target !== folder) targets.add(target);
      }
    sources.set(
      join(base, folder, '(folder).ts'),
      [...targets].map((target) => `import '../${target}/(folder).js';`).join('\n'),
    );
  }
  return importCycles(modules, (module) => sources.get(module) ?? '').map((cycle) =>
    cycle.map((path) => relative(relative(root, base), path).split(sep)[0] ?? path).sort(),
  );
}

describe('dependency boundaries (DESIGN.md §2)', () => {
  it('no module in lambda/ imports a layer it may not depend on', () => {
    const files = listTs(join(root, 'lambda'));
    const found = files.flatMap((file) => violations(file, readFileSync(file, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('no module of the console imports anything of ours but the client library', () => {
    const files = listTs(join(root, 'console'));
    assert.ok(files.length > 3);
    const found = files.flatMap((file) => violations(file, readFileSync(file, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('flags lambda/ importing the console, and the console importing lambda/ (the check itself can fail)', () => {
    assert.deepEqual(
      violations(join(root, 'lambda', 'handlers', 'x.ts'), "import { h } from '../../console/dom.js';"),
      ['lambda/handlers/x.ts imports ../../console/dom.js (console)'],
    );
    assert.deepEqual(
      violations(
        join(root, 'console', 'main.ts'),
        "import { MCP_PATH } from '../lambda/handlers/compose-platform.js';",
      ),
      ['console/main.ts imports ../lambda/handlers/compose-platform.js (lambda/handlers)'],
    );
    assert.deepEqual(violations(join(root, 'console', 'main.ts'), "import '../client/mcp-http.js';"), []);
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

  it('lambda/mcp and lambda/federation import no AWS library and no sockets (node:http and the like)', () => {
    const files = [...listTs(join(root, 'lambda', 'mcp')), ...listTs(join(root, 'lambda', 'federation'))];
    assert.ok(files.length > 20);
    const found = files.flatMap((file) => packageViolations(file, readFileSync(file, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('flags an AWS SDK or node:http import in the pure areas, and allows it elsewhere', () => {
    const mcp = join(root, 'lambda', 'mcp', 'server.ts');
    const source = [
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      "import { createServer } from 'node:http';",
      "import type { Context } from 'aws-lambda';",
      "import { randomBytes } from 'node:crypto';",
      "import { Ajv } from 'ajv';",
      "const https = await import('https');",
    ].join('\n');
    assert.deepEqual(packageViolations(mcp, source), [
      'lambda/mcp/server.ts imports @aws-sdk/client-dynamodb',
      'lambda/mcp/server.ts imports node:http',
      'lambda/mcp/server.ts imports aws-lambda',
      'lambda/mcp/server.ts imports https',
    ]);
    const federation = join(root, 'lambda', 'federation', 'engine.ts');
    assert.deepEqual(packageViolations(federation, "import { x } from 'node:http2';"), [
      'lambda/federation/engine.ts imports node:http2',
    ]);
    assert.deepEqual(packageViolations(join(root, 'lambda', 'aws', 'env.ts'), source), []);
  });

  it('no module in lambda/ is part of an import cycle (type-only imports included)', () => {
    const files = listTs(join(root, 'lambda')).map((file) => resolve(file));
    assert.deepEqual(
      importCycles(files, (file) => readFileSync(file, 'utf8')),
      [],
    );
  });

  it('no two folders of lambda/mcp import each other, directly or around a loop', () => {
    const base = join(root, 'lambda', 'mcp');
    const files = listTs(base).map((file) => resolve(file));
    assert.deepEqual(
      folderCycles(base, files, (file) => readFileSync(file, 'utf8')),
      [],
    );
  });

  it('finds a folder cycle made of modules that form no module cycle (the check itself can fail)', () => {
    const base = join(root, 'lambda', 'mcp');
    const a1 = join(base, 'alpha', 'one.ts');
    const a2 = join(base, 'alpha', 'two.ts');
    const b1 = join(base, 'beta', 'one.ts');
    const top = join(base, 'server.ts');
    const sources: Record<string, string> = {
      [a1]: "import type { B } from '../beta/one.js';",
      [a2]: "export const a = 1; import '../errors.js';",
      [b1]: "import { a } from '../alpha/two.js';",
      [top]: "import '../mcp/alpha/one.js';",
    };
    const files = [a1, a2, b1, top];
    assert.deepEqual(
      importCycles(files, (file) => sources[file] ?? ''),
      [],
    );
    assert.deepEqual(
      folderCycles(base, files, (file) => sources[file] ?? ''),
      [['alpha', 'beta']],
    );
  });

  it('finds a cycle through a type-only import (the check itself can fail)', () => {
    const a = join(root, 'lambda', 'mcp', 'a.ts');
    const b = join(root, 'lambda', 'mcp', 'b.ts');
    const c = join(root, 'lambda', 'mcp', 'c.ts');
    const sources: Record<string, string> = {
      [a]: "import { b } from './b.js';",
      [b]: "import type { C } from './c.js';",
      [c]: "export { a } from './a.js';",
    };
    assert.deepEqual(
      importCycles([a, b, c], (file) => sources[file] ?? ''),
      [['lambda/mcp/a.ts', 'lambda/mcp/b.ts', 'lambda/mcp/c.ts']],
    );
  });
});
