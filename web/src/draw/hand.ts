// The viewer's hand along the bottom (one row per suit), its captions (what a card bids),
// the decision buttons, the variant toggles (a signal, bella) and the question before a
// decision that cannot be taken back. Focus stays in the hand after a play; arrows move
// over the lit cards, Enter or Space plays the focused one.

import { cardFace, cardText, HIDDEN } from "../cards";
import { $, button, make } from "../dom";
import type { Choice, Labels, TableFrame } from "../protocol";
import { state } from "../state";

/** Send a choice (main.ts: through the socket; `from` is the tapped card, for its flight). */
export type Act = (choice: Choice, from?: HTMLElement) => void;

let act: Act = () => undefined;
/** Whether the player's focus was in the hand when it was last redrawn or played from. */
let inHand = false;

export function onAct(call: Act): void {
  act = call;
}

function cardChoice(t: TableFrame, card: string): Choice | undefined {
  const options = t.choices.filter((c) => c.card === card);
  return options.find((c) => c.variant === state.variant)
    ?? options.find((c) => c.variant === null) ?? options[0];
}

export function drawHand(t: TableFrame, w: Labels): void {
  const box = $("hand");
  box.setAttribute("aria-label", w.hand);
  const active = document.activeElement;
  inHand = inHand || (active instanceof HTMLElement && box.contains(active));
  const focused = active instanceof HTMLElement ? active.dataset.card : undefined;
  box.replaceChildren();
  let row: HTMLElement | null = null;
  let suit = "";
  const counts = new Map<string, number>();
  t.hand.forEach((c) => counts.set(c, (counts.get(c) ?? 0) + 1));
  for (const [card, count] of counts) {
    if (card === HIDDEN) continue;
    if (card[1] !== suit || row === null) {
      row = make("div", undefined, "row");
      box.appendChild(row);
      suit = card[1];
    }
    const choice = cardChoice(t, card);
    const b = make("button", undefined, "card");
    b.type = "button";
    b.dataset.card = card;
    const name = count > 1 ? `${cardText(card)} ×${count}` : cardText(card);
    b.setAttribute("aria-label", choice ? `${name}, ${choice.label}` : name);
    b.appendChild(cardFace(card));
    if (count > 1) b.appendChild(make("span", `×${count}`, "count"));
    b.disabled = choice === undefined;
    b.onclick = () => {
      const c = cardChoice(t, card);
      if (c) { inHand = true; act(c, b); }
    };
    if (choice?.caption) {
      // beside the button, not in it: the button's name already says it ("… (worth 5)")
      const slot = make("span", undefined, "slot");
      const caption = make("span", choice.caption, "caption");
      caption.setAttribute("aria-hidden", "true");
      slot.append(b, caption);
      row.appendChild(slot);
    } else {
      row.appendChild(b);
    }
  }
  // focus stays in the hand after a play, unless the player (or a result, a reveal) has
  // taken it elsewhere meanwhile
  const now = document.activeElement;
  const free = !now || now === document.body || box.contains(now);
  const again = focused ? box.querySelector<HTMLButtonElement>(
    `button[data-card="${focused}"]:not([disabled])`) : null;
  if (again && free) again.focus();
  else if (inHand && free) (firstCard() ?? box).focus();
  inHand = box.contains(document.activeElement);
}

export function firstCard(): HTMLButtonElement | null {
  return $("hand").querySelector<HTMLButtonElement>("button:not([disabled])");
}

export function drawVariants(t: TableFrame): void {
  const box = $("variants");
  if (!t.variants.some(([v]) => v === state.variant)) state.variant = null;
  box.replaceChildren(...t.variants.map(([name, words]) => {
    const b = button(words, "toggle", () => {
      state.variant = state.variant === name ? null : name;
      drawVariants(t);
      drawHand(t, state.words as Labels);
    });
    b.setAttribute("aria-pressed", String(state.variant === name));
    return b;
  }));
}

export function drawDecisions(t: TableFrame, w: Labels): void {
  $("confirm").hidden = true;
  $("decisions").replaceChildren(...t.choices.filter((c) => c.card === null).map((choice) =>
    button(choice.label, "decision", () => (choice.confirm ? ask(choice, w) : act(choice)))));
}

/** Ask before a decision that cannot be taken back (conceding): the decision's own words
 * confirm it, Back keeps playing. */
function ask(choice: Choice, w: Labels): void {
  if (choice.confirm === null) return;
  $("confirmtext").textContent = choice.confirm;
  const yes = $("confirmyes") as HTMLButtonElement;
  const no = $("confirmno") as HTMLButtonElement;
  yes.textContent = choice.label;
  no.textContent = w.back;
  yes.onclick = () => { $("confirm").hidden = true; act(choice); };
  no.onclick = () => { $("confirm").hidden = true; (firstCard() ?? $("hand")).focus(); };
  $("confirm").hidden = false;
  no.focus();
}

/** A tap on a card that is not lit: the reason, from the frame's words when the server
 * gives one (`why`), in the notice line. */
export function onUnlitTap(show: (card: string) => void): void {
  $("hand").addEventListener("click", (ev: MouseEvent) => {
    for (const b of $("hand").querySelectorAll<HTMLButtonElement>("button:disabled")) {
      const r = b.getBoundingClientRect();
      if (ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top
          && ev.clientY <= r.bottom && b.dataset.card) {
        show(b.dataset.card);
        return;
      }
    }
  });
}

// -- keyboard: arrows move over the lit cards, Enter plays ------------------------------
export function keyboard(): void {
  $("hand").addEventListener("keydown", (ev: KeyboardEvent) => {
    const rows = Array.from($("hand").querySelectorAll<HTMLElement>(".row"))
      .map((r) => Array.from(r.querySelectorAll<HTMLButtonElement>("button:not([disabled])")))
      .filter((r) => r.length > 0);
    const flat = rows.flat();
    const here = flat.indexOf(document.activeElement as HTMLButtonElement);
    if (flat.length === 0) return;
    let next: HTMLButtonElement | undefined;
    if (ev.key === "ArrowRight") next = flat[(here + 1) % flat.length];
    else if (ev.key === "ArrowLeft") next = flat[(here - 1 + flat.length) % flat.length];
    else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      const r = rows.findIndex((row) => row.includes(document.activeElement as HTMLButtonElement));
      const step = ev.key === "ArrowDown" ? 1 : -1;
      next = rows[((r < 0 ? 0 : r) + step + rows.length) % rows.length][0];
    } else if ((ev.key === "Enter" || ev.key === " ") && document.activeElement === $("hand")) {
      next = flat[0];
    }
    if (next) { ev.preventDefault(); next.focus(); }
  });
}
