/**
 * How a source authenticates at an OAuth 2.0 token endpoint with the client-credentials grant (RFC 6749
 * §4.4), as its definition in the directory states it, declared once (`registry/option-table.ts`) for the
 * kinds that flatten these options into their own (`entra`, `okta`) and the `oauth` auth of `http-json`.
 * Everything here is non-secret: the client secret or private key is the source's `credential_ref`,
 * resolved only when a token is requested.
 */
import { isAllowedProviderUrl } from '../kernel/url-policy.js';
import { SourceConfigError } from '../registry/errors.js';
import { oneOf, option, optionTable, readContext, text, valueOf } from '../registry/option-table.js';
import type {
  OptionField,
  OptionTable,
  OptionType,
  OptionValues,
  ReadContext,
} from '../registry/option-table.js';
import type { SourceSpec } from '../registry/types.js';
import type { TokenTransport } from './token-transport.js';

/** RFC 7591 `token_endpoint_auth_method` values the broker speaks. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;

/** One of {@link CLIENT_AUTH_METHODS}. */
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** JWS algorithms accepted for `private_key_jwt` assertions (asymmetric only: the key is a private key). */
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const;

/** One of {@link ASSERTION_ALGORITHMS}. */
export type AssertionAlgorithm = (typeof ASSERTION_ALGORITHMS)[number];

/** The client-credentials settings of one source. */
export interface ClientCredentialsOptions {
  /** The token endpoint, e.g. `https://login.microsoftonline.com/<tenant>/oauth2/v2.0/token`. */
  readonly tokenUrl: URL;
  readonly clientId: string;
  readonly authMethod: ClientAuthMethod;
  /** Sent as `scope`, space-separated; omitted when empty. */
  readonly scopes: readonly string[];
  /** RFC 8707 `resource` parameter (the API the token is for), when the server wants one. */
  readonly resource?: string;
  /** `aud` of a `private_key_jwt` assertion. @default the token endpoint URL (RFC 7523 §3) */
  readonly assertionAudience?: string;
  /** @default 'RS256', or the `alg` of a JWK credential */
  readonly assertionAlgorithm?: AssertionAlgorithm;
  /** `kid` header of the assertion (Okta looks the key up by it). @default the `kid` of a JWK credential */
  readonly keyId?: string;
}

/** Options of a {@link ClientCredentialsBroker} besides the per-source settings. */
export interface BrokerOptions {
  /** @default Date.now */
  readonly clock?: () => number;
  /** @default `fetchTokenTransport` (the platform's fetch) */
  readonly transport?: TokenTransport;
  /** Admit a plain `http` token endpoint on a loopback host (the local stack only). @default false */
  readonly allowLoopbackHttp?: boolean;
  /** Longest a token request may take when no caller's deadline is nearer. @default 10000 */
  readonly requestTimeoutMs?: number;
  /** Largest token response read. @default 65536 */
  readonly maxResponseBytes?: number;
}

/**
 * An absolute `https` URL without user info or fragment (`http` only on a loopback host when the
 * composition allows it); with `noQuery`, without a query either; with `originOnly`, nothing after the host.
 */
export function providerUrlType(
  shape: { readonly noQuery?: boolean; readonly originOnly?: boolean } = {},
): OptionType<URL> {
  return {
    type: 'https URL',
    check: (value, at, { problems, allowLoopbackHttp }) => {
      let url: URL;
      try {
        if (typeof value !== 'string') throw new TypeError('not a string');
        url = new URL(value);
      } catch {
        problems.push(`${at} must be an absolute URL`);
        return undefined;
      }
      if (
        url.protocol !== 'https:' &&
        !(url.protocol === 'http:' && isAllowedProviderUrl(url, allowLoopbackHttp))
      ) {
        problems.push(`${at} must use https${allowLoopbackHttp ? ' (http only on a loopback host)' : ''}`);
        return undefined;
      }
      if (
        url.username !== '' ||
        url.password !== '' ||
        url.hash !== '' ||
        (shape.noQuery && url.search !== '')
      ) {
        problems.push(`${at} must not carry user info, ${shape.noQuery ? 'a query ' : ''}or a fragment`);
        return undefined;
      }
      if (shape.originOnly === true && (url.pathname !== '/' || url.search !== '')) {
        problems.push(`${at} must be an origin only, e.g. https://acme.okta.com`);
        return undefined;
      }
      return url;
    },
  };
}

/** {@link providerUrlType}'s check on its own: the URL, or undefined after pushing a problem naming `at`. */
export function providerUrl(
  value: unknown,
  at: string,
  problems: string[],
  allowHttpLoopback: boolean,
): URL | undefined {
  return providerUrlType().check(value, at, {
    problems,
    kind: 'oauth',
    allowLoopbackHttp: allowHttpLoopback,
  });
}

const TOKEN = text(/^[\x21-\x7e]{1,512}$/, 'a non-empty string of printable characters without spaces');
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,256}$/; // RFC 6749 §3.3 scope-token
const SCOPES = valueOf(
  'array of strings',
  'an array of OAuth scope tokens',
  (v): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string' && SCOPE.test(s)),
);

/** What a kind that reads these options says about their defaults. */
export interface ClientCredentialDefaults {
  readonly authMethod?: ClientAuthMethod;
  readonly scopes?: readonly string[];
  /** How the docs state the token endpoint a kind derives (e.g. from its tenant). */
  readonly tokenUrlText?: string;
  /** What the client id is called at the provider. @default "the client id" */
  readonly clientIdMeaning?: string;
  /** A provider's note on the methods. @default "how the client authenticates at the token endpoint" */
  readonly authMethodMeaning?: string;
}

