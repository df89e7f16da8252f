/**
 * One execution environment: a Runtime API endpoint of its own plus the runtime process polling it. A
 * separate endpoint per environment (as on Lambda) tells us which process holds which invocation, so a timeout
 * kills exactly the right one.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvocationError } from './errors.js';
import type { Invocation } from './invocation.js';
import { type PostOutcome, createRuntimeApiServer } from './runtime-api-server.js';
import { type RuntimeProcessOptions, spawnRuntime } from './runtime-process.js';

/** `dead`: no process. `starting`: spawned, not yet polling. `idle`: polling `/next`. `busy`: running an invocation. */
export type SlotState = 'dead' | 'starting' | 'idle' | 'busy';

/** How an environment's process ended, for the pool to decide what comes next. */
export interface SlotExit {
  /** The process ended before its first `/next`: the function failed to initialise. */
  duringInit: boolean;
  /** `stopped`: by {@link RuntimeSlot.stop}/`killNow`; `timeout`: killed at the deadline; `crashed`: on its own. */
  reason: 'stopped' | 'timeout' | 'crashed';
  /** What the runtime reported to `/init/error`, or how the process exited. */
  failure: { errorType: string; errorMessage: string };
}

/** The pool as an environment sees it. */
export interface SlotHost {
  /** The environment is polling and can take an invocation. */
  slotIdle(slot: RuntimeSlot): void;
  /** The environment's process ended. */
  slotExited(slot: RuntimeSlot, exit: SlotExit): void;
}

/** Everything a runtime process needs except its endpoint, which the slot owns. */
export type SlotProcessOptions = Omit<RuntimeProcessOptions, 'runtimeApi' | 'onLine'> & {
  onLine: (slot: number, stream: 'stdout' | 'stderr', line: string) => void;
  /** `Lambda-Runtime-Invoked-Function-Arn`. */
  functionArn: string;
};

/** One execution environment. */
export class RuntimeSlot {
  readonly index: number;
  readonly #host: SlotHost;
  readonly #options: SlotProcessOptions;
  readonly #server: Server;
  #port = 0;
  #state: SlotState = 'dead';
  #child: ChildProcess | undefined;
  #parked: ServerResponse | undefined;
  #current: Invocation | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #reachedNext = false;
  #exitReason: SlotExit['reason'] = 'crashed';
  #initFailure: { errorType: string; errorMessage: string } | undefined;
  #spawnedAt = 0;
  #initDurationMs: number | undefined;

