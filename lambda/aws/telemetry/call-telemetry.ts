/**
 * Per-invocation telemetry of the deployed function: Powertools Logger and Metrics used inside the
 * streaming handler itself. Powertools' middy middlewares flush when the handler returns, which for a
 * streamed response is before the body is written; here {@link InvocationTelemetry.run} wraps the whole
 * invocation (body and the tail that outlives it) and publishes in a `finally`, before Lambda freezes the
 * environment.
 *
 * The ports the app reports through (the runtime's `callTelemetry` and tool lifecycle hook, the BOS
 * operation report through {@link InvocationTelemetry.call}, the provider kernel's rate-limit waits) are made
 * once per execution environment, at composition. Each finds the invocation it belongs to through `AsyncLocalStorage`: everything a call
 * starts, down to a provider's retry timer, runs in the async context of the invocation that started it.
 * Calls served side by side in one process (tests, the demo server) therefore never mix their figures.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import type { CallAttributes, CallTelemetry, RateLimitEvent, ToolTelemetryEvent } from '../../mcp/index.js';
import { CallRecord } from './call-record.js';
import type { SourceTally } from './call-record.js';
import { DEFAULT_NAMESPACE, DIMENSION, publishCallMetrics, UNKNOWN } from './call-metrics.js';
import { publishSyncMetrics } from './sync-metrics.js';
import type { SyncReport } from './sync-metrics.js';
import { DEFAULT_SERVICE_NAME } from './powertools-logger.js';

/** Options of {@link InvocationTelemetry}. */
export interface InvocationTelemetryOptions {
  /** Writes the call line (and receives the Lambda context of each invocation). */
  logger: PowertoolsLogger;
  /** @default Powertools Metrics, namespace `POWERTOOLS_METRICS_NAMESPACE` or `BosMcp`, service `POWERTOOLS_SERVICE_NAME` or `bos-mcp` */
  metrics?: Metrics;
  /** @default Date.now */
  now?: () => number;
}

/** Telemetry of one execution environment's invocations. */
export class InvocationTelemetry {
  readonly #logger: PowertoolsLogger;
  readonly #metrics: Metrics;
  readonly #now: () => number;
  readonly #scope = new AsyncLocalStorage<CallRecord>();
  #kindOf: (sourceId: string) => string | undefined = () => undefined;

  constructor(options: InvocationTelemetryOptions) {
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#metrics =
      options.metrics ??
      new Metrics({
        namespace: process.env['POWERTOOLS_METRICS_NAMESPACE'] || DEFAULT_NAMESPACE,
        serviceName: process.env['POWERTOOLS_SERVICE_NAME'] || DEFAULT_SERVICE_NAME,
      });
  }

  /** The runtime's `callTelemetry` port. */
  readonly calls: CallTelemetry = {
    annotate: (attributes: CallAttributes) => this.#scope.getStore()?.annotate(attributes),
  };

  /**
   * The runtime's tool lifecycle hook (`McpServerOptions.telemetry`). A tool that threw, timed out or was
   * cancelled is an `error`. An `isError` result is one too, unless the operation already reported: a
   * partial federated read is an `isError` result by contract (§5) and stays `partial`.
   */
  readonly tools = (event: ToolTelemetryEvent): void => {
    const record = this.#scope.getStore();
    if (record === undefined || event.phase !== 'finish') return;
    if (event.outcome === 'ok') record.completeness ??= 'complete';
    else if (event.outcome === 'tool_error') record.completeness ??= 'error';
    else record.completeness = 'error';
  };

  /**
   * The record of the call being served, for reporters composed outside this room (the BOS tools' operation
   * report is recorded by `lambda/handlers/operation-telemetry.ts`, since this room may not import
   * `lambda/bos`); `undefined` outside an invocation.
   */
  get call(): CallRecord | undefined {
    return this.#scope.getStore();
  }

