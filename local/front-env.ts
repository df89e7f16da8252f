/**
 * `npm start`'s knobs for the REST front's AWS behaviours (docs/local-stack.md "Fidelity knobs"), read from the
 * environment and validated once.
 */
import type { StackOptions } from './stack.js';

/** A bad value: `npm start` prints it and exits 2. */
export class FrontEnvError extends Error {
  override readonly name = 'FrontEnvError';
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new FrontEnvError(`${name} must be a whole number ≥ 0`);
  return value;
}

/**
 * `LOCAL_ON_CLIENT_LOSS` (`keep-running` | `close-stream`), `LOCAL_STREAM_BURST_BYTES` and
 * `LOCAL_STREAM_BYTES_PER_SECOND` (0 turns the bandwidth cap off).
 */
export function frontOptionsFromEnv(env: NodeJS.ProcessEnv): Pick<StackOptions, 'onClientLoss' | 'shaping'> {
  const mode = env['LOCAL_ON_CLIENT_LOSS'];
  if (mode !== undefined && mode !== '' && mode !== 'keep-running' && mode !== 'close-stream')
    throw new FrontEnvError('LOCAL_ON_CLIENT_LOSS must be keep-running or close-stream');
  const rate = wholeNumber(env, 'LOCAL_STREAM_BYTES_PER_SECOND');
  const burst = wholeNumber(env, 'LOCAL_STREAM_BURST_BYTES');
  const options: Pick<StackOptions, 'onClientLoss' | 'shaping'> = {};
  if (mode === 'keep-running' || mode === 'close-stream') options.onClientLoss = mode;
  if (rate === 0) options.shaping = null;
  else if (rate !== undefined || burst !== undefined) {
    options.shaping = {
      burstBytes: burst ?? 6 * 1024 * 1024,
      bytesPerSecond: rate ?? 2 * 1024 * 1024,
    };
  }
  return options;
}
