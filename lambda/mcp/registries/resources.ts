/**
 * Resource and resource-template registry. `resources/read` serves an exactly registered URI first,
 * then the first template (registration order) that has a handler and whose RFC 6570 pattern matches.
 */
import type { ResourceDef, ResourceHandler, ResourceTemplateDef } from '../types/index.js';

interface TemplateEntry {
  def: ResourceTemplateDef;
  handler: ResourceHandler | undefined;
  pattern: RegExp;
}

/** Compiles a URI template into an anchored pattern (simple, reserved and fragment expansions). */
export function templatePattern(template: string): RegExp {
  let source = '';
  let last = 0;
  for (const match of template.matchAll(/\{([^}]*)\}/g)) {
    source += escape(template.slice(last, match.index));
    const op = match[1]?.[0];
    source += op === '+' || op === '#' ? '(.+)' : op === '?' || op === '&' ? '(?:[?&].*)?' : '([^/?#]+)';
    last = match.index + match[0].length;
  }
  source += escape(template.slice(last));
  return new RegExp(`^${source}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Resources by URI and templates in registration order. */
export class ResourceRegistry {
  readonly #resources = new Map<string, { def: ResourceDef; handler: ResourceHandler }>();
  readonly #templates: TemplateEntry[] = [];
  #defs: ResourceDef[] | undefined;

  addResource(def: ResourceDef, handler: ResourceHandler): void {
    if (typeof def.uri !== 'string' || def.uri === '') throw new Error('resource uri is required');
    if (this.#resources.has(def.uri)) throw new Error(`resource already registered: ${def.uri}`);
    this.#resources.set(def.uri, { def: structuredClone(def), handler });
    this.#defs = undefined;
  }

  addTemplate(def: ResourceTemplateDef, handler: ResourceHandler | undefined): void {
    if (typeof def.uriTemplate !== 'string' || def.uriTemplate === '') {
      throw new Error('resource uriTemplate is required');
    }
    this.#templates.push({ def: structuredClone(def), handler, pattern: templatePattern(def.uriTemplate) });
  }

  /** The handler serving `uri`, if any. */
  resolve(uri: string): ResourceHandler | undefined {
    const exact = this.#resources.get(uri);
    if (exact !== undefined) return exact.handler;
    return this.#templates.find((t) => t.handler !== undefined && t.pattern.test(uri))?.handler;
  }

  definitions(): readonly ResourceDef[] {
    this.#defs ??= [...this.#resources.values()].map((entry) => entry.def);
    return this.#defs;
  }

  templates(): readonly ResourceTemplateDef[] {
    return this.#templates.map((entry) => entry.def);
  }

  get size(): number {
    return this.#resources.size + this.#templates.length;
  }
}
