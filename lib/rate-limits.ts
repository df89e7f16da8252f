/**
 * The function's request limits per principal and per tenant (docs/deploy.md "Rate limits"): one setting per
 * stage, read from the CDK context key `rateLimits` (an object keyed by stage name), passed to the function as
 * `MCP_RATE_LIMIT_*` variables. API Gateway's stage throttling still bounds the stage as a whole.
 */
import { StackConfigError } from './errors.js';

/** Requests allowed per fixed window. */
export interface RateLimitProps {
  /** Requests one principal (token `sub`) may make per window; 0 turns the bucket off. */
  readonly principal: number;
  /** Requests all principals of one tenant may make together per window; 0 turns the bucket off. */
  readonly tenant: number;
  /** Window length in seconds (1-3600). */
  readonly windowSeconds: number;
}

/**
 * Defaults of every stage the context does not name: an interactive client makes a few requests a second at
 * most, so 300 a minute stops a runaway one without touching it; one tenant may use half of the stage's
 * default throttle (50 requests per second, `DEFAULT_THROTTLING`), so no tenant can take the stage alone.
 */
export const DEFAULT_RATE_LIMITS: RateLimitProps = { principal: 300, tenant: 1500, windowSeconds: 60 };

const FIELDS = ['principal', 'tenant', 'windowSeconds'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The limits of `stage` from the context value of `rateLimits` (cdk.json object, or its JSON text from `-c`):
 * `{ "<stage>": { "principal": 300, "tenant": 1500, "windowSeconds": 60 } }`, each field optional.
 */
export function rateLimitsForStage(value: unknown, stage: string): RateLimitProps {
  if (value === undefined || value === null || value === '') return DEFAULT_RATE_LIMITS;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new StackConfigError('invalid_context', 'context "rateLimits" must be a JSON object', {
        cause: error,
      });
    }
  }
  if (!isObject(parsed))
    throw new StackConfigError('invalid_context', 'context "rateLimits" must be an object keyed by stage');
  const own = parsed[stage];
  if (own === undefined) return DEFAULT_RATE_LIMITS;
  if (!isObject(own))
    throw new StackConfigError('invalid_context', `context "rateLimits.${stage}" must be an object`);
  const unknown = Object.keys(own).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0)
    throw new StackConfigError(
      'invalid_context',
      `context "rateLimits.${stage}" has unknown fields: ${unknown.join(', ')}`,
    );
  const limits = { ...DEFAULT_RATE_LIMITS, ...own } as Record<string, unknown>;
  for (const field of FIELDS) {
    const number = limits[field];
    const max = field === 'windowSeconds' ? 3600 : 1_000_000;
    const min = field === 'windowSeconds' ? 1 : 0;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max)
      throw new StackConfigError(
        'invalid_context',
        `context "rateLimits.${stage}.${field}" must be a whole number from ${min} to ${max}`,
      );
  }
  return limits as unknown as RateLimitProps;
}

/** The function's environment variables for `limits`. */
export function rateLimitEnvironment(limits: RateLimitProps): Record<string, string> {
  return {
    MCP_RATE_LIMIT_PRINCIPAL: String(limits.principal),
    MCP_RATE_LIMIT_TENANT: String(limits.tenant),
    MCP_RATE_LIMIT_WINDOW_SECONDS: String(limits.windowSeconds),
  };
}
