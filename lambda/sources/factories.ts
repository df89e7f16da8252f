/**
 * The one table of source kinds: each adapter name and the factory that builds its sources. The function's
 * composition root and the local `--directory` check both read it, so a new kind is added here once.
 * Every factory comes from its kind's light module (options reading only), never its read path, which
 * loads on first read (docs/performance.md "Cold start").
 */
import { createFixtureSourceFactory, FIXTURE_ADAPTER } from './fixture/definition.js';
import type { FixtureSourceFactoryOptions } from './fixture/definition.js';
import type { ProviderSettings } from './kernel/index.js';
import type { SourceFactories } from './registry/index.js';
import { createEntraSourceFactory } from './entra/factory.js';
import { ENTRA_ADAPTER } from './entra/options.js';
import { createHttpJsonSourceFactory } from './http-json/factory.js';
import { HTTP_JSON_ADAPTER } from './http-json/definition.js';
import { createLdapSourceFactory } from './ldap/factory.js';
import { LDAP_ADAPTER } from './ldap/options.js';
import { createOktaSourceFactory } from './okta/factory.js';
import { OKTA_ADAPTER } from './okta/options.js';
import { createScimSourceFactory } from './scim/factory.js';
import { SCIM_ADAPTER } from './scim/options.js';

/** Every source kind's factory, keyed by the definition's `adapter` name. */
export function createSourceFactories(
  settings: ProviderSettings,
  fixture: FixtureSourceFactoryOptions = {},
): SourceFactories {
  return {
    [FIXTURE_ADAPTER]: createFixtureSourceFactory(fixture),
    [SCIM_ADAPTER]: createScimSourceFactory(settings),
    [LDAP_ADAPTER]: createLdapSourceFactory(settings),
    [ENTRA_ADAPTER]: createEntraSourceFactory(settings),
    [OKTA_ADAPTER]: createOktaSourceFactory(settings),
    [HTTP_JSON_ADAPTER]: createHttpJsonSourceFactory(settings),
  };
}
