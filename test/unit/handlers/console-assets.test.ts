/**
 * The console's files as the platform function serves them: the page and its two files only, each under a
 * Content-Security-Policy that allows no inline code and fetches only to this origin and the issuer.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  consoleContentSecurityPolicy,
  createConsoleAssets,
  servesConsolePath,
} from '../../../lambda/handlers/console-assets.js';
import { servesPlatformPath } from '../../../lambda/handlers/compose-platform.js';
import { CONSOLE_PATHS } from '../../../lib/routes.js';

const ISSUER_ORIGIN = 'https://auth.example.test';

describe('console assets', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'console-assets-'));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(join(root, 'app.js'), 'export {};');
    await writeFile(join(root, 'app.css'), 'body{}');
    await writeFile(join(root, 'secret.txt'), 'not served');
  });
  after(() => rm(root, { recursive: true, force: true }));

  const get = (path: string, method = 'GET') =>
    createConsoleAssets({ root, authOrigin: ISSUER_ORIGIN }).handle(
      new Request(`https://api.example.test${path}`, { method }),
      path,
    );

  it('serves every path the API routes to the console', async () => {
    await writeFile(join(root, 'icon.svg'), '<svg/>');
    for (const path of CONSOLE_PATHS) {
      const response = await get(path);
      assert.equal(response.status, 200, path);
      await response.body?.cancel();
    }
  });

  it('serves the page, its script and its style with their media types', async () => {
    const cases = [
      ['/console', 'text/html; charset=utf-8', '<!doctype html><title>console</title>'],
      ['/console/app.js', 'text/javascript; charset=utf-8', 'export {};'],
      ['/console/app.css', 'text/css; charset=utf-8', 'body{}'],
    ] as const;
    for (const [path, type, body] of cases) {
      const response = await get(path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), type, path);
      assert.equal(await response.text(), body, path);
    }
  });

  it('sends every answer with a strict policy: no inline code, fetches to itself and the issuer only', async () => {
    const response = await get('/console');
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.equal(csp, consoleContentSecurityPolicy(ISSUER_ORIGIN));
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self' https:\/\/auth\.example\.test(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal((await get('/console/nothing.js')).headers.get('content-security-policy'), csp);
  });

  it('serves no other file of the folder, and no path that climbs out of it', async () => {
    for (const path of ['/console/secret.txt', '/console/..%2Fsecret.txt', '/console/../index.html']) {
      const response = await get(path);
      assert.equal(response.status, 404, path);
      await response.body?.cancel();
    }
  });

  it('sends /console/ to /console, so the page resolves its relative links from the right folder', async () => {
    const response = await get('/console/');
    assert.equal(response.status, 308);
    assert.equal(
      new URL(response.headers.get('location') ?? '', 'https://x.test/dev/console/').pathname,
      '/dev/console',
    );
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('/console', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const post = await get('/console', 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('answers 404 when the bundle holds no console files', async () => {
    const response = await createConsoleAssets({ root: join(root, 'missing'), authOrigin: '' }).handle(
      new Request('https://api.example.test/console'),
      '/console',
    );
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-security-policy')?.includes("connect-src 'self';"), true);
  });

  it('is part of the platform function: the console paths are served, neighbours are not', () => {
    assert.equal(servesConsolePath('/console'), true);
    assert.equal(servesConsolePath('/console/app.js'), true);
    assert.equal(servesConsolePath('/consoles'), false);
    assert.equal(servesPlatformPath('/console/app.css'), true);
    assert.equal(servesPlatformPath('/mcp/apps/bos/platform'), true);
    assert.equal(servesPlatformPath('/consolex'), false);
  });
});
