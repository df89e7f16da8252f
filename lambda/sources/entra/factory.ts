/**
 * Builds `entra` adapters with this composition's kernel settings (loopback allowance, log). A definition's
 * options are read when its source is built; the Entra ID adapter code is loaded on the first read
 * (`registry/deferred.ts`), and its Graph delta feed on the cache's first sync.
 */
import type { ProviderSettings } from '../kernel/settings.js';
import { deferredSourceFactory } from '../registry/deferred.js';
import type { SourceFactory } from '../registry/types.js';
import { noteEntraSource } from './delta.js';
import { entraOptionsFromSpec } from './options.js';

export function createEntraSourceFactory(settings: ProviderSettings = {}): SourceFactory {
  return deferredSourceFactory(
    (spec) => {
      const options = entraOptionsFromSpec(spec, settings.allowLoopbackHttp ?? false);
      // The cache's change feed of this source (delta.ts) reads Graph with the same options and settings.
      noteEntraSource(spec, options, settings);
      return options;
    },
    async () => {
      const { createEntraSource } = await import('./entra-source.js');
      return (spec, options) => createEntraSource(spec, options, settings);
    },
  );
}
