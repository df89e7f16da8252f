/**
 * A tiny element builder: every value goes in as text or as an attribute, never as markup, so nothing a
 * server or a record says can become script. No inline `style` attributes either (the page's CSP has no
 * `'unsafe-inline'`); positions are set through the CSSOM (`element.style`), which the CSP allows.
 */

/** A child: an element, text, or nothing. */
export type Child = Node | string | number | false | null | undefined;

/** Attributes; `false`/`undefined` leave the attribute out, `true` sets it empty. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** `document.createElement(tag)` with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children (text as text nodes). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Node, ...children: Child[]): void {
  while (parent.firstChild !== null) parent.removeChild(parent.firstChild);
  append(parent, children);
}

/** The element with this id, which the page must have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}
