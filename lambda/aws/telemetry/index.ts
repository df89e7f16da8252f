/**
 * Telemetry of the deployed function: the Powertools logger behind the runtime's `Logger` port, the AWS SDK
 * clients' warning logger, and each invocation's call record, log line and metrics.
 */
export { SdkWarningLogger } from './sdk-logger.js';
export { CallRecord, sessionDigest } from './call-record.js';
export type { CallCompleteness, SourceTally } from './call-record.js';
export { DEFAULT_NAMESPACE, DIMENSION, METRIC, publishCallMetrics } from './call-metrics.js';
export { InvocationTelemetry } from './call-telemetry.js';
export { publishSyncMetrics, SYNC_METRIC } from './sync-metrics.js';
export type { SyncReport } from './sync-metrics.js';
export type { InvocationTelemetryOptions } from './call-telemetry.js';
export { createPowertoolsLogger, DEFAULT_SERVICE_NAME, loggerPort } from './powertools-logger.js';
export type { PowertoolsLoggerOptions } from './powertools-logger.js';
