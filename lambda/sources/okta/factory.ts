/**
 * Builds `okta` adapters with this composition's kernel settings (loopback allowance, log). A definition's
 * options are read when its source is built; the Okta adapter code is loaded on the first read
 * (`registry/deferred.ts`).
 */
import type { ProviderSettings } from '../kernel/settings.js';
import { deferredSourceFactory } from '../registry/deferred.js';
import type { SourceFactory } from '../registry/types.js';
import { oktaOptionsFromSpec } from './options.js';

export function createOktaSourceFactory(settings: ProviderSettings = {}): SourceFactory {
  return deferredSourceFactory(
    (spec) => oktaOptionsFromSpec(spec, settings.allowLoopbackHttp ?? false),
    async () => {
      const { createOktaSource } = await import('./okta-source.js');
      return (spec, options) => createOktaSource(spec, options, settings);
    },
  );
}
