/** Source adapters implementing the federation engine's SourceAdapter port. */
export {
  DEMO_SOURCE_OPTIONS,
  FIXTURE_PRESET_NAMES,
  applyQuery,
  createDemoSources,
  createFixtureSource,
  fixturePreset,
  fixtureRecords,
  hashString,
  isFixturePresetName,
  mulberry32,
  poolBase,
  poolPerson,
  POOL_RANGE,
  sample,
  scaleLatency,
  sleep,
  traceSource,
} from './fixture/index.js';
export type {
  FixtureFailure,
  FixtureOverlap,
  FixturePresetName,
  FixtureSourceOptions,
  PoolPerson,
  Random,
  SourceTraceEvent,
} from './fixture/index.js';
