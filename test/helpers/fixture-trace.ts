/**
 * The fixture adapters' trace (`BOS_FIXTURE_TRACE=1`): `bos.fixture.read`, `.pull`, `.abort` and `.end` log
 * lines with wall-clock `atMs`, as the function printed them through the local stack, for tests that watch
 * cancellation reach the sources.
 */
import type { BosStack } from './bos-stack.js';

/** One traced adapter step. */
export interface Trace {
  kind: 'read' | 'pull' | 'abort' | 'end';
  source: string;
  atMs: number;
}

/** The traced steps logged at or after `since` (epoch ms). */
export function fixtureTraces(bos: BosStack, since: number): Trace[] {
  return bos.logs
    .map((line) => line.fields)
    .filter((f) => typeof f['message'] === 'string' && f['message'].startsWith('bos.fixture.'))
    .map((f) => ({ kind: f['kind'], source: f['source_identity'], atMs: f['atMs'] }) as Trace)
    .filter((t) => t.atMs >= since);
}

/** The sources whose read had started and not ended at `at`. */
export function inFlightAt(traces: Trace[], at: number): string[] {
  const started = new Set(traces.filter((t) => t.kind === 'read' && t.atMs <= at).map((t) => t.source));
  const ended = new Set(traces.filter((t) => t.kind === 'end' && t.atMs <= at).map((t) => t.source));
  return [...started].filter((source) => !ended.has(source));
}
