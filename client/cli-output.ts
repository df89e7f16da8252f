/**
 * What the CLI prints: one line per streamed event, then a summary of the final result, as text or as
 * JSON lines. Provisional pages and the authoritative result are labelled as such (contract §4–§5).
 */
import type { ResumeAttempt } from './resume.js';
import type {
  PageOrigin,
  ProtocolViolation,
  ProvisionalPage,
  SourceRef,
  SourceResultsOutcome,
  SourceTerminal,
} from './source-results-types.js';

/** Where the CLI writes (injected so tests capture it). */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

const label = (s: SourceRef): string => `${s.source_type}/${s.source_identity}`;
const ms = (elapsedMs: number): string => `+${String(elapsedMs).padStart(6)} ms`;

/** Prints one provisional page (time since start, source, pageIndex, record count, status). */
export function printPage(io: CliIo, json: boolean, page: ProvisionalPage): void {
  if (json)
    io.stdout(
      JSON.stringify({
        event: 'page',
        t_ms: page.elapsedMs,
        source: page.source,
        pageIndex: page.pageIndex,
        records: page.records.length,
        status: 'page',
        sequence: page.sequence,
        provisional: true,
        origin: page.origin,
      }),
    );
  else
    io.stdout(
      `${ms(page.elapsedMs)}  ${label(page.source)}  pageIndex=${page.pageIndex}  records=${page.records.length}  page (provisional, ${ORIGIN_TEXT[page.origin]})`,
    );
}

const ORIGIN_TEXT: Readonly<Record<PageOrigin, string>> = {
  cache_baseline: 'from baseline',
  source_delta: 'from delta',
  live_provider: 'live',
};

/**
 * Per source, where its pages came from (`baseline`, `baseline + delta`, `live`), from the pages' origins;
 * sources that sent no page are left out (nothing says how they were read).
 */
export function retrievalBySource(
  pages: readonly ProvisionalPage[],
): { source: SourceRef; retrieval: string }[] {
  const bySource = new Map<string, { source: SourceRef; origins: Set<PageOrigin> }>();
  for (const page of pages) {
    const key = JSON.stringify([page.source.source_type, page.source.source_identity]);
    const entry = bySource.get(key) ?? { source: page.source, origins: new Set<PageOrigin>() };
    entry.origins.add(page.origin);
    bySource.set(key, entry);
  }
  return [...bySource.values()].map(({ source, origins }) => ({
    source,
    retrieval: (['cache_baseline', 'source_delta', 'live_provider'] as const)
      .filter((o) => origins.has(o))
      .map((o) => ORIGIN_TEXT[o].replace('from ', ''))
      .join(' + '),
  }));
}

/** Prints a source's `complete` or `error` terminal. */
export function printTerminal(io: CliIo, json: boolean, terminal: SourceTerminal): void {
  if (json) {
    const line: Record<string, unknown> = {
      event: terminal.status,
      t_ms: terminal.elapsedMs,
      source: terminal.source,
      pageIndex: terminal.pageIndex,
      records: 0,
      status: terminal.status,
      sequence: terminal.sequence,
    };
    if (terminal.errorCode !== undefined) line.code = terminal.errorCode;
    io.stdout(JSON.stringify(line));
    return;
  }
  const code = terminal.errorCode !== undefined ? `  code=${terminal.errorCode}` : '';
  io.stdout(
    `${ms(terminal.elapsedMs)}  ${label(terminal.source)}  pageIndex=${terminal.pageIndex}  records=0  ${terminal.status}${code}`,
  );
}

/** Prints a detected contract breach. */
export function printViolation(io: CliIo, json: boolean, violation: ProtocolViolation): void {
  if (json) io.stdout(JSON.stringify({ event: 'violation', ...violation }));
  else io.stderr(`protocol violation (${violation.kind}): ${violation.message}`);
}

/** A reconnection after the stream broke (`Last-Event-ID`); the call goes on. */
export function printResume(io: CliIo, json: boolean, attempt: ResumeAttempt): void {
  if (json) io.stdout(JSON.stringify({ event: 'resume', ...attempt }));
  else
    io.stderr(
      `stream broken; resuming after event ${attempt.lastEventId} (attempt ${attempt.attempt}, after ${attempt.delayMs} ms)`,
    );
}

