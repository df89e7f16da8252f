/**
 * The whole local stack in one call: bundle the handler as CDK does, run it in a pool of AWS runtime-client
 * processes behind our Runtime API, and serve it through the REST v1 streaming front. `npm start`, the
 * integration tests and `CONFORMANCE_VIA=lambda` all start it here.
 */
import { randomBytes } from 'node:crypto';
import { LAMBDA_BASE_ENVIRONMENT } from '../lib/bundling/options.js';
import { CONSOLE_PATH, MCP_PATH } from '../lib/routes.js';
import { type BundleResult, bundleHandler, defaultBundleDir } from './bundle.js';
import { startDevIssuer } from './dev-auth/index.js';
import type { DevAuth } from './dev-auth/index.js';
import { localSourceSecrets } from './seed-directory-lib.js';
import { demoDirectoryWithProviders, parseDirectoryDocument } from '../lambda/bos/index.js';
import type { DirectoryDocument } from '../lambda/bos/index.js';
import { startDemoProviders } from './providers/demo.js';
import type { DynamoDbLocal } from './dynamodb-local.js';
import { startLocalTables } from './stack-tables.js';
import { startCacheSyncSchedule } from './cache-sync-schedule.js';
import { log } from './log.js';
import { PLATFORM_HANDLER_ENTRY, fromRepo } from './paths.js';
import { type RestFront, type RestFrontOptions, startRestFront } from './rest-front/index.js';
import { STREAM_BURST_BYTES, STREAM_BYTES_PER_SECOND } from './rest-front/limits.js';
import { type InvokeApi, RuntimePool, startInvokeApi } from './runtime-api/index.js';

/** Options of {@link startStack}. */
export interface StackOptions {
  /** Port of the REST front; 0 picks a free one. @default 0 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Handler source to bundle and run (absolute or repository-relative). @default 'lambda/handlers/platform.ts' */
  handlerEntry?: string;
  /** Where the bundle goes. @default `.local/bundle/<entry name>` */
  bundleDir?: string;
  /** Extra function environment variables; they override the stack's own values. @default {} */
  env?: Readonly<Record<string, string>>;
  /** Execution environments started warm, before the first request. @default 4 */
  poolSize?: number;
  /**
   * The function's concurrency: each concurrent request gets its own environment (cold-started on demand)
   * up to this many; a request beyond it gets API Gateway's answer for a throttled function (500).
   * @default max(poolSize, 10)
   */
  concurrency?: number;
  /**
   * Most runtimes initialising at once; the others wait for a turn (see `RuntimePool`: on Lambda each
   * environment initialises on CPU of its own). @default the machine's available parallelism
   */
  maxParallelInits?: number;
  /** Function timeout in seconds. @default 900 */
  timeoutSeconds?: number;
  /** @default 1024 */
  memorySizeMb?: number;
  /** Stage name in `requestContext.stage`. @default 'local' */
  stage?: string;
  /** Front idle timeout between chunks. @default 300000 (API Gateway Regional) */
  idleTimeoutMs?: number;
  /** Front limit on one response. @default 900000 (API Gateway STREAM) */
  maxDurationMs?: number;
  /**
   * What the function sees when its client goes away: nothing (`keep-running`, AWS) or a closed response
   * stream (`close-stream`, the emulator mode). @default 'keep-running'
   */
  onClientLoss?: RestFrontOptions['onClientLoss'];
  /**
   * Bandwidth cap of streamed responses; `null` turns it off.
   * @default Lambda's: the first 6 MiB uncapped, then 2 MiB/s
   */
  shaping?: RestFrontOptions['shaping'] | null;
  /** Largest streamed response. @default 200 MiB (Lambda) */
  maxResponseBytes?: number;
  /** Largest proxy event. @default 6 MiB (Lambda's invocation payload) */
  maxEventBytes?: number;
  /** API Gateway's completion invocation after each streamed response. @default true */
  completionInvocations?: boolean;
  /** Receives the result of each completion invocation. */
  onCompletion?: RestFrontOptions['onCompletion'];
  /** Browser origins allowed (function env `MCP_ALLOWED_ORIGINS`, front CORS preflight). @default local origins + DESIGN §6 */
  allowedOrigins?: readonly string[];
  /**
   * Start DynamoDB Local, create the platform's tables and pass their names (DESIGN §6) and endpoint
   * (`AWS_ENDPOINT_URL_DYNAMODB`). @default true for the platform entry, false for other entries
   */
  dynamodb?: boolean;
  /**
   * Start a local token issuer and pass `AUTH_ISSUER`, `AUTH_AUDIENCE`, `AUTH_JWKS_URL`; its tokens are in
   * {@link LocalStack.devTokens}. @default true for the platform entry, false for other entries
   */
  auth?: boolean;
  /**
   * Start the local record providers (the SCIM server; slapd when installed) and add their sources
   * (`acme-scim`, `acme-ldap`) to the seeded demo directory (`npm start` does). @default false
   */
  providers?: boolean;
  /**
   * With `providers`, also run Samba AD DC (when it can run here) and add `acme-ad` (`npm start` does).
   * Off by default: Samba's ports are fixed, so only one run on the machine can have it. @default false
   */
  activeDirectory?: boolean;
  /**
   * The directory document seeded into DynamoDB Local in place of the demo one (benchmarks point it at
   * providers they run themselves; their credentials go in `env` as `BOS_SECRET_<NAME>`). Not combined with
   * `providers`. @default the demo directory
   */
  directory?: DirectoryDocument;
  /**
   * Sync the directory's cached sources (docs/cache.md) through the Invoke API before returning, then every
   * minute until closed, as the deployed schedule does (`npm start` does). Needs `dynamodb`.
   * @default the value of `providers`
   */
  cacheSync?: boolean;
  /** Receives each line the function prints. @default copied to stderr */
  onFunctionLog?: (entry: { slot: number; stream: 'stdout' | 'stderr'; line: string }) => void;
}

