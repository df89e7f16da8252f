import { Duration } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DEFAULT_THROTTLING } from './bos-mcp-stack.js';
import type { BosMcpStackProps, SourceCacheStackProps } from './bos-mcp-stack.js';
import { StackConfigError } from './errors.js';
import { stackNameForStage } from './project.js';
import { rateLimitsForStage } from './rate-limits.js';
import { isDisposableStage } from './stage-policy.js';

/** Reads one CDK context value (`app.node.tryGetContext`). */
export type ContextReader = (key: string) => unknown;

/** The stack props `bin/app.ts` takes from CDK context, plus the deployment environment. */
export type ContextStackProps = Omit<BosMcpStackProps, 'handlerEntry' | 'projectRoot' | 'tableSpecs'>;

/**
 * Host of the placeholder auth values in `cdk.json`. `.invalid` never resolves (RFC 6761 §6.4), so a dev
 * stack deployed with them rejects every token instead of trusting an unknown issuer.
 */
export const PLACEHOLDER_AUTH_HOST = 'auth.example.invalid';

function text(read: ContextReader, key: string): string | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new StackConfigError('invalid_context', `context "${key}" must be a string`);
  }
  return value;
}

function integer(read: ContextReader, key: string): number | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  // `-c key=value` always gives strings; cdk.json may give numbers.
  const parsed = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new StackConfigError('invalid_context', `context "${key}" must be a positive integer`);
  }
  return parsed;
}

function flag(read: ContextReader, key: string): boolean | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new StackConfigError('invalid_context', `context "${key}" must be true or false`);
}

function list(read: ContextReader, key: string): string[] | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
    throw new StackConfigError(
      'invalid_context',
      `context "${key}" must be a list or a comma-separated string`,
    );
  }
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

function retention(read: ContextReader): RetentionDays | undefined {
  const days = integer(read, 'logRetentionDays');
  if (days === undefined) return undefined;
  if (!(Object.values(RetentionDays) as unknown[]).includes(days)) {
    throw new StackConfigError(
      'invalid_context',
      `logRetentionDays ${days} is not a CloudWatch Logs retention`,
    );
  }
  return days;
}

function requireHttps(key: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new StackConfigError('invalid_auth', `context "${key}" must be an https URL`, { cause: error });
  }
  if (url.protocol !== 'https:')
    throw new StackConfigError('invalid_auth', `context "${key}" must be an https URL`);
  return value;
}

function requireHttpsContext(key: string, value: string): string {
  if (!URL.canParse(value) || new URL(value).protocol !== 'https:')
    throw new StackConfigError('invalid_context', `context "${key}" must be an https URL`);
  return value;
}

/**
 * Builds the stack props from CDK context (cdk.json defaults, overridden with `-c key=value`).
 * Keys: stage, account, region, domainName, certificateArn, allowedOrigins, authIssuer, authAudience,
 * authJwksUrl, authTenantClaim, memorySize, timeoutSeconds, logRetentionDays, throttleRateLimit,
 * throttleBurstLimit, rateLimits, tracing, alarmTopicArn, sourceErrorRatePercent, webAclArn,
 * apiGatewayCloudWatchRole, contractUri, listenerBudgetMs, listenerSafetyMs, sourceCache, cacheSyncMinutes,
 * baselineKmsKeyArn.
 * See docs/deploy.md.
 */
