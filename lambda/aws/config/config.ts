/**
 * Platform configuration from environment variables (DESIGN §6), read once at cold start. `loadConfig`
 * is pure: it takes the environment as an argument, never writes `process.env`, and collects every problem
 * into one `ConfigError` so an operator fixes them in one deploy.
 */
import { ConfigError } from './errors.js';

/** One DynamoDB-backed store: its table (absent locally = in-memory) and sliding TTL. */
export interface StoreConfig {
  tableName?: string;
  ttlMinutes: number;
}

/** Bearer token validation (OAuth 2.1 resource server, mcp-2026-notes §2.2). */
export interface AuthConfig {
  issuer: string;
  audience: string;
  jwksUrl: URL;
  /** `AUTH_TENANT_CLAIM`: the token claim naming the caller's tenant. @default 'org_id' */
  tenantClaim: string;
}

/**
 * Per-principal and per-tenant request limits (docs/deploy.md "Rate limits"). Off unless configured: the CDK
 * stack always configures them, the local stack only when asked.
 */
export interface RateLimitConfig {
  /** `MCP_RATE_LIMIT_TABLE`: the shared counters; absent = counters in this process only. */
  tableName?: string;
  /** `MCP_RATE_LIMIT_PRINCIPAL`: requests per window per principal; 0 = off. @default 0 */
  principal: number;
  /** `MCP_RATE_LIMIT_TENANT`: requests per window per tenant; 0 = off. @default 0 */
  tenant: number;
  /** `MCP_RATE_LIMIT_WINDOW_SECONDS` @default 60 */
  windowSeconds: number;
  /** `MCP_RATE_LIMIT_TIMEOUT_MS`: longest wait for the counters before admitting anyway. @default 1000 */
  timeoutMs: number;
}

/** The self-invoke that runs task rounds. */
export interface TaskWorkerConfig {
  /** `AWS_LAMBDA_FUNCTION_NAME` (set by Lambda): the function invokes itself. */
  functionName: string;
  /** `AWS_ENDPOINT_URL_LAMBDA` (the local stack's Invoke API); the SDK's own variable, validated here. */
  endpoint?: string;
}

