/**
 * Resources, the resource template and prompts the conformance scenarios read (resources-*, prompts-*),
 * plus the completion hook (completion-complete) and subscription hooks (resources-subscribe/unsubscribe).
 */
import type { McpServer } from '../../lambda/mcp/index.js';
import type { CompletionHook, McpServerOptions } from '../../lambda/mcp/types/index.js';
import { PNG_1X1_BASE64 } from './content.js';

const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

/** Registers the conformance resources and resource template on `server`. */
export function registerConformanceResources(server: McpServer): void {
  server.registerResource(
    { uri: 'test://static-text', name: 'static-text', title: 'Static text', mimeType: 'text/plain' },
    (uri) => Promise.resolve([{ uri, mimeType: 'text/plain', text: 'Static text resource body.' }]),
  );
  server.registerResource(
    { uri: 'test://static-binary', name: 'static-binary', title: 'Static binary', mimeType: 'image/png' },
    (uri) => Promise.resolve([{ uri, mimeType: 'image/png', blob: PNG_1X1_BASE64 }]),
  );
  server.registerResource(
    { uri: 'test://watched-resource', name: 'watched-resource', title: 'Watched', mimeType: 'text/plain' },
    (uri) => Promise.resolve([{ uri, mimeType: 'text/plain', text: 'Watched resource body.' }]),
  );
  server.registerResourceTemplate(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      title: 'Templated data',
      mimeType: 'application/json',
    },
    (uri) => {
      // resources-templates-read checks that the id of the URI shows up in the content.
      const id = TEMPLATE.exec(uri)?.[1] ?? '';
      return Promise.resolve([
        { uri, mimeType: 'application/json', text: JSON.stringify({ id, source: 'template' }) },
      ]);
    },
  );
}

/** Registers the conformance prompts on `server`. */
export function registerConformancePrompts(server: McpServer): void {
  server.registerPrompt({ name: 'test_simple_prompt', description: 'A prompt without arguments' }, () =>
    Promise.resolve({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say something simple.' } }],
    }),
  );
  server.registerPrompt(
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two required arguments',
      arguments: [
        { name: 'arg1', description: 'First argument', required: true },
        { name: 'arg2', description: 'Second argument', required: true },
      ],
    },
    (args) =>
      Promise.resolve({
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `arg1 is ${args.arg1 ?? ''}, arg2 is ${args.arg2 ?? ''}` },
          },
        ],
      }),
  );
  server.registerPrompt(
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds the resource it is given',
      arguments: [{ name: 'resourceUri', description: 'URI to embed', required: true }],
    },
    (args) =>
      Promise.resolve({
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: args.resourceUri ?? 'test://missing',
                mimeType: 'text/plain',
                text: 'Embedded body.',
              },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Summarise the resource above.' } },
        ],
      }),
  );
  server.registerPrompt(
    { name: 'test_prompt_with_image', description: 'A prompt that carries an image' },
    () =>
      Promise.resolve({
        messages: [
          { role: 'user', content: { type: 'image', data: PNG_1X1_BASE64, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Describe the image above.' } },
        ],
      }),
  );
}

/** Completions for prompt arguments: fixed candidates filtered by the typed prefix. */
const completePrompt: CompletionHook = (req) => {
  const candidates = ['alpha', 'beta', 'test-value', 'testing'];
  const values = candidates.filter((value) => value.startsWith(req.argument.value));
  return Promise.resolve({ values, total: values.length, hasMore: false });
};

/** The hook options the conformance server needs (completion, subscriptions, log level). */
export function conformanceHooks(): Pick<
  McpServerOptions,
  'completion' | 'resourceSubscriptionHooks' | 'loggingLevelHook'
> {
  // Subscriptions are acknowledged only: no resource of this app changes, so no update is ever due.
  const subscribed = new Set<string>();
  return {
    completion: { prompt: completePrompt, resource: completePrompt },
    resourceSubscriptionHooks: {
      subscribe: (uri) => Promise.resolve(void subscribed.add(uri)),
      unsubscribe: (uri) => Promise.resolve(void subscribed.delete(uri)),
    },
    loggingLevelHook: () => Promise.resolve(),
  };
}
