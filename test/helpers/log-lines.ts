/**
 * The JSON lines (Powertools log lines, EMF blobs) that code under test writes to stdout and stderr, taken
 * instead of printed. A test that provokes an error or warning line on purpose checks it here, so a passing
 * suite prints no line that looks like a failure. Only writes that start with `{` are taken: the test
 * runner's own report passes through untouched, so no test result is ever swallowed.
 */

/**
 * Runs `work` and returns what it resolved to with the JSON lines written meanwhile, in order. `work` sees the
 * lines as they arrive, to wait for one written after its answer (a stream cut, a background invocation).
 */
export async function withLogLines<T>(
  work: (lines: readonly string[]) => Promise<T>,
): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const restore = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write.bind(stream);
    stream.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (!text.startsWith('{')) return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      lines.push(...text.split('\n').filter((line) => line !== ''));
      return true;
    };
    return () => {
      stream.write = write;
    };
  });
  try {
    return { result: await work(lines), lines };
  } finally {
    for (const undo of restore) undo();
  }
}

/** The parsed log lines at `level` (`ERROR`, `WARN`, …), EMF blobs left out. */
export function linesAt(lines: readonly string[], level: string): Array<Record<string, unknown>> {
  return lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['level'] === level);
}

/** The messages of the lines at `level`, in order. */
export function messagesAt(lines: readonly string[], level: string): unknown[] {
  return linesAt(lines, level).map((line) => line['message']);
}

/** Waits up to `timeoutMs` for a line whose `message` is `message`; false if none came. */
export async function logged(lines: readonly string[], message: string, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  const seen = () => lines.some((line) => line.includes(`"message":${JSON.stringify(message)}`));
  while (!seen() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return seen();
}