/** A running local stack. */
export interface LocalStack {
  /** The MCP endpoint URL, e.g. `http://127.0.0.1:3000/mcp/apps/bos/platform` (what `ready:` prints). */
  url: string;
  /** The same URL under the name of the function's `MCP_ENDPOINT` variable. */
  endpoint: string;
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** The operator console's page, beside the endpoint (docs/console.md). */
  consoleUrl: string;
  port: number;
  /** The bundle the runtimes load. */
  bundle: BundleResult;
  /** The function (for direct invokes, cold-start benchmarks and spawn counts). */
  pool: RuntimePool;
  /** The function's Lambda Invoke API (`AWS_ENDPOINT_URL_LAMBDA`), through which it invokes itself. */
  invokeApi: InvokeApi;
  /** The environment the function was given. */
  environment: Readonly<Record<string, string>>;
  /** DynamoDB Local's endpoint, when the stack started it. */
  dynamoDbEndpoint?: string;
  /** Where the local providers listen (`providers: true`), by name, e.g. `SCIM 2.0 server` → its base URL. */
  providerEndpoints?: Record<string, string>;
  /** The supervised DynamoDB Local itself, when the stack started it (its `pid`, for outage tests). */
  dynamoDbLocal?: DynamoDbLocal;
  /** Bearer tokens of the demo principals, when the stack started a local issuer. */
  devTokens?: Readonly<Record<string, string>>;
  /** Mints a token of the local issuer for any subject (e.g. with an `org_id` tenant claim). */
  mintToken?: DevAuth['mint'];
  /** Headers a client needs on every request (`Authorization` for the `dev-user` principal, if any). */
  clientHeaders: Readonly<Record<string, string>>;
  /** Stops the front, every runtime process and whatever else the stack started. */
  close(): Promise<void>;
}

/** The local function's name (`AWS_LAMBDA_FUNCTION_NAME` in its runtimes). */
const FUNCTION_NAME = 'bos-mcp-platform';

