import { SourceError } from '../../federation/index.js';
import type { SourceAdapter, SourceRef } from '../../federation/index.js';
import { SourceConfigError } from './errors.js';
import type { SourceFactories, SourceSpec } from './types.js';

/**
 * The adapter of one spec, from the factory registered for its kind. Throws {@link SourceConfigError} for
 * an unknown kind or options that factory refuses.
 */
export function buildSource(spec: SourceSpec, factories: SourceFactories): SourceAdapter {
  // An own-property lookup: a kind such as `constructor` must not reach Object.prototype.
  const factory = Object.hasOwn(factories, spec.adapter) ? factories[spec.adapter] : undefined;
  if (factory === undefined) {
    const known = Object.keys(factories).join(', ');
    throw new SourceConfigError(spec.source_id, 'unknown_adapter', [
      `adapter "${spec.adapter}" is not known (known: ${known})`,
    ]);
  }
  return factory(spec);
}

/**
 * A stand-in for a source whose definition could not be built: every read ends with `source_unavailable`
 * (DESIGN §4), so a context reading it still gets its other sources. Its `source_type` is the definition's
 * `options.source_type` when it is a string, else the adapter kind.
 */
export function unavailableSource(spec: SourceSpec): SourceAdapter {
  const declared = spec.options['source_type'];
  const source: SourceRef = {
    source_type: typeof declared === 'string' && declared !== '' ? declared : spec.adapter,
    source_identity: spec.source_id,
  };
  const error = () =>
    new SourceError('source_unavailable', `source ${spec.source_id} is not configured correctly`);
  return {
    source,
    // Fails on the first pull, before any page: the engine ends the source with `source_unavailable`.
    read: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error()) }) }),
  };
}
