/**
 * Source credentials referenced by name: a source definition names a credential
 * (`credential_ref`), and only the adapter, at read time, turns the name into a value. The value is
 * never stored in the directory, never part of an output, error or log line.
 */
import { CREDENTIAL_REF_PATTERN } from './document.js';
import { CredentialError } from './errors.js';

/**
 * Port: credential name → secret value. Locally the environment (`BOS_SECRET_<NAME>`); deployed, AWS
 * Secrets Manager (`lambda/aws/secrets/secrets-manager-credentials.ts`, which matches this shape). Implementations
 * throw {@link CredentialError}-like errors whose messages name the reference only.
 */
export interface CredentialResolver {
  resolve(name: string): Promise<string>;
}

/**
 * What an adapter holds: the reference, and a way to get the value when it is about to call its
 * provider. Serialising or printing it shows only the name, so an adapter that logs its configuration
 * cannot leak the value by accident.
 */
export interface SourceCredential {
  readonly name: string;
  value(): Promise<string>;
  toJSON(): string;
  toString(): string;
}

/** `BOS_SECRET_<NAME>` from the given environment (usually `process.env`, passed in: no global reads). */
export function createEnvCredentialResolver(
  env: Readonly<Record<string, string | undefined>>,
): CredentialResolver {
  return {
    resolve(name) {
      if (!CREDENTIAL_REF_PATTERN.test(name)) {
        return Promise.reject(
          new CredentialError('invalid_reference', `credential reference "${name}" is not a valid name`),
        );
      }
      const value = env[`BOS_SECRET_${name}`];
      if (value === undefined || value === '') {
        return Promise.reject(
          new CredentialError(
            'unknown_credential',
            `credential ${name} is not configured (BOS_SECRET_${name})`,
          ),
        );
      }
      return Promise.resolve(value);
    },
  };
}

/** Binds a reference to a resolver for one adapter; nothing is resolved until `value()` is called. */
export function sourceCredential(resolver: CredentialResolver, name: string): SourceCredential {
  const shown = `[credential ${name}]`;
  return {
    name,
    value: () => resolver.resolve(name),
    toJSON: () => shown,
    toString: () => shown,
    // Node's util.inspect (used by console and some loggers) would otherwise list the closure's object.
    [Symbol.for('nodejs.util.inspect.custom')]: () => shown,
  };
}
