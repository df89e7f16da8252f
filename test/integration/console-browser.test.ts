/**
 * The operator console in a real browser (Debian's `chromium`, driven by playwright-core) against the local
 * stack as `npm start` runs it (local providers included): sign in through the local issuer with PKCE, run
 * the demo search, see pages of at least five sources on the timeline before the final result, a result
 * table as long as the CLI's `result_count`; the outsider sees no context; axe finds nothing serious.
 *
 * Skips, saying why, when `/usr/bin/chromium` is missing (`.ci/run` installs it). Set
 * `CONSOLE_SCREENSHOT_DIR` to also write the screenshots docs/console.md shows.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { McpHttpClient } from '../../client/mcp-http.js';
import { DEMO_PEOPLE_CONTEXT_HANDLE } from '../../lambda/bos/index.js';
import { startStack } from '../../local/stack.js';
import type { LocalStack } from '../../local/stack.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const skipReason = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is not installed (apt-get install -y chromium); the console browser test needs it`;
const screenshotDir = process.env['CONSOLE_SCREENSHOT_DIR'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: unknown[];
}

/** Runs axe-core in the page. `evaluate` goes through the DevTools protocol, which the page's CSP does not govern. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: object, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    // Rows past the 50th are built by the same code as the first 50; checking all 1,840 takes minutes.
    const results = await axe.run(
      { exclude: [['#result-table tbody tr:nth-child(n+51)']] },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
    );
    return results.violations;
  });
}

/** Signs in from the console's page with the keyboard: the login hint, then Enter. */
async function signIn(page: Page, consoleUrl: string, user: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.focus('#login-hint');
  await page.keyboard.type(user);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#contexts:not([hidden])');
}