/** The summary of the final result; `withResult` also prints the result body (non-stream mode). */
export function printOutcome(
  io: CliIo,
  json: boolean,
  outcome: SourceResultsOutcome,
  withResult: boolean,
): void {
  const pages = outcome.observedPages.length;
  if (!outcome.confirmed) {
    if (json)
      io.stdout(
        JSON.stringify({
          event: 'final',
          confirmed: false,
          reason: outcome.reason,
          cause: outcome.cause,
          observed_pages: pages,
          violations: outcome.violations.length,
        }),
      );
    else
      io.stdout(
        `final: NO CONFIRMED RESULT (${outcome.cause}); ${pages} provisional page(s) observed — apply the operation's retry rules`,
      );
    return;
  }
  const summary: Record<string, unknown> = {
    event: 'final',
    confirmed: true,
    delivery: outcome.delivery,
    isError: outcome.isError,
    completeness: outcome.completeness ?? null,
    result_count: outcome.resultCount ?? null,
    records: outcome.records?.length ?? null,
    source_errors: outcome.sourceErrors,
    observed_pages: pages,
  };
  const retrievalMode = outcome.metadata?.['retrieval_mode'];
  if (typeof retrievalMode === 'string') summary.retrieval_mode = retrievalMode;
  const bySource = retrievalBySource(outcome.observedPages);
  if (bySource.length > 0) summary.retrieval_by_source = bySource;
  if (outcome.resultType !== undefined) summary.resultType = outcome.resultType;
  if (outcome.error !== undefined)
    summary.error = { code: outcome.error.code, message: outcome.error.message };
  const body = bodyOf(outcome);
  if (json) {
    if (withResult) summary.result = body;
    io.stdout(JSON.stringify(summary));
    return;
  }
  if (withResult && body !== undefined) io.stdout(JSON.stringify(body, null, 2));
  if (outcome.error !== undefined) {
    io.stdout(`final: JSON-RPC error ${outcome.error.code}: ${outcome.error.message}`);
    return;
  }
  const parts = [`final: confirmed (${outcome.delivery})`, `isError=${outcome.isError}`];
  if (outcome.completeness !== undefined) parts.push(`completeness=${outcome.completeness}`);
  if (outcome.resultCount !== undefined) parts.push(`result_count=${outcome.resultCount}`);
  if (outcome.resultType !== undefined) parts.push(`resultType=${outcome.resultType}`);
  if (typeof retrievalMode === 'string') parts.push(`retrieval_mode=${retrievalMode}`);
  if (pages > 0) parts.push(`provisional pages observed=${pages} (replaced by the final records)`);
  io.stdout(parts.join('  '));
  for (const { source, retrieval } of bySource) io.stdout(`  pages  ${label(source)}  ${retrieval}`);
  for (const e of outcome.sourceErrors) io.stdout(`  source_error  ${label(e.source)}  ${e.code}`);
}

/** The part of a result worth printing: structured content when present, else the whole result. */
function bodyOf(outcome: SourceResultsOutcome & { confirmed: true }): unknown {
  if (outcome.result === undefined) return undefined;
  return outcome.result.structuredContent ?? outcome.result;
}

/**
 * The CLI's exit codes, the same with and without `--stream` or `--task` (docs/errors.md is checked against
 * this table, and `USAGE` prints it).
 */
export const CLI_EXIT_CODES = {
  complete: { code: 0, meaning: 'confirmed complete (or a successful non-federated call)' },
  toolError: { code: 1, meaning: 'confirmed tool error (isError: true) without partial read metadata' },
  protocolError: { code: 2, meaning: 'usage, HTTP or JSON-RPC error, or a protocol violation' },
  partial: { code: 3, meaning: 'confirmed partial (completeness: "partial")' },
  noConfirmedResult: { code: 4, meaning: 'no confirmed result (EOF, network failure, cancelled task)' },
} as const;

/** Exit code of a tool call's outcome (see {@link CLI_EXIT_CODES}). */
export function exitCodeOf(outcome: SourceResultsOutcome): number {
  if (!outcome.confirmed) return CLI_EXIT_CODES.noConfirmedResult.code;
  if (outcome.violations.length > 0 || outcome.error !== undefined) return CLI_EXIT_CODES.protocolError.code;
  if (outcome.completeness === 'partial') return CLI_EXIT_CODES.partial.code;
  return outcome.isError ? CLI_EXIT_CODES.toolError.code : CLI_EXIT_CODES.complete.code;
}
