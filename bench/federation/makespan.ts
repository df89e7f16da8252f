/**
 * (c) Makespan: 32 sources that each answer one record after 200 ms, read with at most 8 in flight. The ideal
 * is 4 waves × 200 ms; the figure shows what the engine's scheduling adds, and that the bound holds.
 */
import { runFederation } from '../../lambda/federation/index.js';
import type { RawRecord, SourceAdapter } from '../../lambda/federation/index.js';

/** The figures of (c). */
export interface Makespan {
  sources: number;
  latencyMs: number;
  max: number;
  makespanMs: number;
  idealMs: number;
  maxInFlight: number;
}

/** Runs (c) once through the engine. */
export async function measureMakespan(): Promise<Makespan> {
  const sources = 32;
  const latencyMs = 200;
  const max = 8;
  let inFlight = 0;
  let maxInFlight = 0;
  const adapters: SourceAdapter[] = Array.from({ length: sources }, (_, i) => {
    const source = { source_type: 'bench', source_identity: `s${i}` };
    return {
      source,
      async *read(_query, { signal }) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, latencyMs);
            signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
          });
          const record: RawRecord = {
            ...source,
            external_id: 'only',
            record_type: 'person',
            observed_at: '2026-10-08T12:00:00Z',
            capabilities: ['read'],
          };
          yield [record];
        } finally {
          inFlight--;
        }
      },
    };
  });
  const started = performance.now();
  await runFederation({
    sources: adapters,
    query: { operation: 'list_people' },
    deadline: Date.now() + 30_000,
    maxConcurrentSources: max,
  });
  const makespanMs = performance.now() - started;
  return { sources, latencyMs, max, makespanMs, idealMs: Math.ceil(sources / max) * latencyMs, maxInFlight };
}
