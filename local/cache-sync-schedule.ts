/**
 * The local stand-in for the deployed schedule of the source cache (docs/cache.md): a `bos.cache.sync` event sent
 * through the local Lambda Invoke API, as EventBridge would send it, once at start and then every interval. A run
 * never overlaps the previous one; each source's own `refresh` decides whether a run syncs it.
 */
import { cacheSyncEvent } from '../lambda/aws/index.js';
import { describeError, log } from './log.js';

/** Options of {@link startCacheSyncSchedule}. */
export interface CacheSyncScheduleOptions {
  /** The local Invoke API (`AWS_ENDPOINT_URL_LAMBDA`). */
  readonly invokeUrl: string;
  readonly functionName: string;
  /** Time between the end of one run and the start of the next. */
  readonly intervalMs: number;
}

/** A running schedule. */
export interface CacheSyncSchedule {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Sends one sync event synchronously (`RequestResponse`); throws when the function does not answer 204. */
export async function invokeCacheSync(invokeUrl: string, functionName: string): Promise<void> {
  const response = await fetch(
    `${invokeUrl}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Amz-Invocation-Type': 'RequestResponse' },
      body: JSON.stringify(cacheSyncEvent()),
    },
  );
  const body = await response.text();
  const failed = response.headers.get('x-amz-function-error');
  if (!response.ok || failed !== null)
    throw new Error(`cache sync invocation failed (HTTP ${response.status})`);
  // The streamed answer carries the function's HTTP status in its prelude (`{"statusCode":204,…}`).
  const status = /"statusCode":\s*(\d+)/.exec(body)?.[1];
  if (status !== undefined && status !== '204') throw new Error(`cache sync answered ${status}`);
}

/** Runs a sync now (awaited) and then every `intervalMs` until stopped; a failed run is logged, never thrown. */
export async function startCacheSyncSchedule(options: CacheSyncScheduleOptions): Promise<CacheSyncSchedule> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = async (): Promise<void> => {
    try {
      await invokeCacheSync(options.invokeUrl, options.functionName);
    } catch (error) {
      if (!stopped) log('warn', 'source cache sync failed', { error: describeError(error) });
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().then(schedule);
    }, options.intervalMs);
  };
  running = run();
  await running;
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
