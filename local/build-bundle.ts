/**
 * `npm run build`: bundles the platform Lambda entry into `.local/bundle/platform/` with the deploy-time
 * options and prints its sizes (all code files, and the part loaded at cold start) as one JSON line.
 */
import { relative } from 'node:path';
import { bundleHandler } from './bundle.js';
import { PLATFORM_HANDLER_ENTRY, REPO_ROOT } from './paths.js';

const result = await bundleHandler({ entry: PLATFORM_HANDLER_ENTRY });
process.stdout.write(
  `${JSON.stringify({
    bundle: relative(REPO_ROOT, result.file),
    handler: result.handler,
    bytes: result.bytes,
    gzipBytes: result.gzipBytes,
    coldStartBytes: result.coldStartBytes,
  })}\n`,
);
