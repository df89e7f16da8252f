/**
 * The operator console (docs/console.md): sign in, pick a context and a tool, run it with
 * `bos/source-results/v1` and watch each source's pages arrive before the merged result. It uses the
 * project's own MCP client library (`client/`: fetch and a ReadableStream reader) with the token it got by
 * signing in, so everything it shows the caller could have fetched with the CLI.
 */
import { McpHttpStatusError } from '../client/errors.js';
import { McpHttpClient } from '../client/mcp-http.js';
import type { ConfirmedOutcome } from '../client/source-results-types.js';
import { byId, h, replace } from './dom.js';
import { beginSignIn, completeSignIn, discover } from './oauth.js';
import { cliCommand, jsonRpcRequest } from './reproduce.js';
import { renderResult } from './result-view.js';
import { Timeline } from './timeline.js';
import { buildToolForm } from './tool-form.js';
import type { ToolForm } from './tool-form.js';

type Context = Record<string, unknown> & { context_handle: string };
interface ToolInfo {
  name: string;
  description?: string;
  input_schema?: unknown;
  effect?: string;
  approval_required?: boolean;
}

/** The endpoint sits beside the page (`…/console` → `…/mcp/apps/bos/platform`), whatever the stage prefix. */
const endpoint = new URL('mcp/apps/bos/platform', window.location.href);
/** This page without query or fragment: the OAuth redirect URI. */
const redirectUri = `${window.location.origin}${window.location.pathname}`;

let client: McpHttpClient | undefined;
let callCount = 0;

function show(id: string, visible: boolean): void {
  byId(id).hidden = !visible;
}

function message(text: string | undefined): void {
  const element = byId('message');
  element.textContent = text ?? '';
  element.hidden = text === undefined;
}

function structured(outcome: ConfirmedOutcome): Record<string, unknown> {
  const content = outcome.result?.['structuredContent'];
  return typeof content === 'object' && content !== null ? (content as Record<string, unknown>) : {};
}

/** A call's failure as a sentence: an expired or refused token asks for a new sign-in. */
function failure(error: unknown): string {
  if (error instanceof McpHttpStatusError && error.status === 401)
    return 'The sign-in expired or was refused: sign in again.';
  if (error instanceof McpHttpStatusError && error.status === 403)
    return 'The endpoint refused this request (403).';
  return error instanceof Error ? error.message : 'The request failed.';
}

async function call(name: string, args: Record<string, unknown>): Promise<ConfirmedOutcome> {
  if (client === undefined) throw new Error('Not signed in.');
  const outcome = await client.callTool(name, args);
  if (!outcome.confirmed) throw new Error('The endpoint closed the connection before answering.');
  if (outcome.error !== undefined)
    throw new Error(`JSON-RPC error ${outcome.error.code}: ${outcome.error.message}`);
  return outcome;
}

function contextLabel(context: Context): string {
  const part = (name: string): string => {
    const value = context[name];
    return typeof value === 'string' ? value : '';
  };
  const label = [part('organization_name'), part('application_name'), part('installation_name')]
    .filter(Boolean)
    .join(' · ');
  return `${label} — ${part('role_label')}${context['is_default'] === true ? ' (default)' : ''}`;
}

/** Marks one button of a group as the chosen one. */
function choose(group: HTMLElement, chosen: HTMLElement): void {
  for (const button of Array.from(group.querySelectorAll('button')))
    button.setAttribute('aria-pressed', String(button === chosen));
}

async function showContexts(): Promise<void> {
  const outcome = await call('bos_list_contexts', {});
  const contexts = (structured(outcome)['contexts'] ?? []) as Context[];
  const list = byId('context-list');
  show('contexts', true);
  if (contexts.length === 0) {
    replace(list, h('p', { id: 'no-contexts', class: 'notice' }, 'No context is granted to this account.'));
    return;
  }
  const group = h('ul', { class: 'choices', id: 'context-choices' });
  for (const context of contexts) {
    const button = h(
      'button',
      { type: 'button', 'aria-pressed': 'false', 'data-context': context.context_handle },
      contextLabel(context),
    );
    button.addEventListener('click', () => {
      choose(group, button);
      showTools(context).catch((error: unknown) => message(failure(error)));
    });
    group.append(h('li', {}, button));
  }
  replace(list, group);
}