/** The client-credentials options, with a kind's defaults (none: every one as the token endpoint needs it). */
export function clientCredentialFields(defaults: ClientCredentialDefaults = {}) {
  return {
    client_id: option(TOKEN, { required: true, meaning: defaults.clientIdMeaning ?? 'the client id' }),
    auth_method: option(oneOf(CLIENT_AUTH_METHODS), {
      ...(defaults.authMethod === undefined ? { required: true } : { default: defaults.authMethod }),
      meaning: defaults.authMethodMeaning ?? 'how the client authenticates at the token endpoint',
    }),
    token_url: option(providerUrlType(), {
      ...(defaults.tokenUrlText === undefined ? { required: true } : { defaultText: defaults.tokenUrlText }),
      meaning: 'the token endpoint',
    }),
    scopes: option(SCOPES, {
      default: defaults.scopes ?? [],
      meaning: 'requested scopes',
    }),
    resource: option(TOKEN, { meaning: 'RFC 8707 `resource` parameter, when the server wants one' }),
    assertion_alg: option(oneOf(ASSERTION_ALGORITHMS), {
      defaultText: '`RS256`, or the `alg` of a JWK credential',
      meaning: "`private_key_jwt` only: the assertion's signature algorithm",
    }),
    key_id: option(TOKEN, {
      defaultText: 'the `kid` of a JWK credential',
      meaning: '`private_key_jwt` only: the `kid` header of the assertion',
    }),
  };
}

/** The client-credentials options as an object of their own (the `oauth` auth of `http-json`). */
export const CLIENT_CREDENTIALS = optionTable('oauth', {
  ...clientCredentialFields(),
  assertion_audience: option(TOKEN, {
    defaultText: 'the token endpoint URL',
    meaning: '`private_key_jwt` only: the `aud` of the assertion',
  }),
});

type Declared = Partial<OptionValues<typeof CLIENT_CREDENTIALS.fields>>;

/**
 * The settings from read option values (`token_url` given or derived by the kind), pushing the problem a
 * single option cannot show: an assertion algorithm without `private_key_jwt`.
 */
export function clientCredentialsOf(
  values: Declared,
  at: string,
  problems: string[],
): ClientCredentialsOptions | undefined {
  const { token_url: tokenUrl, client_id: clientId, auth_method: authMethod, assertion_alg: alg } = values;
  if (alg !== undefined && authMethod !== 'private_key_jwt') {
    problems.push(`${at}.assertion_alg applies to auth_method private_key_jwt only`);
    return undefined;
  }
  if (tokenUrl === undefined || clientId === undefined || authMethod === undefined) return undefined;
  return {
    tokenUrl,
    clientId,
    authMethod,
    scopes: values.scopes ?? [],
    ...(values.resource === undefined ? {} : { resource: values.resource }),
    ...(values.assertion_audience === undefined ? {} : { assertionAudience: values.assertion_audience }),
    ...(alg === undefined ? {} : { assertionAlgorithm: alg }),
    ...(values.key_id === undefined ? {} : { keyId: values.key_id }),
  };
}

/**
 * Reads the client-credentials object of a definition (at `at`, e.g. `options.oauth`), pushing one problem
 * per bad field, each naming it. `allowHttpLoopback` admits `http://` token endpoints on loopback hosts.
 */
export function parseClientCredentialsOptions(
  value: unknown,
  at: string,
  problems: string[],
  allowHttpLoopback: boolean,
): ClientCredentialsOptions | undefined {
  const context: ReadContext = { ...readContext('oauth', allowHttpLoopback), problems };
  const values = CLIENT_CREDENTIALS.read(value, at, context);
  return values === undefined ? undefined : clientCredentialsOf(values, at, problems);
}

/** How a kind with client-credentials options completes them. */
export interface ClientCredentialKind<V> {
  /** The token endpoint when the definition names none (derived from the tenant or org). */
  readonly tokenUrl: (values: V) => URL;
  /** The problem of a definition without a `credential_ref`. */
  readonly missingCredential: string;
}

/**
 * Reads the options of a kind that flattens the client-credentials options into its own (`entra`,
 * `okta`); throws {@link SourceConfigError} listing every problem.
 */
export function readClientCredentialKind<F extends Readonly<Record<string, OptionField<unknown>>>>(
  table: OptionTable<F>,
  spec: SourceSpec,
  allowLoopbackHttp: boolean,
  kind: ClientCredentialKind<OptionValues<F>>,
): { readonly values: OptionValues<F>; readonly oauth: ClientCredentialsOptions } {
  const context = readContext(table.kind, allowLoopbackHttp);
  const { problems } = context;
  const values = table.read(spec.options, 'options', context);
  // The table holds the client-credentials fields (`clientCredentialFields`), which the constraint on `F`
  // cannot say without spelling each of them.
  const declared = values as Declared | undefined;
  const oauth =
    values === undefined || declared === undefined
      ? undefined
      : clientCredentialsOf(
          { ...declared, token_url: declared.token_url ?? kind.tokenUrl(values) },
          'options',
          problems,
        );
  if (spec.credential === undefined) problems.push(kind.missingCredential);
  if (values === undefined || oauth === undefined || problems.length > 0)
    throw new SourceConfigError(spec.source_id, 'invalid_options', problems);
  return { values, oauth };
}
