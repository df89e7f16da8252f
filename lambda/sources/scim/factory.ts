/**
 * Builds `scim` adapters with this composition's kernel settings (loopback allowance, log). A definition's
 * options are read when its source is built; the SCIM 2.0 adapter code is loaded on the first read
 * (`registry/deferred.ts`).
 */
import type { ProviderSettings } from '../kernel/settings.js';
import { deferredSourceFactory } from '../registry/deferred.js';
import type { SourceFactory } from '../registry/types.js';
import { scimOptionsFromSpec } from './options.js';

export function createScimSourceFactory(settings: ProviderSettings = {}): SourceFactory {
  return deferredSourceFactory(
    (spec) => scimOptionsFromSpec(spec, settings.allowLoopbackHttp ?? false),
    async () => {
      const { createScimSource } = await import('./scim-source.js');
      return (spec, options) => createScimSource(spec, options, settings);
    },
  );
}