/** How often the local stack sends the source cache's sync event (the shortest `refresh` a source may ask). */
const CACHE_SYNC_INTERVAL_MS = 60_000;

/** The entries of `record` whose names start with `prefix`. */
function pick(record: Readonly<Record<string, string>>, prefix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name.startsWith(prefix)));
}

/** Boots the stack; on any failure everything started so far is stopped before the error is rethrown. */
export async function startStack(options: StackOptions = {}): Promise<LocalStack> {
  const cleanups: Array<() => Promise<void>> = [];
  const close = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const entry = fromRepo(options.handlerEntry ?? PLATFORM_HANDLER_ENTRY);
    const bundle = await bundleHandler({
      entry,
      outDir: options.bundleDir ?? defaultBundleDir(entry),
      withConsole: entry === PLATFORM_HANDLER_ENTRY,
    });

    // The front listens first: the function's MCP_ENDPOINT needs its port. Nothing calls it before we return.
    const started: { pool?: RuntimePool } = {};
    const front: RestFront = await startRestFront({
      invoker: {
        invoke: (event, invokeOptions) => {
          if (started.pool === undefined)
            return Promise.reject(new Error('the local function is not running yet'));
          return started.pool.invoke(event, invokeOptions);
        },
      },
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      stage: options.stage ?? 'local',
      idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
      maxDurationMs: options.maxDurationMs ?? 900_000,
      allowedOrigins: options.allowedOrigins ?? [],
      onClientLoss: options.onClientLoss ?? 'keep-running',
      ...(options.shaping !== null && {
        shaping: options.shaping ?? {
          burstBytes: STREAM_BURST_BYTES,
          bytesPerSecond: STREAM_BYTES_PER_SECOND,
        },
      }),
      ...(options.maxResponseBytes !== undefined && { maxResponseBytes: options.maxResponseBytes }),
      ...(options.maxEventBytes !== undefined && { maxEventBytes: options.maxEventBytes }),
      completionInvocations: options.completionInvocations ?? true,
      ...(options.onCompletion !== undefined && { onCompletion: options.onCompletion }),
    });
    cleanups.push(() => front.close());
    const url = `${front.url}${MCP_PATH}`;
    const allowedOrigins = options.allowedOrigins ?? [
      front.url,
      `http://localhost:${front.port}`,
      'https://claude.ai',
      'https://claude.com',
    ];

    // The Invoke API the function reaches itself through (task workers), as the front invokes it: lazily.
    const invokeApi = await startInvokeApi({
      functionName: FUNCTION_NAME,
      invoke: (event) => {
        if (started.pool === undefined)
          return Promise.reject(new Error('the local function is not running yet'));
        return started.pool.invoke(event);
      },
    });
    cleanups.push(() => invokeApi.close());

    const isPlatform = entry === PLATFORM_HANDLER_ENTRY;
    const environment: Record<string, string> = {
      ...LAMBDA_BASE_ENVIRONMENT,
      AWS_ENDPOINT_URL_LAMBDA: invokeApi.url,
      MCP_ENDPOINT: url,
      MCP_ALLOWED_ORIGINS: allowedOrigins.join(','),
      BOS_DEADLINE_RESERVE_MS: '1000',
    };
    let directory: DirectoryDocument | undefined = options.directory;
    let providerEndpoints: Record<string, string> | undefined;
    if (options.providers === true && options.directory !== undefined)
      throw new Error('startStack: give providers or directory, not both');
    if (options.providers === true && isPlatform) {
      const running = await startDemoProviders({ activeDirectory: options.activeDirectory === true });
      cleanups.push(() => running.close());
      Object.assign(environment, running.environment);
      const { scim, ldap, ad, entra } = running.providers;
      providerEndpoints = {
        ...(scim && { 'SCIM 2.0 server': scim.baseUrl }),
        ...(ldap && { 'LDAP (slapd)': `${ldap.url}  base ${ldap.baseDn}` }),
        ...(ad && { 'Active Directory': `${ad.url}  base ${ad.baseDn}` }),
        ...(entra && { 'Graph replay': entra.graphUrl, 'Entra token URL': entra.tokenUrl }),
      };
      directory = parseDirectoryDocument(
        JSON.parse(JSON.stringify(demoDirectoryWithProviders(running.providers))),
      );
    }
    let dynamoDbEndpoint: string | undefined;
    let dynamoDbLocal: DynamoDbLocal | undefined;
    if (options.dynamodb ?? isPlatform) {
      const tables = await startLocalTables(directory);
      cleanups.push(() => tables.stop());
      dynamoDbEndpoint = tables.endpoint;
      dynamoDbLocal = tables.dynamoDbLocal;
      Object.assign(environment, tables.environment);
    }
    let devTokens: Record<string, string> | undefined;
    let mintToken: DevAuth['mint'] | undefined;
    if (options.auth ?? isPlatform) {
      const issuer = await startDevIssuer({ audience: url });
      cleanups.push(() => issuer.close());
      devTokens = { ...issuer.tokens };
      mintToken = (subject, claims) => issuer.mint(subject, claims);
      Object.assign(environment, {
        AUTH_ISSUER: issuer.issuer,
        AUTH_AUDIENCE: issuer.audience,
        AUTH_JWKS_URL: issuer.jwksUrl,
      });
    }
    // The demo's source credentials (`acme-crm` → BOS_SECRET_ACME_CRM_TOKEN), random on every start; the
    // local providers' real ones (set above) are kept.
    if (isPlatform)
      Object.assign(environment, { ...localSourceSecrets(), ...pick(environment, 'BOS_SECRET_') });
    // One requestState key for every runtime, as the deployed stack's secret is one for every environment:
    // a 2026-07-28 multi-round retry may land on another runtime. Random per start; the template's secret
    // ARN is a CloudFormation reference, which the local stack skips.
    if (isPlatform) environment.MCP_REQUEST_STATE_SECRET = randomBytes(32).toString('base64url');
    Object.assign(environment, options.env);
    const onLog = options.onFunctionLog ?? ((entry) => process.stderr.write(`${entry.line}\n`));
    const running = await RuntimePool.start({
      taskRoot: bundle.taskRoot,
      handler: bundle.handler,
      functionName: FUNCTION_NAME,
      size: options.poolSize ?? 4,
      ...(options.concurrency !== undefined && { maxConcurrency: options.concurrency }),
      ...(options.maxParallelInits !== undefined && { maxParallelInits: options.maxParallelInits }),
      timeoutSeconds: options.timeoutSeconds ?? 900,
      memorySizeMb: options.memorySizeMb ?? 1024,
      environment,
      onLog,
    });
    started.pool = running;
    cleanups.push(() => running.close());
    if ((options.cacheSync ?? options.providers === true) && environment.BOS_BASELINE_TABLE !== undefined) {
      const schedule = await startCacheSyncSchedule({
        invokeUrl: invokeApi.url,
        functionName: FUNCTION_NAME,
        intervalMs: CACHE_SYNC_INTERVAL_MS,
      });
      cleanups.push(() => schedule.stop());
    }
    log('info', 'local stack started', {
      url,
      runtimes: options.poolSize ?? 4,
      concurrency: running.maxConcurrency,
      bundle: bundle.file,
    });
    return {
      url,
      endpoint: url,
      baseUrl: front.url,
      consoleUrl: `${front.url}${CONSOLE_PATH}`,
      port: front.port,
      bundle,
      pool: running,
      invokeApi,
      environment,
      ...(dynamoDbEndpoint === undefined ? {} : { dynamoDbEndpoint }),
      ...(dynamoDbLocal === undefined ? {} : { dynamoDbLocal }),
      ...(providerEndpoints === undefined ? {} : { providerEndpoints }),
      ...(devTokens === undefined ? {} : { devTokens }),
      ...(mintToken === undefined ? {} : { mintToken }),
      clientHeaders:
        devTokens?.['dev-user'] === undefined ? {} : { Authorization: `Bearer ${devTokens['dev-user']}` },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