describe('operator console in a real browser', { skip: skipReason ?? false }, () => {
  let stack: LocalStack;
  let context: BrowserContext;
  let profile: string;
  const functionLines: string[] = [];
  const pageProblems: string[] = [];

  before(async () => {
    if (skipReason !== undefined) return;
    stack = await startStack({
      providers: true,
      bundleDir: '.local/test-bundles/console',
      poolSize: 2,
      onFunctionLog: ({ line }) => functionLines.push(line),
    });
    profile = await mkdtemp(join(tmpdir(), 'console-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
    context.on('page', (page) => {
      // A CSP violation, a script error or a failed request is a failure of the console, reported at the end.
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
          pageProblems.push(message.text());
      });
      page.on('response', (response) => {
        const request = response.request();
        // The one expected failure: the endpoint's 401 to the unauthenticated probe that starts discovery.
        const probe = response.status() === 401 && request.headers()['authorization'] === undefined;
        if (response.status() >= 400 && !probe)
          pageProblems.push(`${response.status()} ${request.method()} ${response.url()}`);
      });
      page.on('pageerror', (error) => pageProblems.push(error.message));
    });
  });

  after(async () => {
    await context?.close();
    await stack?.close();
    if (profile !== undefined) await rm(profile, { recursive: true, force: true });
  });

  it('is served beside the endpoint with a strict Content-Security-Policy', async () => {
    const response = await fetch(stack.consoleUrl);
    assert.equal(response.status, 200);
    assert.equal(stack.consoleUrl, stack.url.replace('/mcp/apps/bos/platform', '/console'));
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'; script-src 'self'; style-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.doesNotMatch(await response.text(), /<script>|<style>|\sstyle=|\son\w+=/);
  });

  it('signs in as dev-user, streams the demo search onto the timeline, then shows the merged result', async () => {
    const page = await context.newPage();
    await signIn(page, stack.consoleUrl, 'dev-user');

    // The token is in memory only: not in the address, not in storage.
    assert.doesNotMatch(page.url(), /code=|token|state=/);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    assert.doesNotMatch(stored, /eyJ|access_token|verifier/);
    assert.equal(await page.evaluate(() => localStorage.length), 0);

    await page.click(`[data-context="${DEMO_PEOPLE_CONTEXT_HANDLE}"]`);
    await page.focus('[data-tool="search_people"]');
    await page.keyboard.press('Enter');
    await page.fill('#arg-search_people-query', 'a');

    // Watches every DOM change: did five lanes show pages at a moment when no result was shown yet?
    await page.evaluate(() => {
      const seen = window as unknown as { pagesBeforeFinal: boolean };
      seen.pagesBeforeFinal = false;
      const observer = new MutationObserver(() => {
        if (document.getElementById('result-table') !== null) return observer.disconnect();
        const lanes = Array.from(document.querySelectorAll('#timeline-lanes .lane'));
        if (lanes.filter((lane) => lane.querySelector('.mark') !== null).length >= 5)
          seen.pagesBeforeFinal = true;
      });
      observer.observe(document.body, { subtree: true, childList: true });
    });
    await page.click('#run');
    await page.waitForSelector('#result-table', { timeout: 60_000 });
    assert.equal(
      await page.evaluate(() => (window as unknown as { pagesBeforeFinal: boolean }).pagesBeforeFinal),
      true,
      'pages of at least five sources were on the timeline before the final result',
    );
    await page.waitForSelector('#timeline-summary');

    const shown = await page.evaluate(() => ({
      rows: document.querySelectorAll('#result-table tbody tr').length,
      resultCount: document.querySelector('[data-field="result_count"]')?.textContent,
      completeness: document.querySelector('[data-field="completeness"]')?.textContent,
      lanes: document.querySelectorAll('#timeline-lanes .lane').length,
      errorLanes: Array.from(
        document.querySelectorAll('#timeline-lanes .lane[data-state="error"] .lane-error'),
      ).map((p) => p.textContent),
      summary: document.getElementById('timeline-summary')?.textContent,
      cli: document.getElementById('cli-command')?.textContent,
      merged: Array.from(document.querySelectorAll('#result-table tbody td')).some((td) =>
        td.textContent?.startsWith('merged on'),
      ),
    }));
    assert.equal(String(shown.rows), shown.resultCount);
    assert.match(shown.summary ?? '', /^Final frame at \d+ ms\. Whole call: \d+ ms\.$/);
    assert.ok(shown.merged, 'some people are merged across sources and say on which keys');
    // The demo's hanging source times out, and the lane says what that means to an operator.
    assert.ok(
      shown.errorLanes.some((text) => text?.includes('timeout')),
      JSON.stringify(shown.errorLanes),
    );
    assert.equal(shown.completeness, 'partial');

    // The same call with the CLI's client gives the same count.
    const cli = new McpHttpClient({ url: stack.url, token: stack.devTokens?.['dev-user'] ?? '' });
    const outcome = await cli.callTool(
      'bos_execute',
      { context_handle: DEMO_PEOPLE_CONTEXT_HANDLE, tool_name: 'search_people', arguments: { query: 'a' } },
      { stream: true },
    );
    await cli.close();
    assert.ok(outcome.confirmed);
    assert.equal(shown.rows, outcome.resultCount);
    assert.match(
      shown.cli ?? '',
      new RegExp(`execute ${DEMO_PEOPLE_CONTEXT_HANDLE} search_people '\\{"query":"a"\\}' --stream$`),
    );

    if (screenshotDir !== undefined) {
      await page.locator('#timeline').screenshot({ path: resolve(screenshotDir, 'console-timeline.png') });
      await page.locator('#result').screenshot({ path: resolve(screenshotDir, 'console-result.png') });
    }

    const violations = await axeViolations(page);
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      serious.map((v) => `${v.id} (${v.impact}): ${v.help}`),
      [],
    );
    process.stdout.write(
      `# axe-core: ${violations.length} violations (${serious.length} serious or critical)` +
        `${violations.map((v) => ` ${v.id}:${v.impact}`).join('')}\n`,
    );

    // 200 % zoom of a 1280 px window: the page reflows into 640 CSS px without sideways scrolling.
    await page.setViewportSize({ width: 640, height: 900 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 640 CSS px`);
    await page.close();
  });

  it('signs in as outsider and shows no context', async () => {
    const page = await context.newPage();
    await signIn(page, stack.consoleUrl, 'outsider');
    await page.waitForSelector('#no-contexts');
    assert.equal(await page.locator('#context-choices').count(), 0);
    await page.close();
  });

  it('met no script error or CSP violation in the page, and the function logged no error', () => {
    assert.deepEqual(pageProblems, []);
    const errors = functionLines.filter((line) => /"level":"(ERROR|WARN)"/.test(line));
    assert.deepEqual(errors, []);
  });
});