  /** The running call's tally of a source, its kind named by {@link setSourceKinds}; `undefined` outside an invocation. */
  sourceTally(sourceId: string): SourceTally | undefined {
    return this.#scope.getStore()?.source(sourceId || UNKNOWN, this.#kindOf(sourceId) ?? UNKNOWN);
  }

  /** Names each source's adapter kind (`source.type`), from the composition's source definitions. */
  setSourceKinds(kindOf: (sourceId: string) => string | undefined): void {
    this.#kindOf = kindOf;
  }

  /** The provider kernel waited `waitMs` on a `429` of this source. */
  rateLimitWait(sourceId: string, waitMs: number): void {
    if (!Number.isFinite(waitMs) || waitMs < 0) return;
    const tally = this.sourceTally(sourceId);
    if (tally !== undefined) tally.rateLimitWaitMs += waitMs;
  }

  /** A read of this source was answered by local matching: its provider refused or lacks the filter. */
  localMatch(sourceId: string): void {
    const tally = this.sourceTally(sourceId);
    if (tally !== undefined) tally.localMatches += 1;
  }

  /** The runtime's rate-limit report (`RateLimitOptions.onEvent`): a refusal, or counters that could not answer. */
  readonly rateLimit = (event: RateLimitEvent): void => {
    const record = this.#scope.getStore();
    if (record === undefined) return;
    if (event.kind === 'limited') record.rateLimited = event.bucket;
    else record.rateLimitStoreUnavailable = true;
  };

  /** One source cache sync finished: its metrics, published at once (a sync invocation is no call). */
  cacheSynced(report: SyncReport): void {
    try {
      publishSyncMetrics(this.#metrics, report);
    } catch {
      // Telemetry never fails an invocation.
    }
  }

  /** The entry's answer: its status, and the session it belongs to (request header, else the answer's). */
  answered(status: number, sessionId: string | null | undefined): void {
    const record = this.#scope.getStore();
    if (record === undefined) return;
    record.status = status;
    record.noteSession(sessionId);
  }

  /**
   * Runs one invocation in its own scope: the Lambda context goes on every log line, the first invocation
   * of the environment publishes `ColdStart`, and the call's line and metrics are published in `finally`,
   * whether the invocation succeeded or threw.
   */
  async run(context: Context, invocation: () => Promise<void>): Promise<void> {
    const record = new CallRecord(this.#now());
    this.#logger.addContext(context);
    this.#metrics.captureColdStartMetric(context.functionName);
    try {
      await this.#scope.run(record, invocation);
    } finally {
      this.#publish(record);
    }
  }

  /**
   * The call's log line and its metrics; telemetry never fails an invocation. An invocation the entry
   * answered no request for (API Gateway's completion notice, a task worker round) is no call: nothing.
   */
  #publish(record: CallRecord): void {
    if (record.status === undefined) return;
    const durationMs = Math.max(0, this.#now() - record.startedAt);
    try {
      const { method, toolName, protocolVersion } = record.attributes;
      this.#logger.info('mcp.call', {
        [DIMENSION.method]: method ?? UNKNOWN,
        ...(toolName === undefined ? {} : { [DIMENSION.tool]: toolName }),
        ...(protocolVersion === undefined ? {} : { 'mcp.protocol.version': protocolVersion }),
        ...(record.session === undefined ? {} : { 'mcp.session.id': record.session }),
        [DIMENSION.status]: String(record.status ?? 0),
        ...(record.completeness === undefined ? {} : { [DIMENSION.completeness]: record.completeness }),
        ...(record.rateLimited === undefined ? {} : { [DIMENSION.rateLimitBucket]: record.rateLimited }),
        duration_ms: durationMs,
      });
      publishCallMetrics(this.#metrics, record, durationMs);
    } catch (error) {
      this.#logger.warn('call telemetry failed', {
        errorName: error instanceof Error ? error.name : typeof error,
      });
    }
  }
}
