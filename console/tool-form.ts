/**
 * A form built from a tool's input JSON Schema: one labelled field per property (text, number, checkbox or a
 * choice for `enum`; JSON for anything else), required ones marked, the description tied to its field.
 */
import { h } from './dom.js';

interface PropertySchema {
  type?: unknown;
  description?: unknown;
  enum?: unknown;
  default?: unknown;
}

type Reader = () => unknown;

/** The form's fields and how to read the arguments object out of them. */
export interface ToolForm {
  fields: HTMLElement[];
  /** The arguments; throws `Error` with a message for the person when a JSON field does not parse. */
  read(): Record<string, unknown>;
}

export function buildToolForm(schema: unknown, idPrefix: string): ToolForm {
  const object = (schema ?? {}) as { properties?: Record<string, PropertySchema>; required?: unknown };
  const required = new Set(Array.isArray(object.required) ? object.required.map(String) : []);
  const readers: [string, Reader][] = [];
  const fields = Object.entries(object.properties ?? {}).map(([name, property]) => {
    const id = `${idPrefix}-${name}`;
    const hintId = `${id}-hint`;
    const description = typeof property.description === 'string' ? property.description : undefined;
    const isRequired = required.has(name);
    const common = {
      id,
      name,
      required: isRequired,
      ...(description === undefined ? {} : { 'aria-describedby': hintId }),
    };
    let control: HTMLElement;
    let read: Reader;
    if (Array.isArray(property.enum)) {
      const select = h(
        'select',
        common,
        ...(isRequired ? [] : [h('option', { value: '' }, '(none)')]),
        ...property.enum.map((value) => h('option', { value: String(value) }, String(value))),
      );
      control = select;
      read = () => (select.value === '' ? undefined : select.value);
    } else if (property.type === 'boolean') {
      const box = h('input', { ...common, type: 'checkbox', required: false });
      control = box;
      read = () => box.checked;
    } else if (property.type === 'integer' || property.type === 'number') {
      const input = h('input', {
        ...common,
        type: 'number',
        step: property.type === 'integer' ? 1 : 'any',
        inputmode: 'numeric',
      });
      control = input;
      read = () => (input.value === '' ? undefined : Number(input.value));
    } else if (property.type === 'string') {
      const input = h('input', { ...common, type: 'text', autocomplete: 'off', spellcheck: 'false' });
      control = input;
      read = () => (input.value === '' && !isRequired ? undefined : input.value);
    } else {
      const area = h('textarea', { ...common, rows: 3, spellcheck: 'false' });
      control = area;
      read = () => {
        if (area.value.trim() === '') return undefined;
        try {
          return JSON.parse(area.value) as unknown;
        } catch {
          throw new Error(`${name} must be JSON.`);
        }
      };
    }
    readers.push([name, read]);
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, name, isRequired ? h('span', { class: 'required' }, ' (required)') : undefined),
      control,
      description === undefined ? undefined : h('p', { class: 'hint', id: hintId }, description),
    );
  });
  return {
    fields,
    read() {
      const args: Record<string, unknown> = {};
      for (const [name, read] of readers) {
        const value = read();
        if (value !== undefined) args[name] = value;
      }
      return args;
    },
  };
}
