/**
 * Three knobs exist for the local stack's tests and benchmarks only:
 * - `BOS_FIXTURE_PRESET`: `demo` (default: the directory's own definitions), `synthetic` or `hanging`
 *   (`lambda/sources/fixture/presets.ts`, which replace the directory's sources);
 * - `BOS_FIXTURE_LATENCY_SCALE`: multiplies every per-page latency of a fixture source (e.g. `0.25`);
 * - `BOS_FIXTURE_TRACE=1`: one `bos.fixture.<read|pull|abort|end>` info line per adapter observation.
 * They are honoured only when the function is not really deployed: outside a Lambda runtime, or when
 * `MCP_ENDPOINT` is a loopback URL (the local stack). A deployed endpoint must be https on a public host
 * (`config.ts`), so no real deployment can switch them on; there they are ignored with a warning.
 */
import { ConfigError } from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import type { Logger } from '../mcp/index.js';
import { FIXTURE_PRESET_NAMES, isFixturePresetName } from '../sources/index.js';
import type { FixturePresetName } from '../sources/index.js';

type Env = Readonly<Record<string, string | undefined>>;

const KNOBS = ['BOS_FIXTURE_PRESET', 'BOS_FIXTURE_LATENCY_SCALE', 'BOS_FIXTURE_TRACE'] as const;

/** True for the local stack and in-process runs; false for any real deployment. */
export function isLocalRun(config: PlatformConfig): boolean {
  if (!config.deployed) return true;
  const host = config.endpoint?.hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/** The knobs' values; the defaults on a real deployment. */
export interface FixtureKnobs {
  preset: FixturePresetName;
  latencyScale: number;
  trace: boolean;
}

/**
 * What the composition root decides once about where the function runs, for every part that behaves
 * differently locally: plain `http`/`ldap` to loopback providers, credentials from `BOS_SECRET_<NAME>`
 * instead of Secrets Manager, the local dev issuer, and the fixture knobs.
 */
export interface LocalKnobs {
  /** {@link isLocalRun}: the local stack or an in-process run, never a real deployment. */
  readonly local: boolean;
  readonly fixture: FixtureKnobs;
}

/**
 * Decides {@link LocalKnobs} once. Throws `ConfigError` listing every malformed fixture knob on a local run;
 * on a real deployment the knobs keep their defaults, with one warning if any is set.
 * @param env usually `process.env`
 */
export function localKnobs(config: PlatformConfig, env: Env, logger: Logger): LocalKnobs {
  const local = isLocalRun(config);
  return { local, fixture: fixtureKnobs(local, env, logger) };
}

function fixtureKnobs(local: boolean, env: Env, logger: Logger): FixtureKnobs {
  const defaults: FixtureKnobs = { preset: 'demo', latencyScale: 1, trace: false };
  if (!local) {
    if (KNOBS.some((name) => env[name] !== undefined))
      logger.warn('bos.fixture.knobs_ignored', {
        reason: 'deployed',
        variables: KNOBS.filter((n) => env[n]),
      });
    return defaults;
  }
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
  if (problems.length > 0 || !isFixturePresetName(preset)) throw new ConfigError(problems);
  const knobs: FixtureKnobs = { preset, latencyScale, trace: rawTrace === '1' };
  if (preset !== 'demo' || latencyScale !== 1 || knobs.trace) logger.info('bos.fixture.knobs', { ...knobs });
  return knobs;
}
