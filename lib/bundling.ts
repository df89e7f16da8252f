/**
 * How the Lambda entry is bundled. Plain data shared by the CDK `NodejsFunction` (deploy) and
 * `local/bundle.ts` (the local stack and benchmarks), so the code that runs locally under the Lambda runtime
 * client is byte-for-byte the code CDK ships.
 *
 * No CDK or esbuild import here on purpose: `lib/` constructs map these values onto `NodejsFunction`
 * bundling props (see {@link NODEJS_FUNCTION_BUNDLING}), `local/` maps them onto esbuild's `build()` options.
 */

/** Lambda managed runtime the bundle targets (`Runtime.NODEJS_22_X` in CDK). */
export const LAMBDA_RUNTIME_NAME = 'nodejs22.x';

/**
 * File name of the bundled entry. CDK's `NodejsFunction` writes `index.mjs` when `format` is ESM, and the
 * function's handler setting is then `index.handler`.
 */
export const LAMBDA_OUTPUT_FILE = 'index.mjs';

/** The Lambda handler setting (`<file without extension>.<export>`) for {@link LAMBDA_OUTPUT_FILE}. */
export const LAMBDA_HANDLER = 'index.handler';

/**
 * Banner for the ESM bundle: bundled CommonJS dependencies call `require` for Node built-ins, which ESM has not
 * got; a `require` made by `createRequire` keeps them working (esbuild issue #1921, the usual CDK recipe).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __bosCreateRequire } from 'node:module'; const require = __bosCreateRequire(import.meta.url);";

/**
 * Packages left out of the bundle. Everything else, the AWS SDK clients included, is bundled: loading the
 * runtime's preinstalled SDK means resolving and compiling hundreds of CommonJS files on every cold start,
 * which costs more than parsing the tree-shaken code inside one file. Left out are only the credential
 * providers the SDK's default chain imports dynamically, after environment credentials: a Lambda function
 * always has those (`AWS_ACCESS_KEY_ID` and friends from its execution role), so the others are never
 * loaded there, and the Node.js managed runtime provides them if they ever are (AWS SDK for JavaScript v3
 * is preinstalled in every Node.js runtime since nodejs18.x). Keeping them out keeps the bundle small.
 */
export const LAMBDA_EXTERNAL_MODULES: readonly string[] = [
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
  '@smithy/credential-provider-imds',
];

/** esbuild options (esbuild's own names) every Lambda bundle uses. */
export const LAMBDA_ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  minify: true,
  /** A linked `.map` beside the bundle; decoded at run time when `NODE_OPTIONS=--enable-source-maps`. */
  sourcemap: true,
  /** Prefer ESM builds of dependencies so esbuild can tree-shake them. */
  mainFields: ['module', 'main'],
  external: LAMBDA_EXTERNAL_MODULES,
  banner: { js: ESM_REQUIRE_BANNER },
  /** Keep `Error` subclass names readable in logs after minification. */
  keepNames: true,
  /**
   * Licence banners of bundled packages are dropped: they cost bytes on every cold start and the function's
   * code is not redistributed (the licences ship with the repository's dependencies).
   */
  legalComments: 'none',
} as const;

/**
 * The same choices under CDK `NodejsFunction` `bundling` prop names. `format` is the string value of
 * `OutputFormat.ESM`; CDK callers pass `OutputFormat.ESM` in its place.
 */
export const NODEJS_FUNCTION_BUNDLING = {
  target: LAMBDA_ESBUILD_OPTIONS.target,
  format: LAMBDA_ESBUILD_OPTIONS.format,
  minify: LAMBDA_ESBUILD_OPTIONS.minify,
  sourceMap: LAMBDA_ESBUILD_OPTIONS.sourcemap,
  mainFields: [...LAMBDA_ESBUILD_OPTIONS.mainFields],
  externalModules: [...LAMBDA_EXTERNAL_MODULES],
  banner: ESM_REQUIRE_BANNER,
  keepNames: LAMBDA_ESBUILD_OPTIONS.keepNames,
} as const;

/**
 * Environment every bundled function gets, locally and deployed. Deliberately empty of `NODE_OPTIONS`:
 * `--enable-source-maps` makes Node read and parse the linked source map while loading the bundle, which
 * measured about 40 ms of every cold start (`npm run bench:lambda`). The `.map` file still ships beside the
 * bundle; an operator debugging a stack trace sets `NODE_OPTIONS=--enable-source-maps` on the function
 * (docs/aws.md).
 */
export const LAMBDA_BASE_ENVIRONMENT: Readonly<Record<string, string>> = {};
