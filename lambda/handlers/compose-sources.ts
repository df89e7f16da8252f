/**
 * The source adapters of the embedded demo directory, keyed by source id as `createDemoDirectory` grants
 * them. `BOS_DIRECTORY_TABLE` and real adapters are a later issue; until then every deployment reads the
 * fixture sources.
 *
 * Three knobs exist for the local stack's tests and benchmarks only:
 * - `BOS_FIXTURE_PRESET`: `demo` (default), `synthetic` or `hanging` (`lambda/sources/fixture/presets.ts`);
 * - `BOS_FIXTURE_LATENCY_SCALE`: multiplies every per-page latency (e.g. `0.25`);
 * - `BOS_FIXTURE_TRACE=1`: one `bos.fixture.<read|pull|abort|end>` info line per adapter observation.
 * They are honoured only when the function is not really deployed: outside a Lambda runtime, or when
 * `MCP_ENDPOINT` is a loopback URL (the local stack). A deployed endpoint must be https on a public host
 * (`config.ts`), so no real deployment can switch them on; there they are ignored with a warning.
 */
import { ConfigError } from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import type { SourceAdapter } from '../federation/index.js';
import type { Logger } from '../mcp/index.js';
import {
  createFixtureSource,
  FIXTURE_PRESET_NAMES,
  fixturePreset,
  isFixturePresetName,
  scaleLatency,
  traceSource,
} from '../sources/index.js';

type Env = Readonly<Record<string, string | undefined>>;

const KNOBS = ['BOS_FIXTURE_PRESET', 'BOS_FIXTURE_LATENCY_SCALE', 'BOS_FIXTURE_TRACE'] as const;

/** True for the local stack and in-process runs; false for any real deployment. */
export function isLocalRun(config: PlatformConfig): boolean {
  if (!config.deployed) return true;
  const host = config.endpoint?.hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

interface FixtureKnobs {
  preset: string;
  latencyScale: number;
  trace: boolean;
}

function readKnobs(env: Env): FixtureKnobs {
  const problems: string[] = [];
  const preset = env['BOS_FIXTURE_PRESET']?.trim() || 'demo';
  if (!isFixturePresetName(preset))
    problems.push(`BOS_FIXTURE_PRESET must be one of ${FIXTURE_PRESET_NAMES.join(', ')}, got "${preset}"`);
  const rawScale = env['BOS_FIXTURE_LATENCY_SCALE']?.trim() || '1';
  const latencyScale = /^\d+(\.\d+)?$/.test(rawScale) ? Number(rawScale) : NaN;
  if (!(latencyScale >= 0 && latencyScale <= 100))
    problems.push(`BOS_FIXTURE_LATENCY_SCALE must be a number from 0 to 100, got "${rawScale}"`);
  const rawTrace = env['BOS_FIXTURE_TRACE']?.trim() || '0';
  if (rawTrace !== '0' && rawTrace !== '1')
    problems.push(`BOS_FIXTURE_TRACE must be 0 or 1, got "${rawTrace}"`);
  if (problems.length > 0) throw new ConfigError(problems);
  return { preset, latencyScale, trace: rawTrace === '1' };
}

/**
 * Builds the adapters (source id → adapter). Throws `ConfigError` for a malformed knob on a local run.
 * @param env usually `process.env`
 */
export function composeSources(config: PlatformConfig, env: Env, logger: Logger): Map<string, SourceAdapter> {
  let knobs: FixtureKnobs = { preset: 'demo', latencyScale: 1, trace: false };
  if (isLocalRun(config)) knobs = readKnobs(env);
  else if (KNOBS.some((name) => env[name] !== undefined))
    logger.warn('bos.fixture.knobs_ignored', { reason: 'deployed', variables: KNOBS.filter((n) => env[n]) });

  const preset = isFixturePresetName(knobs.preset) ? knobs.preset : 'demo';
  const options = scaleLatency(fixturePreset(preset), knobs.latencyScale);
  const adapters = options.map((o) => {
    const adapter = createFixtureSource(o);
    return knobs.trace
      ? traceSource(adapter, (e) => logger.info(`bos.fixture.${e.kind}`, { ...e }))
      : adapter;
  });
  if (preset !== 'demo' || knobs.latencyScale !== 1 || knobs.trace)
    logger.info('bos.fixture.knobs', { preset, latencyScale: knobs.latencyScale, trace: knobs.trace });
  return new Map(adapters.map((a) => [a.source.source_identity, a]));
}
