/**
 * The V8 heap flags AWS's Node.js managed runtime starts every function with. Its bootstrap script
 * (`/var/runtime/bootstrap`) derives them from the function's memory size: new space = memory / 10,
 * semi-space = new space / 2, old space = memory − new space (integer megabytes). With the 1,024 MB default
 * that is a 51 MB semi-space, three times V8's own default, which changes how much the garbage collector
 * works on allocation-heavy paths such as a federated read. The local stack starts its runtimes with the same
 * flags, and `npm run bench:federation` passes them on its command line, so both behave like the deployed function.
 */
import { DEFAULT_MEMORY_SIZE_MB } from '../lib/environment.js';

/** The function memory size the CDK stack and the local stack use unless configured otherwise. */
export const DEFAULT_FUNCTION_MEMORY_MB = DEFAULT_MEMORY_SIZE_MB;

/** `--max-semi-space-size` and `--max-old-space-size` for a function of `memorySizeMb`, as Lambda sets them. */
export function lambdaHeapFlags(memorySizeMb: number): string[] {
  const newSpace = Math.floor(memorySizeMb / 10);
  const semiSpace = Math.floor(newSpace / 2);
  return [`--max-semi-space-size=${semiSpace}`, `--max-old-space-size=${memorySizeMb - newSpace}`];
}
