// Cards that move: a card played flies from its player to the centre, a completed trick
// (held a moment with its winner marked) goes to the winner's side, a new hand is dealt
// from the centre. The speed is the player's setting; with `prefers-reduced-motion` (or the
// setting Off) nothing moves, and the held trick only waits.

import { state } from "../state";

const BASE: Record<string, number> = { off: 0, slow: 480, normal: 280, fast: 150 };
const HOLD: Record<string, number> = { off: 900, slow: 1800, normal: 1200, fast: 700 };

const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

/** How long one movement lasts (ms): 0 when nothing may move. */
export function duration(): number {
  return reduced.matches ? 0 : BASE[state.settings.speed] ?? 0;
}

/** How long a completed trick stays in the centre before it goes to its winner. */
export function holdTime(): number {
  return HOLD[state.settings.speed] ?? 1200;
}

function centre(r: DOMRect): [number, number] {
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** Move `el` (already at its place) in from `from`'s position. */
export function flyIn(el: Element, from: DOMRect, delay = 0): void {
  const ms = duration();
  if (!ms) return;
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(el.getBoundingClientRect());
  el.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px) scale(.8)`, opacity: 0.6 },
              { transform: "none", opacity: 1 }],
             { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/** Move `els` to `to`'s position and fade them; resolves when they arrived. */
export function flyOut(els: Element[], to: DOMRect): Promise<void> {
  const ms = duration();
  if (!ms || !els.length) return Promise.resolve();
  const [tx, ty] = centre(to);
  return Promise.all(els.map((el) => {
    const [fx, fy] = centre(el.getBoundingClientRect());
    return el.animate([{ transform: "none", opacity: 1 },
                       { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(.4)`, opacity: 0 }],
                      { duration: ms, easing: "ease-in", fill: "forwards" }).finished;
  })).then(() => undefined, () => undefined);
}
