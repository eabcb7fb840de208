// The table: the header's deal line (deal number and dealer, always shown), the score and
// the tricks won by each side; the seats as a list of named players around the table; the
// trick in the centre, each card in front of its player, the led card marked, and a
// completed trick held with its winner marked before it goes to the winner's side.

import { cardFace, cardText } from "../cards";
import { $, fill, make, sentence } from "../dom";
import type { Labels, SeatInfo, TableFrame, Trick } from "../protocol";
import { state } from "../state";

/** Where each seat sits, counted from the viewer's (the viewer at the bottom). */
const PLACES: Record<number, string[]> = {
  2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
  6: ["bottom", "left", "topleft", "top", "topright", "right"],
};

export function placeOf(seat: number, t: TableFrame): string {
  const n = t.seats.length;
  const me = state.hello?.seat ?? 0;
  return (PLACES[n] ?? PLACES[4])[(seat - me + n) % n];
}

export function drawHeader(t: TableFrame, w: Labels): void {
  const dealer = t.seats.find((s) => s.dealer);
  const number = t.deal + 1;
  $("dealline").textContent = !dealer ? ""
    : dealer.you ? fill(w.deal_by_you, { number }) : fill(w.deal_by, { number, name: dealer.name });
  $("score").textContent = t.score;
  $("sidetricks").textContent = sideTricks(t.seats, w);
  $("watching").textContent = state.spectators;
}

/** `Tricks: us 3 · them 2` (two sides, from the viewer's side), else nothing (each seat
 * shows its own). */
function sideTricks(seats: SeatInfo[], w: Labels): string {
  const sides = new Map<number, number>();
  for (const s of seats) if (s.side !== null) sides.set(s.side, (sides.get(s.side) ?? 0) + s.tricks);
  if (sides.size !== 2) return "";
  const mine = seats.find((s) => s.you)?.side;
  const order = [...sides.keys()].sort((a, b) => (a === mine ? -1 : b === mine ? 1 : a - b));
  const names = mine === undefined || mine === null ? order.map((side) =>
    seats.filter((s) => s.side === side).map((s) => s.name).join(" & ")) : [w.us, w.them];
  return `${w.tricks}: ` + order.map((side, i) => `${names[i]} ${sides.get(side)}`).join(" · ");
}

export function drawSeats(t: TableFrame, w: Labels): void {
  const list = $("seats");
  list.setAttribute("aria-label", w.players);
  list.replaceChildren(...t.seats.map((seat) => {
    const li = make("li", undefined, `seat ${placeOf(seat.seat, t)}`);
    li.dataset.seat = String(seat.seat);
    li.classList.toggle("turn", seat.to_act);
    li.classList.toggle("you", seat.you);
    li.classList.toggle("partner", seat.partner);
    if (seat.avatar) {
      const img = make("img", undefined, "avatar");
      img.src = seat.avatar;
      img.alt = "";
      img.onerror = () => img.remove();  // a policy or a network that refuses it
      img.width = 24;
      img.height = 24;
      li.appendChild(img);
    }
    const name = make("span", undefined, "name");
    if (seat.to_act) {
      const marker = make("span", "▶ ", "marker");
      marker.setAttribute("aria-hidden", "true");
      name.append(marker);
    }
    name.append(seat.label);
    if (seat.to_act) name.append(make("span", `, ${w.to_play}`, "sr"));
    li.append(name, make("span", `${w.tricks} ${seat.tricks}`, "won"));
    return li;
  }));
}

/** The centre: the trump line, then the trick (the held one while it is shown), each on
 * its own line. */
export function drawCentre(t: TableFrame, w: Labels): void {
  $("trump").textContent = t.trump_text ? `${w.trump}: ${t.trump_text}` : "";
  const trick = state.held ?? t.trick;
  const box = $("trick");
  box.replaceChildren(...trick.cards.map((c, i) => {
    const card = make("span", undefined, `tcard p-${placeOf(c.seat, t)}`);
    card.dataset.seat = String(c.seat);
    card.dataset.card = c.card;
    card.appendChild(cardFace(c.card));
    const tags: string[] = [];
    if (i === 0) {
      card.classList.add("led");
      tags.push(w.led);
    }
    if (state.held && c.seat === trick.winner) {
      card.classList.add("winner");
      tags.push("✓");
    }
    if (tags.length) {
      const tag = make("span", tags.join(" "), "tag");
      tag.setAttribute("aria-hidden", "true");
      card.appendChild(tag);
    }
    return card;
  }));
  const line = $("trickline");
  line.replaceChildren(...sentence(trick.line, w.hidden_card));
  line.classList.toggle("held", state.held !== null);
}

/** The last trick, shown on demand below the hand. */
export function drawLast(t: TableFrame, w: Labels): void {
  const last = $("lasttrick") as HTMLButtonElement;
  last.textContent = w.last_trick;
  last.hidden = t.last_trick === null;
  last.setAttribute("aria-expanded", String(state.showLast));
  const box = $("lastshown");
  box.hidden = !state.showLast || t.last_trick === null;
  box.replaceChildren();
  const trick: Trick | null = t.last_trick;
  if (trick) {
    const cards = make("div", undefined, "cards");
    trick.cards.forEach((c) => {
      const span = make("span", undefined, "card small");
      span.append(cardFace(c.card), make("span", cardText(c.card, w.hidden_card), "sr"));
      cards.appendChild(span);
    });
    box.append(make("p", trick.line), cards);
  }
}
