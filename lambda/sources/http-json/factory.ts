/**
 * Builds `http-json` adapters with this composition's kernel settings (loopback allowance, log). A definition's
 * options are read when its source is built; the HTTP JSON adapter code is loaded on the first read
 * (`registry/deferred.ts`).
 */
import type { ProviderSettings } from '../kernel/settings.js';
import { deferredSourceFactory } from '../registry/deferred.js';
import type { SourceFactory } from '../registry/types.js';
import { httpJsonOptionsFromSpec } from './definition.js';

export function createHttpJsonSourceFactory(settings: ProviderSettings = {}): SourceFactory {
  return deferredSourceFactory(
    (spec) => httpJsonOptionsFromSpec(spec, settings.allowLoopbackHttp ?? false),
    async () => {
      const { createHttpJsonSource } = await import('./http-json-source.js');
      return (spec, options) => createHttpJsonSource(spec, options, settings);
    },
  );
}
