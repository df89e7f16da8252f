/**
 * A source definition that cannot become an adapter: an unknown adapter kind or options the adapter
 * refuses. A domain error (string `code`), never sent to a client: the composition root turns it into a
 * `ConfigError` at cold start (embedded directory) or into a `source_unavailable` source plus a log line
 * (table-backed directory).
 */
export class SourceConfigError extends Error {
  override readonly name = 'SourceConfigError';
  readonly code: 'unknown_adapter' | 'invalid_options';
  readonly sourceId: string;
  /** Every problem found, each naming the option at fault (options are non-secret by definition). */
  readonly problems: readonly string[];

  constructor(
    sourceId: string,
    code: 'unknown_adapter' | 'invalid_options',
    problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`source ${sourceId}: ${problems.join('; ')}`, options);
    this.code = code;
    this.sourceId = sourceId;
    this.problems = problems;
  }
}
