/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON */
/**
 * The fixture runner maps every `setup.mcp` field the AppTheory fixture schema defines, including those no
 * vector uses yet: a setup naming each of them builds a server whose wire answers carry them. Every
 * property path of the schema's `mcpSetup` is listed here, so a field added to the schema fails this test
 * until the runner maps it. Skips with a reason when ../shared is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildFixtureServer } from './build-server.js';
import type { McpSetup } from './vector.js';
import { initialize, inSession, post, readJson, rpc } from '../unit/mcp/helpers.js';

const SCHEMA = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'apptheory',
  'fixture.schema.json',
);
const skip = existsSync(SCHEMA) ? false : `fixture schema not found at ${SCHEMA}`;

/** Every `setup.mcp` property path the runner maps (nested objects and array items flattened). */
const MAPPED = [
  'server',
  'server.name',
  'server.version',
  'server.include_server_info_metadata',
  'server.extension_capabilities',
  'server.cacheable_results',
  'id_sequence',
  'stream_id_sequence',
  'tools',
  'tools.name',
  'tools.title',
  'tools.description',
  'tools.input_schema',
  'tools.output_schema',
  'tools.handler',
  'tools.streaming',
  'tools.task_support',
  'resources',
  'resources.uri',
  'resources.name',
  'resources.title',
  'resources.description',
  'resources.mime_type',
  'resources.size',
  'resources.contents',
  'resources.contents.uri',
  'resources.contents.mime_type',
  'resources.contents.text',
  'resources.contents.blob',
  'resource_templates',
  'resource_templates.uri_template',
  'resource_templates.name',
  'resource_templates.title',
  'resource_templates.description',
  'resource_templates.mime_type',
  'prompts',
  'prompts.name',
  'prompts.title',
  'prompts.description',
  'prompts.arguments',
  'prompts.arguments.name',
  'prompts.arguments.title',
  'prompts.arguments.description',
  'prompts.arguments.required',
  'prompts.handler',
  'session_store',
  'session_store.seed',
  'session_store.seed.id',
  'session_store.seed.created_unix_ms',
  'session_store.seed.expires_unix_ms',
  'session_store.seed.data',
  'task_runtime',
  'task_runtime.enabled',
  'task_runtime.default_ttl_ms',
  'task_runtime.max_ttl_ms',
  'task_runtime.poll_interval_ms',
  'task_runtime.list_limit',
  'task_runtime.model_immediate_response',
  'task_runtime.clock_unix_ms',
  'task_runtime.update_clock_unix_ms',
];

type Schema = { properties?: Record<string, Schema>; items?: Schema; $ref?: string };

/** The definition a node stands for: its `$ref` followed, and an array's items in place of the array. */
function resolve(defs: Record<string, Schema>, node: Schema): Schema {
  const target = node.$ref === undefined ? node : (defs[node.$ref.split('/').at(-1) ?? ''] ?? {});
  return target.items === undefined ? target : resolve(defs, target.items);
}

function paths(defs: Record<string, Schema>, node: Schema, prefix: string, into: string[]): string[] {
  for (const [key, child] of Object.entries(resolve(defs, node).properties ?? {})) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    into.push(path);
    // Cache hints are one shape per surface, mapped as a whole (`cacheHints` in build-server.ts).
    if (path !== 'server.cacheable_results') paths(defs, child, path, into);
  }
  return into;
}

describe('the fixture runner’s setup mapping', { skip }, () => {
  it('names every setup.mcp field of the fixture schema', () => {
    const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as { $defs: Record<string, Schema> };
    const defined = paths(schema.$defs, { $ref: '#/$defs/mcpSetup' }, '', []);
    assert.deepEqual(
      defined.filter((p) => !MAPPED.includes(p)),
      [],
      'fields the runner does not map',
    );
  });

  it('carries titles, output schemas, MIME types, sizes, blobs and URI templates to the wire', async () => {
    const setup: McpSetup = {
      server: { name: 'fields', version: '1' },
      id_sequence: ['sess-1'],
      tools: [
        {
          name: 'echo',
          title: 'Echo',
          description: 'echoes',
          input_schema: { type: 'object' },
          output_schema: { type: 'object', properties: { message: { type: 'string' } } },
          handler: 'task_echo',
        },
      ],
      resources: [
        {
          uri: 'file:///logo.png',
          name: 'logo',
          mime_type: 'image/png',
          size: 3,
          contents: [{ uri: 'file:///logo.png', mime_type: 'image/png', blob: 'AAEC' }],
        },
      ],
      resource_templates: [{ uri_template: 'file:///{name}', name: 'files', mime_type: 'text/plain' }],
    };
    const server = buildFixtureServer(setup);
    const sessionId = await initialize(server);
    const ask = async (method: string, params: Record<string, unknown> = {}) =>
      (await readJson(await server.handle(post(rpc(1, method, params), inSession(sessionId))))).body.result;
    const [tool] = (await ask('tools/list')).tools;
    assert.equal(tool.title, 'Echo');
    assert.deepEqual(tool.outputSchema, setup.tools?.[0]?.output_schema);
    const [resource] = (await ask('resources/list')).resources;
    assert.deepEqual([resource.mimeType, resource.size], ['image/png', 3]);
    const read = await ask('resources/read', { uri: 'file:///logo.png' });
    assert.deepEqual(read.contents, [{ uri: 'file:///logo.png', mimeType: 'image/png', blob: 'AAEC' }]);
    const [template] = (await ask('resources/templates/list')).resourceTemplates;
    assert.deepEqual([template.uriTemplate, template.mimeType], ['file:///{name}', 'text/plain']);
  });
});