export function stackPropsFromContext(read: ContextReader): ContextStackProps {
  const stage = text(read, 'stage') ?? 'dev';
  const issuer = text(read, 'authIssuer');
  const jwksUrl = text(read, 'authJwksUrl');
  if (issuer === undefined || jwksUrl === undefined) {
    throw new StackConfigError('invalid_auth', 'context "authIssuer" and "authJwksUrl" are required');
  }
  requireHttps('authIssuer', issuer);
  requireHttps('authJwksUrl', jwksUrl);
  if (
    !isDisposableStage(stage) &&
    [issuer, jwksUrl].some((url) => new URL(url).hostname === PLACEHOLDER_AUTH_HOST)
  ) {
    throw new StackConfigError(
      'invalid_auth',
      `stage "${stage}" needs a real authorization server: pass -c authIssuer=… -c authJwksUrl=…`,
    );
  }
  const audience = text(read, 'authAudience');
  const tenantClaim = text(read, 'authTenantClaim');

  const domainName = text(read, 'domainName');
  const certificateArn = text(read, 'certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new StackConfigError(
      'invalid_custom_domain',
      'context "domainName" and "certificateArn" go together',
    );
  }

  const account = text(read, 'account');
  const region = text(read, 'region');
  const rateLimit = integer(read, 'throttleRateLimit');
  const burstLimit = integer(read, 'throttleBurstLimit');
  const timeoutSeconds = integer(read, 'timeoutSeconds');
  const contractUri = text(read, 'contractUri');
  const listenerBudgetMs = integer(read, 'listenerBudgetMs');
  const listenerSafetyMs = integer(read, 'listenerSafetyMs');

  return {
    stage,
    stackName: stackNameForStage(stage),
    description: `bos-mcp BOS platform MCP endpoint (${stage})`,
    // Without account/region the stack is environment-agnostic: synth needs no credentials (docs/deploy.md).
    ...(account !== undefined || region !== undefined ? { env: { account, region } } : {}),
    auth: {
      issuer,
      jwksUrl,
      ...(audience !== undefined ? { audience: requireHttps('authAudience', audience) } : {}),
      ...(tenantClaim !== undefined ? { tenantClaim } : {}),
    },
    ...(domainName !== undefined && certificateArn !== undefined
      ? { customDomain: { domainName, certificateArn } }
      : {}),
    allowedOrigins: list(read, 'allowedOrigins'),
    ...(contractUri !== undefined && { contractUri: requireHttpsContext('contractUri', contractUri) }),
    ...(listenerBudgetMs !== undefined && {
      listenerBudget: {
        maxDurationMs: listenerBudgetMs,
        ...(listenerSafetyMs !== undefined && { safetyBufferMs: listenerSafetyMs }),
      },
    }),
    memorySize: integer(read, 'memorySize'),
    timeout: timeoutSeconds === undefined ? undefined : Duration.seconds(timeoutSeconds),
    logRetention: retention(read),
    throttling:
      rateLimit === undefined && burstLimit === undefined
        ? undefined
        : {
            rateLimit: rateLimit ?? DEFAULT_THROTTLING.rateLimit,
            burstLimit: burstLimit ?? DEFAULT_THROTTLING.burstLimit,
          },
    rateLimits: rateLimitsForStage(read('rateLimits'), stage),
    tracing: flag(read, 'tracing'),
    alarmTopicArn: text(read, 'alarmTopicArn'),
    sourceErrorRatePercent: integer(read, 'sourceErrorRatePercent'),
    webAclArn: text(read, 'webAclArn'),
    apiGatewayCloudWatchRole: flag(read, 'apiGatewayCloudWatchRole'),
    sourceCache: sourceCache(read),
  };
}

/** `sourceCache` (true/false) with `cacheSyncMinutes` and `baselineKmsKeyArn`; undefined when off. */
function sourceCache(read: ContextReader): SourceCacheStackProps | undefined {
  const minutes = integer(read, 'cacheSyncMinutes');
  const kmsKeyArn = text(read, 'baselineKmsKeyArn');
  if (flag(read, 'sourceCache') !== true) {
    if (minutes !== undefined || kmsKeyArn !== undefined)
      throw new StackConfigError(
        'invalid_context',
        'context "cacheSyncMinutes" and "baselineKmsKeyArn" need "sourceCache=true"',
      );
    return undefined;
  }
  return {
    ...(minutes === undefined ? {} : { syncInterval: Duration.minutes(minutes) }),
    ...(kmsKeyArn === undefined ? {} : { kmsKeyArn }),
  };
}
