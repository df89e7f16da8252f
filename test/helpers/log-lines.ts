/**
 * The JSON lines (Powertools log lines, EMF blobs) that code under test writes to stdout and stderr, taken
 * instead of printed. A test that provokes an error or warning line on purpose checks it here, so a passing
 * suite prints no line that looks like a failure. Only writes that start with `{` are taken: the test
 * runner's own report passes through untouched, so no test result is ever swallowed.
 */

/** Runs `work` and returns what it resolved to with the JSON lines it wrote, in order. */
export async function withLogLines<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
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
    return { result: await work(), lines };
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
