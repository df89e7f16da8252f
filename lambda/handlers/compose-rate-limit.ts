/**
 * The runtime's rate limit from configuration (docs/deploy.md "Rate limits"): off when no limit is set, counted
 * in the shared DynamoDB table when one is named (always when deployed), else in this process only.
 */
import { DynamoDbRateCounterStore } from '../aws/index.js';
import type { InvocationTelemetry, PlatformConfig } from '../aws/index.js';
import { InMemoryRateCounterStore } from '../mcp/index.js';
import type { McpServerOptions } from '../mcp/index.js';
import { dynamoDbClientFor } from './compose-dynamodb.js';

/** `McpServerOptions.rateLimit` for `config`, reporting to `telemetry` (metrics, the call's log line). */
export function composeRateLimit(
  config: PlatformConfig,
  telemetry?: InvocationTelemetry,
): Pick<McpServerOptions, 'rateLimit'> {
  const { tableName, principal, tenant, windowSeconds, timeoutMs } = config.rateLimits;
  if (principal === 0 && tenant === 0) return {};
  const store =
    tableName === undefined
      ? new InMemoryRateCounterStore()
      : new DynamoDbRateCounterStore({ client: dynamoDbClientFor(config), tableName });
  return {
    rateLimit: {
      store,
      principalLimit: principal,
      tenantLimit: tenant,
      windowMs: windowSeconds * 1000,
      timeoutMs,
      ...(telemetry === undefined ? {} : { onEvent: telemetry.rateLimit }),
    },
  };
}