/** The validated configuration. */
export interface PlatformConfig {
  /** True inside a managed Lambda runtime (`AWS_EXECUTION_ENV=AWS_Lambda_*`); stricter rules apply. */
  deployed: boolean;
  /** `MCP_ENDPOINT`: public URL of the platform endpoint (resource metadata, request origin). */
  endpoint?: URL;
  sessions: StoreConfig;
  streams: StoreConfig;
  tasks: StoreConfig;
  rateLimits: RateLimitConfig;
  /** `MCP_ALLOWED_ORIGINS` @default ['https://claude.ai', 'https://claude.com'] */
  allowedOrigins: string[];
  /** `BOS_DIRECTORY_TABLE`; absent = the embedded demo directory. */
  directoryTable?: string;
  /** `BOS_BASELINE_TABLE`: the source cache's baselines; absent = no source is cached (every read is live). */
  baselineTable?: string;
  /** `BOS_DEADLINE_RESERVE_MS` @default 1000 */
  deadlineReserveMs: number;
  /**
   * `BOS_OPERATION_TIMEOUT_MS`: budget of one federated operation, capped by the invocation deadline. Behind
   * API Gateway a client disconnect reaches the function as no signal at all, so this is what ends the work
   * of a client that went away (docs/bos.md "Disconnect"). @default 30000
   */
  operationTimeoutMs: number;
  /**
   * `MCP_STREAM_MAX_EVENT_BYTES`: largest JSON-RPC message of one SSE event; larger fails the call with a
   * `-32603` "Stream event too large" final message. @default 10485760
   */
  maxStreamEventBytes: number;
  /**
   * `MCP_RESPONSE_STALL_MS`: a response write that makes no progress this long (the client stopped reading)
   * ends the response and aborts its work; 0 turns the check off. @default 30000
   */
  responseStallMs: number;
  /**
   * `BOS_CONTRACT_URI`: the `contractUri` advertised for `bos/source-results/v1` (the public contract page).
   * @default 'https://dfsm.ai/apps/bos/source-results-v1.html'
   */
  contractUri?: string;
  /**
   * `MCP_LISTENER_BUDGET_MS` (and `MCP_LISTENER_SAFETY_MS`, default 5000): how long `GET /mcp` without
   * `Last-Event-ID` stays open, ending that much before the invocation deadline. @default absent (one
   * keepalive, then end)
   */
  listenerBudget?: { maxDurationMs: number; safetyBufferMs: number };
  auth?: AuthConfig;
  /** `AWS_ENDPOINT_URL_DYNAMODB` (DynamoDB Local); the SDK's own variable, validated here. */
  dynamoDbEndpoint?: string;
  /** `AWS_REGION` (set by Lambda). */
  region?: string;
  /**
   * Where task rounds run (`MCP_TASK_WORKER`): present when each round runs in its own asynchronous
   * invocation of this function (`invoke`, the default inside Lambda with a task table), absent when
   * rounds run in the invocation that created them (`in-process`). docs/tasks.md "Execution".
   */
  taskWorker?: TaskWorkerConfig;
  /**
   * `MCP_REQUEST_STATE_SECRET`: HMAC key for 2026-07-28 `requestState` bindings. Every execution
   * environment must share it, or a multi-round retry reaching another environment is refused.
   * Deployed, the stack passes `MCP_REQUEST_STATE_SECRET_ARN` instead and the entry reads the secret during
   * init (`secrets/secret-settings.ts`); the plain variable is for the local stack.
   * @default a random per-process secret (retries then only succeed on the environment that issued them)
   */
  requestStateSecret?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

// DynamoDB table names: 3-255 of [a-zA-Z0-9_.-] (DynamoDB developer guide, "Naming rules").
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

/** Reads values and records problems instead of throwing at the first one. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(readonly env: Env) {}

  text(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
    this.problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }

  url(name: string, deployed: boolean): URL | undefined {
    const raw = this.text(name);
    if (raw === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      this.problems.push(`${name} must be an absolute URL, got "${raw}"`);
      return undefined;
    }
    const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (local || !deployed)))
      this.problems.push(`${name} must use https, got "${raw}"`);
    return url;
  }

  table(name: string): string | undefined {
    const raw = this.text(name);
    if (raw !== undefined && !TABLE_NAME.test(raw))
      this.problems.push(`${name} must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), got "${raw}"`);
    return raw;
  }

  origins(name: string, fallback: string[]): string[] {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const origins = raw
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    for (const origin of origins) {
      let valid = false;
      try {
        valid = new URL(origin).origin === origin;
      } catch {
        valid = false;
      }
      if (!valid)
        this.problems.push(`${name} entries must be origins like https://claude.ai, got "${origin}"`);
    }
    if (origins.length === 0) this.problems.push(`${name} must list at least one origin`);
    return origins;
  }

  require(deployed: boolean, ...names: string[]): void {
    if (!deployed) return;
    for (const name of names)
      if (this.text(name) === undefined) this.problems.push(`${name} is required when deployed`);
  }
}

function store(reader: EnvReader, prefix: 'SESSION' | 'STREAM' | 'TASK', ttlDefault: number): StoreConfig {
  const tableName = reader.table(`MCP_${prefix}_TABLE`);
  // One week cap: longer sliding sessions are a leak, not a feature.
  const ttlMinutes = reader.integer(`MCP_${prefix}_TTL_MINUTES`, ttlDefault, 1, 10_080);
  return tableName === undefined ? { ttlMinutes } : { tableName, ttlMinutes };
}

function auth(reader: EnvReader, deployed: boolean): AuthConfig | undefined {
  const names = ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL'] as const;
  const present = names.filter((n) => reader.text(n) !== undefined);
  if (present.length > 0 && present.length < names.length && !deployed) {
    const missing = names.filter((n) => !present.includes(n));
    reader.problems.push(`${missing.join(', ')} must be set together with ${present.join(', ')}`);
  }
  reader.require(deployed, ...names);
  const issuer = reader.text('AUTH_ISSUER');
  const audience = reader.text('AUTH_AUDIENCE');
  const jwksUrl = reader.url('AUTH_JWKS_URL', deployed);
  const tenantClaim = reader.text('AUTH_TENANT_CLAIM') ?? 'org_id';
  // A claim name is a JSON member name; visible ASCII keeps it printable in problems and docs.
  if (!/^[\x21-\x7e]{1,256}$/.test(tenantClaim))
    reader.problems.push(`AUTH_TENANT_CLAIM must be a claim name of visible ASCII, got "${tenantClaim}"`);
  return issuer && audience && jwksUrl ? { issuer, audience, jwksUrl, tenantClaim } : undefined;
}

/** The limits, and in a deployment the shared table they need: per-environment counters would not limit. */
function rateLimits(reader: EnvReader, deployed: boolean): RateLimitConfig {
  const tableName = reader.table('MCP_RATE_LIMIT_TABLE');
  const limits = {
    principal: reader.integer('MCP_RATE_LIMIT_PRINCIPAL', 0, 0, 1_000_000),
    tenant: reader.integer('MCP_RATE_LIMIT_TENANT', 0, 0, 1_000_000),
    windowSeconds: reader.integer('MCP_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    timeoutMs: reader.integer('MCP_RATE_LIMIT_TIMEOUT_MS', 1000, 1, 30_000),
  };
  if (deployed && tableName === undefined && (limits.principal > 0 || limits.tenant > 0))
    reader.problems.push('MCP_RATE_LIMIT_TABLE is required when deployed with a rate limit');
  return tableName === undefined ? limits : { tableName, ...limits };
}

/**
 * `MCP_TASK_WORKER`: `invoke` needs a function to invoke and a task table every invocation shares (a
 * worker in another environment must find the task); the default is `invoke` exactly when both are there.
 */
function worker(reader: EnvReader, tasks: StoreConfig): TaskWorkerConfig | undefined {
  const mode = reader.text('MCP_TASK_WORKER');
  if (mode !== undefined && mode !== 'invoke' && mode !== 'in-process') {
    reader.problems.push(`MCP_TASK_WORKER must be invoke or in-process, got "${mode}"`);
    return undefined;
  }
  const functionName = reader.text('AWS_LAMBDA_FUNCTION_NAME');
  const endpoint = reader.url('AWS_ENDPOINT_URL_LAMBDA', false)?.toString();
  if (mode === 'in-process') return undefined;
  if (functionName === undefined || tasks.tableName === undefined) {
    if (mode === 'invoke')
      reader.problems.push('MCP_TASK_WORKER=invoke needs AWS_LAMBDA_FUNCTION_NAME and MCP_TASK_TABLE');
    return undefined;
  }
  return endpoint === undefined ? { functionName } : { functionName, endpoint };
}

/**
 * Validates the environment. Throws `ConfigError` listing every problem.
 * @param env usually `process.env`; passed in so tests and the local stack need no global state.
 */
export function loadConfig(env: Env): PlatformConfig {
  const reader = new EnvReader(env);
  const deployed = reader.text('AWS_EXECUTION_ENV')?.startsWith('AWS_Lambda_') ?? false;
  // Deployed sessions must survive across Lambda instances, so memory is not an option there.
  reader.require(deployed, 'MCP_ENDPOINT', 'MCP_SESSION_TABLE');
  const endpoint = reader.url('MCP_ENDPOINT', deployed);
  const config: PlatformConfig = {
    deployed,
    sessions: store(reader, 'SESSION', 60),
    streams: store(reader, 'STREAM', 60),
    tasks: store(reader, 'TASK', 10),
    rateLimits: rateLimits(reader, deployed),
    allowedOrigins: reader.origins('MCP_ALLOWED_ORIGINS', ['https://claude.ai', 'https://claude.com']),
    deadlineReserveMs: reader.integer('BOS_DEADLINE_RESERVE_MS', 1000, 0, 60_000),
    operationTimeoutMs: reader.integer('BOS_OPERATION_TIMEOUT_MS', 30_000, 100, 900_000),
    maxStreamEventBytes: reader.integer('MCP_STREAM_MAX_EVENT_BYTES', 10_485_760, 1024, 209_715_200),
    responseStallMs: reader.integer('MCP_RESPONSE_STALL_MS', 30_000, 0, 900_000),
  };
  const directoryTable = reader.table('BOS_DIRECTORY_TABLE');
  const baselineTable = reader.table('BOS_BASELINE_TABLE');
  const authConfig = auth(reader, deployed);
  const dynamoDbEndpoint = reader.url('AWS_ENDPOINT_URL_DYNAMODB', false)?.toString();
  const region = reader.text('AWS_REGION');
  const requestStateSecret = reader.text('MCP_REQUEST_STATE_SECRET');
  // HMAC-SHA256 keys shorter than the hash output weaken the binding (RFC 2104 §3).
  if (requestStateSecret !== undefined && requestStateSecret.length < 32)
    reader.problems.push('MCP_REQUEST_STATE_SECRET must be at least 32 characters');
  // The ARN is resolved before this runs; reaching here unresolved would silently fall back to a random key.
  if (requestStateSecret === undefined && reader.text('MCP_REQUEST_STATE_SECRET_ARN') !== undefined)
    reader.problems.push('MCP_REQUEST_STATE_SECRET_ARN is set but its secret was not read');
  const taskWorker = worker(reader, config.tasks);
  const contractUri = reader.url('BOS_CONTRACT_URI', deployed)?.toString();
  const listenerMs = reader.integer('MCP_LISTENER_BUDGET_MS', 0, 0, 900_000);
  const listenerSafetyMs = reader.integer('MCP_LISTENER_SAFETY_MS', 5_000, 0, 900_000);
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return {
    ...(contractUri === undefined ? {} : { contractUri }),
    ...(listenerMs === 0
      ? {}
      : { listenerBudget: { maxDurationMs: listenerMs, safetyBufferMs: listenerSafetyMs } }),
    ...(taskWorker === undefined ? {} : { taskWorker }),
    ...config,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(directoryTable === undefined ? {} : { directoryTable }),
    ...(baselineTable === undefined ? {} : { baselineTable }),
    ...(authConfig === undefined ? {} : { auth: authConfig }),
    ...(dynamoDbEndpoint === undefined ? {} : { dynamoDbEndpoint }),
    ...(region === undefined ? {} : { region }),
    ...(requestStateSecret === undefined ? {} : { requestStateSecret }),
  };
}
