/**
 * What a source adapter is built from. `lambda/sources` may import only `lambda/federation` (DESIGN §2), so
 * these shapes are declared here and the composition root fills them from the directory's source
 * definitions (`lambda/bos/directory/document.ts`), which match them structurally.
 */
import type { SourceAdapter } from '../../federation/index.js';
import type { SourceCachePolicy } from '../cache/port.js';

/**
 * A credential as an adapter holds it: the reference, and a way to get the value when the adapter is about
 * to call its provider ("resolved only inside the adapter"). The directory's `SourceCredential`
 * satisfies it; an adapter calls `value()` inside `read`, never at construction, and never logs, returns or
 * throws the value.
 */
export interface ProviderCredential {
  readonly name: string;
  value(): Promise<string>;
}

/** One source as the directory defines it, with its credential bound but not resolved. */
export interface SourceSpec {
  /** The id contexts name; it becomes the adapter's `source_identity`. */
  readonly source_id: string;
  /** Adapter kind, the key of a {@link SourceFactory} (e.g. `fixture`). */
  readonly adapter: string;
  /** Adapter-specific, non-secret options. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Present when the definition names a `credential_ref`. */
  readonly credential?: ProviderCredential;
  /** Present when the definition opts the source in to the cache. */
  readonly cache?: SourceCachePolicy;
}

/** Builds the adapter of one spec; throws `SourceConfigError` when the options are not valid for it. */
export type SourceFactory = (spec: SourceSpec) => SourceAdapter;

/** Adapter kind → factory. */
export type SourceFactories = Readonly<Record<string, SourceFactory>>;
