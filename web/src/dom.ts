// Small DOM helpers every drawing module uses: elements by id, new elements with text
// (always text, never HTML: every sentence comes from the server), and a sentence with its
// face-down cards (🂠, which many fonts lack) drawn as small card backs.

import { backGlyph } from "./cards";

export const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;

export function make<K extends keyof HTMLElementTagNameMap>(
  tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

export function button(text: string, cls: string, onclick: () => void): HTMLButtonElement {
  const b = make("button", text, cls);
  b.type = "button";
  b.onclick = onclick;
  return b;
}

const BACK = "🂠";

/** `text` as nodes: the text itself, with every `🂠` drawn as a card back named `hidden`
 * (a face-down card, for screen readers). */
export function sentence(text: string, hidden: string): Node[] {
  if (!text.includes(BACK)) return [document.createTextNode(text)];
  const out: Node[] = [];
  text.split(BACK).forEach((part, i) => {
    if (i > 0) out.push(backGlyph(hidden));
    if (part) out.push(document.createTextNode(part));
  });
  return out;
}

/** A paragraph of `text` (face-down cards drawn, see `sentence`). */
export function para(text: string, hidden: string, cls?: string): HTMLParagraphElement {
  const p = make("p", undefined, cls);
  p.append(...sentence(text, hidden));
  return p;
}

/** Fill `{name}` fields of a label (the server's words) with values. */
export function fill(words: string, values: Record<string, string | number>): string {
  return words.replace(/\{(\w+)\}/g, (all, name: string) =>
    name in values ? String(values[name]) : all);
}
