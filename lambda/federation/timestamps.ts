/** The format of the final metadata's instants (§5 final frame prints `2026-10-08T12:00:00+00:00`). */

/** Epoch milliseconds as `YYYY-MM-DDTHH:MM:SS+00:00` (whole seconds, UTC). */
export function formatObservedAt(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
}
