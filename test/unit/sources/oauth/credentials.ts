/** A credential bound to a fixed value, shaped like the directory's `SourceCredential`. */
import type { ProviderCredential } from '../../../../lambda/sources/index.js';

/** `value()` resolves `value`; printing the credential shows only its name. */
export function staticCredential(name: string, value: string): ProviderCredential {
  const shown = `[credential ${name}]`;
  return {
    name,
    value: () => Promise.resolve(value),
    toJSON: () => shown,
    toString: () => shown,
    [Symbol.for('nodejs.util.inspect.custom')]: () => shown,
  } as ProviderCredential;
}
