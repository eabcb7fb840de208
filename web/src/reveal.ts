// A finished duplicate board's reveal (docs/duplicate.md): the traveller so far, the hands
// as dealt, the AI's result from the viewer's seat and the board's review, in a panel near
// the top of the page. The server sends it only to a seat of an entrant that finished the
// board; every line is the server's words, drawn as text (never HTML).

import type { RevealFrame } from "./protocol";
import { handDiagram } from "./draw/diagram";
import { para } from "./dom";

function make<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string,
                                                     id?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (id) node.id = id;
  return node;
}

function list(lines: string[], id: string, hidden: string): HTMLUListElement {
  const ul = make("ul", undefined, id);
  ul.append(...lines.map((line) => {
    const li = make("li");
    li.append(...para(line, hidden).childNodes);
    return li;
  }));
  return ul;
}

/** Draw `frame` in the reveal panel (made the first time, after the page's header): the
 * traveller, the hands as dealt (a hand diagram, `seat` at the bottom, and the hand
 * record's lines), the AI's result, the review on demand; move the focus to its title and
 * return the words for the live region. `hidden` names a face-down card. */
export function showReveal(frame: RevealFrame, hidden: string, seat: number | null): string {
  let panel = document.getElementById("reveal");
  if (!panel) {
    panel = make("section", undefined, "reveal");
    panel.setAttribute("aria-labelledby", "revealtitle");
    document.getElementById("top")?.after(panel);
  }
  const title = make("h2", frame.title, "revealtitle");
  title.tabIndex = -1;
  const review = make("div", undefined, "revealreview");
  review.hidden = true;
  review.append(...frame.review.map((page) => {
    const part = make("section");
    part.append(make("h4", page.title), ...page.lines.map((l) => make("p", l)));
    return part;
  }));
  const toggle = make("button", frame.review_label, "revealreviewbutton");
  toggle.type = "button";
  toggle.hidden = frame.review.length === 0;
  toggle.setAttribute("aria-expanded", "false");
  toggle.onclick = () => {
    review.hidden = !review.hidden;
    toggle.setAttribute("aria-expanded", String(!review.hidden));
  };
  panel.replaceChildren(
    title, make("p", frame.event, "revealevent"), list(frame.traveller, "traveller", hidden),
    make("h3", frame.hands_title), handDiagram(frame.diagram, seat, frame.hands_title),
    list(frame.hands, "handrecord", hidden),
    make("p", frame.ai, "revealai"), toggle, review);
  panel.hidden = false;
  title.focus();
  return [frame.title, ...frame.traveller, frame.hands_title, ...frame.hands, frame.ai]
    .join(" ");
}