  constructor(index: number, host: SlotHost, options: SlotProcessOptions) {
    this.index = index;
    this.#host = host;
    this.#options = options;
    this.#server = createRuntimeApiServer({
      next: (res) => this.#onNext(res),
      response: (id, req, res) => this.#onPost(id, (invocation) => invocation.respond(req, res)),
      error: (id, failure) =>
        this.#onPost(id, (invocation) => {
          invocation.fail(new InvocationError('function_error', failure.errorType, failure.errorMessage));
          return true;
        }),
      initError: (failure) => {
        this.#initFailure = failure;
      },
    });
  }

  get state(): SlotState {
    return this.#state;
  }

  /**
   * Milliseconds from spawning the current process to its first `/next` (Lambda's "Init Duration": Node
   * start, runtime client, handler module load), or undefined while it is still starting.
   */
  get initDurationMs(): number | undefined {
    return this.#initDurationMs;
  }

  /** Whether the environment can take an invocation right now. */
  get canTake(): boolean {
    return this.#state === 'idle' && this.#parked !== undefined;
  }

  /** Binds this environment's Runtime API to a free port on 127.0.0.1. */
  async listen(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  /** Starts a fresh runtime process (a cold start). */
  spawn(): void {
    this.#state = 'starting';
    this.#reachedNext = false;
    this.#exitReason = 'crashed';
    this.#initFailure = undefined;
    this.#initDurationMs = undefined;
    this.#spawnedAt = performance.now();
    const child = spawnRuntime({
      ...this.#options,
      runtimeApi: `127.0.0.1:${this.#port}`,
      onLine: (stream, line) => this.#options.onLine(this.index, stream, line),
    });
    this.#child = child;
    child.once('exit', (code, signal) => this.#onExit(child, code, signal));
  }

  /** Hands an invocation to the polling runtime and starts the function timeout. */
  deliver(invocation: Invocation): void {
    const res = this.#parked;
    if (res === undefined) throw new Error('deliver() needs a polling runtime');
    this.#parked = undefined;
    this.#state = 'busy';
    this.#current = invocation;
    invocation.start();
    // Lambda's timeout counts from delivery; the RIC turns this header into getRemainingTimeInMillis().
    const timeoutMs = this.#options.timeoutSeconds * 1000;
    const deadline = Date.now() + timeoutMs;
    this.#deadlineTimer = setTimeout(() => this.#onDeadline(invocation), timeoutMs);
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Lambda-Runtime-Aws-Request-Id': invocation.requestId,
      'Lambda-Runtime-Deadline-Ms': String(deadline),
      'Lambda-Runtime-Invoked-Function-Arn': this.#options.functionArn,
      'Lambda-Runtime-Trace-Id': traceId(),
    });
    res.end(invocation.payload);
  }

  /** Kills the process (if any) and waits until it is gone. The pool decides what happens next. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    this.#exitReason = 'stopped';
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Stops the process and closes the endpoint. */
  async close(): Promise<void> {
    await this.stop();
    this.#server.closeAllConnections();
    this.#server.close();
  }

  /** The event of the invocation this environment is running, if any (JSON, as delivered). */
  get currentEvent(): string | undefined {
    return this.#current?.payload;
  }

  /**
   * Kills the process as a crash would (out of memory, a native fault): its invocation fails and the pool
   * replaces the environment. For tests of what survives a dying worker.
   */
  crash(): void {
    this.#child?.kill('SIGKILL');
  }

  /** Kills the process synchronously (process `exit` handlers cannot wait). */
  killNow(): void {
    this.#exitReason = 'stopped';
    this.#child?.kill('SIGKILL');
  }

  #onNext(res: ServerResponse): void {
    const previous = this.#current;
    this.#finishInvocation();
    // A runtime asks for more work only after answering; anything unanswered is a runtime bug. (The usual
    // case, an answered invocation, is already settled: no error object is built on every poll.)
    if (previous !== undefined && previous.phase !== 'settled') {
      previous.fail(
        new InvocationError('runtime_exit', 'Runtime.InvalidState', 'runtime polled without answering'),
      );
    }
    if (!this.#reachedNext) this.#initDurationMs = performance.now() - this.#spawnedAt;
    this.#reachedNext = true;
    this.#state = 'idle';
    this.#parked = res;
    res.once('close', () => {
      if (this.#parked === res) this.#parked = undefined;
    });
    this.#host.slotIdle(this);
  }

  #onPost(requestId: string, apply: (invocation: Invocation) => boolean): PostOutcome {
    const invocation = this.#current;
    if (invocation === undefined || invocation.requestId !== requestId) return 'unknown_request';
    return apply(invocation) ? 'accepted' : 'invalid_state';
  }

  #onDeadline(invocation: Invocation): void {
    const seconds = this.#options.timeoutSeconds.toFixed(2);
    invocation.fail(
      new InvocationError('timeout', 'Sandbox.Timedout', `Task timed out after ${seconds} seconds`),
    );
    this.#exitReason = 'timeout';
    this.#child?.kill('SIGKILL');
  }

  #finishInvocation(): void {
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
    this.#current = undefined;
  }

  #onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#child !== child) return;
    const invocation = this.#current;
    this.#finishInvocation();
    this.#child = undefined;
    this.#parked = undefined;
    this.#state = 'dead';
    const how = signal === null ? `exit code ${code ?? 'unknown'}` : `signal ${signal}`;
    // A runtime stopped on purpose (the function shutting down) takes its invocation with it: that is the
    // shutdown, not a crash of the function's.
    invocation?.fail(
      this.#exitReason === 'stopped'
        ? new InvocationError('closed', 'Invoke.Closed', 'the local function was shut down')
        : new InvocationError('runtime_exit', 'Runtime.ExitError', `runtime exited (${how})`),
    );
    this.#host.slotExited(this, {
      duringInit: !this.#reachedNext,
      reason: this.#exitReason,
      failure: this.#initFailure ?? {
        errorType: 'Runtime.ExitError',
        errorMessage: `runtime exited (${how})`,
      },
    });
  }
}

/** An X-Ray style trace header (`Root=1-<epoch hex>-<96-bit hex>`), as Lambda passes to every invocation. */
function traceId(): string {
  const epoch = Math.floor(Date.now() / 1000).toString(16);
  const random = Array.from({ length: 24 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `Root=1-${epoch}-${random};Sampled=0`;
}
