/**
 * A handler module that fails while loading, as a handler with a broken configuration would: the runtime
 * client reports it to `/runtime/init/error` and exits.
 */
throw new Error('configuration is broken at load time');

export const handler = awslambda.streamifyResponse(async (): Promise<void> => {
  await Promise.resolve();
});
