// A hand diagram: the hands as dealt around a compass, each hand's suits in rows (as
// bridge hand records show them), the viewer's hand (or the first) at the bottom. Used by
// the deal's result and review, and by a duplicate board's reveal. Text, not pictures: a
// screen reader reads each hand as a labelled group of four short lines.

import { rankText, suitSymbol } from "../cards";
import { make } from "../dom";
import type { Hand } from "../protocol";

const PLACES: Record<number, string[]> = {
  2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
  6: ["bottom", "left", "topleft", "top", "topright", "right"],
};
const SUITS = ["S", "H", "D", "C"];

/** The diagram of `hands`, `me` (a seat) at the bottom; `title` names it for readers. */
export function handDiagram(hands: Hand[], me: number | null, title: string): HTMLElement {
  const box = make("div", undefined, "diagram");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", title);
  const n = hands.length;
  const places = PLACES[n] ?? PLACES[4];
  const first = me ?? hands[0]?.seat ?? 0;
  hands.forEach((hand) => {  // by seat, not by order: a hand record lists by direction
    const place = places[(hand.seat - first + n) % n] ?? "bottom";
    const part = make("div", undefined, `dhand d-${place}`);
    part.setAttribute("role", "group");
    part.setAttribute("aria-label", hand.label);
    part.appendChild(make("p", hand.label, "dname"));
    for (const suit of SUITS) {
      const ranks = hand.cards.filter((c) => c[1] === suit).map((c) => rankText(c));
      const line = make("p", undefined, "dsuit");
      line.append(make("span", suitSymbol(suit), `sym s-${suit}`),
                  ` ${ranks.length ? ranks.join(" ") : "—"}`);
      part.appendChild(line);
    }
    box.appendChild(part);
  });
  const rose = make("div", undefined, "rose");
  rose.setAttribute("aria-hidden", "true");
  box.appendChild(rose);
  return box;
}
