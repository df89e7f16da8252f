/**
 * How the Lambda entry is bundled. Plain data shared by the CDK asset (deploy, `lib/lambda-code.ts`) and
 * `local/bundle.ts` (the local stack and benchmarks), so the code that runs locally under the Lambda runtime
 * client is byte-for-byte the code CDK ships: both call esbuild with {@link lambdaBuildOptions}.
 *
 * No CDK or esbuild import here on purpose: this file is data, and `local/` must not load the CDK.
 */

/** Lambda managed runtime the bundle targets (`Runtime.NODEJS_22_X` in CDK). */
export const LAMBDA_RUNTIME_NAME = 'nodejs22.x';

/**
 * File name of the bundled entry in the function's task root. The function's handler setting is
 * {@link LAMBDA_HANDLER}.
 */
export const LAMBDA_OUTPUT_FILE = 'index.mjs';

/** The Lambda handler setting (`<file without extension>.<export>`) for {@link LAMBDA_OUTPUT_FILE}. */
export const LAMBDA_HANDLER = 'index.handler';

/**
 * Folder (inside the task root) of the chunks that the entry loads with `import()` only when first needed.
 * `.mjs`, like the entry: the task root has no `package.json` saying `"type": "module"`.
 */
export const LAMBDA_CHUNK_DIR = 'chunks';

/**
 * Banner for the ESM bundle: bundled CommonJS dependencies call `require` for Node built-ins, which ESM has not
 * got; a `require` made by `createRequire` keeps them working (evanw/esbuild#1921, the usual CDK recipe).
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
 *
 * `bowser` (a browser user-agent parser, 38 KB) is imported with `import()` only by the SDK's browser
 * user-agent provider (`@aws-sdk/core` `util-user-agent-browser`), which no Node.js client configuration
 * uses; esbuild cannot see that and would ship it as a chunk that is never loaded.
 */
export const LAMBDA_EXTERNAL_MODULES: readonly string[] = [
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
  '@smithy/credential-provider-imds',
  'bowser',
];

/** esbuild options (esbuild's own names) every Lambda bundle uses. */
export const LAMBDA_ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  minify: true,
  /**
   * Code reached only through `import()` (Ajv and the tool schema compilers, the Secrets Manager client, the
   * AWS SDK's event-stream support) goes to chunk files loaded on first use. In one file, V8 still has to
   * scan all of it while compiling the module at cold start: about a third of the bytes, and about 30 ms of
   * every cold start (`npm run bench:lambda`, docs/local-stack.md "Cold start figures").
   */
  splitting: true,
  entryNames: '[name]',
  chunkNames: `${LAMBDA_CHUNK_DIR}/[name]-[hash]`,
  outExtension: { '.js': '.mjs' },
  /** A linked `.map` beside each file; decoded at run time when `NODE_OPTIONS=--enable-source-maps`. */
  sourcemap: true,
  /** Prefer ESM builds of dependencies so esbuild can tree-shake them. */
  mainFields: ['module', 'main'],
  external: LAMBDA_EXTERNAL_MODULES,
  banner: { js: ESM_REQUIRE_BANNER },
  /**
   * No `keepNames`: it adds a `__name()` call per function and class, run while the module loads, and bytes
   * to compile: 10-15 ms of every cold start (docs/local-stack.md "Cold start figures"). Names do not matter
   * to our code: our error classes set `name` explicitly (a project rule) and third-party errors are matched
   * with `instanceof` or their `code`. The AWS SDK's one test of a class name (its default logger's) is
   * avoided by giving each client our logger (`lambda/aws/telemetry/sdk-logger.ts`). What is lost: third-party error
   * classes that take `name` from their constructor (jose's) show a minified name if ever logged raw.
   */
  keepNames: false,
  /**
   * Licence banners of bundled packages are dropped: they cost bytes on every cold start and the function's
   * code is not redistributed (the licences ship with the repository's dependencies).
   */
  legalComments: 'none',
} as const;

/** Where {@link lambdaBuildOptions} reads and writes. */
export interface LambdaBuildTarget {
  /** Absolute path of the handler source file. */
  entry: string;
  /** Folder that receives `index.mjs` and its chunks: the function's task root. */
  outdir: string;
  /** esbuild's working directory (the repository root): source map paths are relative to it. */
  absWorkingDir: string;
}

/**
 * The complete esbuild options for one Lambda entry: {@link LAMBDA_ESBUILD_OPTIONS} plus where to read and
 * write. The entry is named `index` whatever its source file is called, so the task root always holds
 * {@link LAMBDA_OUTPUT_FILE}.
 */
export function lambdaBuildOptions(target: LambdaBuildTarget) {
  return {
    ...LAMBDA_ESBUILD_OPTIONS,
    outExtension: { ...LAMBDA_ESBUILD_OPTIONS.outExtension },
    mainFields: [...LAMBDA_ESBUILD_OPTIONS.mainFields],
    external: [...LAMBDA_ESBUILD_OPTIONS.external],
    banner: { ...LAMBDA_ESBUILD_OPTIONS.banner },
    entryPoints: { index: target.entry },
    outdir: target.outdir,
    absWorkingDir: target.absWorkingDir,
    logLevel: 'silent' as const,
  };
}

/**
 * Environment every bundled function gets, locally and deployed. Deliberately empty of `NODE_OPTIONS`:
 * `--enable-source-maps` makes Node read and parse the linked source map while loading the bundle, which
 * measured about 40 ms of every cold start (`npm run bench:lambda`). The `.map` files still ship beside the
 * bundle; an operator debugging a stack trace sets `NODE_OPTIONS=--enable-source-maps` on the function
 * (docs/aws.md).
 */
export const LAMBDA_BASE_ENVIRONMENT: Readonly<Record<string, string>> = {};
