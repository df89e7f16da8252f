/**
 * Builds `entra` adapters with this composition's kernel settings (loopback allowance, log). A definition's
 * options are read when its source is built; the Entra ID adapter code is loaded on the first read
 * (`registry/deferred.ts`).
 */
import type { ProviderSettings } from '../kernel/settings.js';
import { deferredSourceFactory } from '../registry/deferred.js';
import type { SourceFactory } from '../registry/types.js';
import { entraOptionsFromSpec } from './options.js';

export function createEntraSourceFactory(settings: ProviderSettings = {}): SourceFactory {
  return deferredSourceFactory(
    (spec) => entraOptionsFromSpec(spec, settings.allowLoopbackHttp ?? false),
    async () => {
      const { createEntraSource } = await import('./entra-source.js');
      return (spec, options) => createEntraSource(spec, options, settings);
    },
  );
}
