import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { StackConfigError } from './errors.js';
import { DEFAULT_RATE_LIMITS, rateLimitEnvironment } from './rate-limits.js';
import type { RateLimitProps } from './rate-limits.js';
import { tableSchemasById } from './table-schemas.js';

/** Bearer-token validation settings of the deployed function (DESIGN §6 `AUTH_*`). */
export interface AuthProps {
  /** Token issuer (`iss`), the authorization server's issuer identifier. */
  readonly issuer: string;
  /** URL of the issuer's JSON Web Key Set. */
  readonly jwksUrl: string;
  /**
   * Expected audience (`aud`). RFC 8707: the token must be issued for this resource.
   * @default - the MCP endpoint URL
   */
  readonly audience?: string;
  /**
   * Token claim naming the caller's tenant (organisation), pooled by the per-tenant rate limit
   * (`AUTH_TENANT_CLAIM`).
   * @default 'org_id'
   */
  readonly tenantClaim?: string;
}

/** Store TTLs in minutes. */
export interface TtlMinutes {
  /** Session lifetime since last use. */
  readonly session: number;
  /** How long resumable stream events stay replayable. */
  readonly stream: number;
  /** Task lifetime. */
  readonly task: number;
}

/** DESIGN §6 defaults. */
export const DEFAULT_TTL_MINUTES: TtlMinutes = { session: 60, stream: 60, task: 10 };

/** DESIGN §6 default of `BOS_DEADLINE_RESERVE_MS`. */
export const DEFAULT_DEADLINE_RESERVE_MS = 1000;

/** The function's memory size in MB unless configured (`memorySize`); the local stack uses it too. */
export const DEFAULT_MEMORY_SIZE_MB = 1024;

/** What {@link platformEnvironment} is built from. */
export interface PlatformEnvironmentInput {
  readonly endpointUrl: string;
  readonly tables: {
    readonly sessions: ITable;
    readonly streams: ITable;
    readonly tasks: ITable;
    readonly directory: ITable;
    readonly rateLimits: ITable;
  };
  readonly allowedOrigins: readonly string[];
  readonly auth: AuthProps;
  readonly ttlMinutes?: Partial<TtlMinutes>;
  readonly deadlineReserveMs?: number;
  /** @default DEFAULT_RATE_LIMITS */
  readonly rateLimits?: RateLimitProps;
  readonly contractUri?: string;
  readonly listenerBudget?: ListenerBudgetProps;
}

/** The opt-in window of `GET /mcp` without `Last-Event-ID` (`MCP_LISTENER_BUDGET_MS`, `MCP_LISTENER_SAFETY_MS`). */
export interface ListenerBudgetProps {
  /** Longest the listener stays open, in ms. */
  readonly maxDurationMs: number;
  /**
   * The listener ends this long before the invocation deadline, in ms.
   * @default 5000
   */
  readonly safetyBufferMs?: number;
}

function positiveInteger(name: string, value: number): string {
  if (!Number.isInteger(value) || value <= 0) {
    throw new StackConfigError(
      'invalid_function_settings',
      `${name} must be a positive integer, got ${value}`,
    );
  }
  return String(value);
}

/**
 * The function's environment, exactly the DESIGN §6 variables; table variables are named by
 * `lib/table-schemas.ts`, which the local stack reads too.
 */
export function platformEnvironment(input: PlatformEnvironmentInput): Record<string, string> {
  const ttl = { ...DEFAULT_TTL_MINUTES, ...input.ttlMinutes };
  if (input.auth.issuer === '' || input.auth.jwksUrl === '') {
    throw new StackConfigError('invalid_auth', 'auth issuer and JWKS URL are required');
  }
  if (input.allowedOrigins.some((origin) => origin.includes(','))) {
    throw new StackConfigError('invalid_context', 'an allowed origin cannot contain ","');
  }
  return {
    MCP_ENDPOINT: input.endpointUrl,
    [tableSchemasById.sessions.envVar]: input.tables.sessions.tableName,
    MCP_SESSION_TTL_MINUTES: positiveInteger('session TTL', ttl.session),
    [tableSchemasById.streams.envVar]: input.tables.streams.tableName,
    MCP_STREAM_TTL_MINUTES: positiveInteger('stream TTL', ttl.stream),
    [tableSchemasById.tasks.envVar]: input.tables.tasks.tableName,
    MCP_TASK_TTL_MINUTES: positiveInteger('task TTL', ttl.task),
    MCP_ALLOWED_ORIGINS: input.allowedOrigins.join(','),
    [tableSchemasById.directory.envVar]: input.tables.directory.tableName,
    BOS_DEADLINE_RESERVE_MS: positiveInteger(
      'deadline reserve',
      input.deadlineReserveMs ?? DEFAULT_DEADLINE_RESERVE_MS,
    ),
    AUTH_ISSUER: input.auth.issuer,
    AUTH_AUDIENCE: input.auth.audience ?? input.endpointUrl,
    AUTH_JWKS_URL: input.auth.jwksUrl,
    AUTH_TENANT_CLAIM: input.auth.tenantClaim ?? 'org_id',
    [tableSchemasById.rateLimits.envVar]: input.tables.rateLimits.tableName,
    ...rateLimitEnvironment(input.rateLimits ?? DEFAULT_RATE_LIMITS),
    ...optionalEnvironment(input),
  };
}

/** Variables set only when configured; the function's defaults apply otherwise (docs/deploy.md). */
function optionalEnvironment(input: PlatformEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {};
  if (input.contractUri !== undefined) {
    if (!URL.canParse(input.contractUri) || new URL(input.contractUri).protocol !== 'https:')
      throw new StackConfigError(
        'invalid_context',
        `contractUri must be an https URL, got ${input.contractUri}`,
      );
    env.BOS_CONTRACT_URI = input.contractUri;
  }
  const budget = input.listenerBudget;
  if (budget !== undefined) {
    env.MCP_LISTENER_BUDGET_MS = positiveInteger('listener budget', budget.maxDurationMs);
    if (budget.safetyBufferMs !== undefined)
      env.MCP_LISTENER_SAFETY_MS = positiveInteger('listener safety buffer', budget.safetyBufferMs);
  }
  return env;
}

/**
 * Name prefix of the Secrets Manager secrets that hold source credentials: a directory `credential_ref`
 * `ACME_HR_TOKEN` is the secret `bos/sources/ACME_HR_TOKEN`. The function's resolver uses the same default
 * (`lambda/aws/secrets/secrets-manager-credentials.ts`; `test/cdk/platform-stack.test.ts` keeps the two equal).
 */
export const SOURCE_SECRET_PREFIX = 'bos/sources/';