async function showTools(context: Context): Promise<void> {
  message(undefined);
  const outcome = await call('bos_list_tools', { context_handle: context.context_handle });
  const tools = (structured(outcome)['tools'] ?? []) as ToolInfo[];
  show('tools', true);
  show('tool-form', false);
  const group = h('ul', { class: 'choices', id: 'tool-choices' });
  for (const tool of tools) {
    const button = h(
      'button',
      { type: 'button', 'aria-pressed': 'false', 'data-tool': tool.name },
      tool.name,
      h('span', { class: 'tag' }, ` ${tool.effect ?? ''}`),
    );
    button.addEventListener('click', () => {
      choose(group, button);
      showForm(context, tool);
    });
    group.append(h('li', {}, button));
  }
  replace(
    byId('tool-list'),
    tools.length === 0 ? h('p', { class: 'notice' }, 'No tool is permitted in this context.') : group,
  );
}

let current: { context: Context; tool: ToolInfo; form: ToolForm } | undefined;

function showForm(context: Context, tool: ToolInfo): void {
  const form = buildToolForm(tool.input_schema, `arg-${tool.name}`);
  current = { context, tool, form };
  byId('tool-form-legend').textContent = `Arguments of ${tool.name}`;
  byId('tool-description').textContent =
    `${tool.description ?? ''}${tool.approval_required === true ? ' (requires approval)' : ''}`;
  replace(byId('tool-fields'), ...form.fields);
  show('tool-form', true);
  form.fields[0]?.querySelector<HTMLElement>('input, select, textarea')?.focus();
}

async function runTool(): Promise<void> {
  if (client === undefined || current === undefined) return;
  const { context, tool, form } = current;
  const args = form.read();
  callCount += 1;
  const id = `console-${callCount}`;
  const reproduction = {
    endpoint: endpoint.href,
    contextHandle: context.context_handle,
    toolName: tool.name,
    arguments: args,
    id,
  };
  byId('cli-command').textContent = cliCommand(reproduction);
  byId('rpc-request').textContent = jsonRpcRequest(reproduction);
  show('reproduce', true);
  show('timeline', true);
  show('result', false);
  const timeline = new Timeline(byId('timeline-view'));
  const run = byId<HTMLButtonElement>('run');
  run.disabled = true;
  const started = performance.now();
  const since = (): number => performance.now() - started;
  try {
    const outcome = await client.callTool(
      'bos_execute',
      { context_handle: context.context_handle, tool_name: tool.name, arguments: args },
      {
        stream: true,
        id,
        onPage: (page) => timeline.page(page, since()),
        onSourceComplete: (terminal) => timeline.terminal(terminal, since()),
        onSourceError: (terminal) => timeline.terminal(terminal, since()),
      },
    );
    const finalAt = outcome.confirmed ? since() : undefined;
    renderResult(byId('result-view'), outcome);
    show('result', true);
    timeline.finish(finalAt, since());
  } finally {
    run.disabled = false;
  }
}

async function signedIn(token: string): Promise<void> {
  client = new McpHttpClient({
    url: endpoint,
    token,
    clientInfo: { name: 'bos-operator-console', version: '0.1.0' },
    // A browser's fetch must be called on the window: as a method of the client it throws "Illegal invocation".
    fetch: (input, init) => window.fetch(input, init),
  });
  show('sign-in', false);
  show('sign-out', true);
  byId('signed-in-status').textContent = 'Signed in.';
  await showContexts();
}

function wire(): void {
  byId('sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const hint = byId<HTMLInputElement>('login-hint').value;
    discover(endpoint)
      .then((found) => beginSignIn(found, redirectUri, hint))
      .catch((error: unknown) => message(failure(error)));
  });
  byId('sign-out').addEventListener('click', () => {
    // Dropping the page drops the token: it was never stored anywhere else.
    client = undefined;
    window.location.replace(redirectUri);
  });
  byId('tool-form').addEventListener('submit', (event) => {
    event.preventDefault();
    message(undefined);
    runTool().catch((error: unknown) => message(failure(error)));
  });
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('button.copy'))) {
    button.addEventListener('click', () => {
      const text = byId(button.dataset['copy'] ?? '').textContent ?? '';
      navigator.clipboard.writeText(text).then(
        () => (button.textContent = 'Copied'),
        () => message('The browser refused the clipboard: select the text and copy it.'),
      );
    });
  }
}

wire();
completeSignIn(new URL(window.location.href))
  .then((token) => (token === undefined ? undefined : signedIn(token)))
  .catch((error: unknown) => message(failure(error)));
