export { platformAccessLogFormat } from './access-log-format.js';
export { DataTables } from './data-tables.js';
export type { DataTableSpec, DataTableSpecs, DataTablesProps, KeyAttributeSpec } from './data-tables.js';
export {
  DEFAULT_SOURCE_ERROR_RATE_PERCENT,
  DURATION_ALARM_RATIO,
  PlatformAlarms,
} from './platform-alarms.js';
export type { PlatformAlarmsProps } from './platform-alarms.js';
export { PlatformDashboard } from './platform-dashboard.js';
export type { PlatformDashboardProps } from './platform-dashboard.js';
export {
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  PLATFORM_METRICS,
  CACHE_METRICS,
  insightsByGroup,
  searchExpression,
} from './platform-metrics.js';
export type { MetricScope, PlatformMetric } from './platform-metrics.js';
export { PlatformApi, STREAM_INTEGRATION_TIMEOUT } from './platform-api.js';
export type { CustomDomainProps, PlatformApiProps, ThrottlingProps } from './platform-api.js';
export { MAX_FUNCTION_TIMEOUT_SECONDS, PlatformFunction } from './platform-function.js';
export type { PlatformFunctionProps } from './platform-function.js';
export {
  REQUEST_STATE_SECRET_ARN_VARIABLE,
  REQUEST_STATE_SECRET_LENGTH,
  RequestStateSecret,
} from './request-state-secret.js';
export type { RequestStateSecretProps } from './request-state-secret.js';
export { CACHE_SYNC_EVENT, DEFAULT_CACHE_SYNC_INTERVAL, SourceCache } from './source-cache.js';
export type { SourceCacheProps } from './source-cache.js';
export { UNAUTHORIZED_JSON_RPC_CODE, unauthorizedGatewayResponse } from './unauthorized-response.js';
