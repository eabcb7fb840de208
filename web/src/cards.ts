// Cards as players read them and card faces drawn as SVG (the style of the bot's Pillow
// pictures: a white face, the rank in the corners, the suit large in the middle). The ink
// is a class per suit (`s-S` …), coloured by the style sheet: two colours, or four with the
// four-colour deck setting. Record notation in ("KS", "TH", "??" face down), words out
// ("K♠", "10♥").

const SYMBOLS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SVG = "http://www.w3.org/2000/svg";

export const HIDDEN = "??";

export function rankText(card: string): string {
  return card[0] === "T" ? "10" : card[0];
}

/** A card in words (`K♠`); a face-down card is `hidden` (the viewer's words for it). */
export function cardText(card: string, hidden = ""): string {
  if (card === HIDDEN) return hidden;
  return rankText(card) + (SYMBOLS[card[1]] ?? card[1]);
}

export function suitSymbol(suit: string): string {
  return SYMBOLS[suit] ?? suit;
}

function el(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function back(svg: SVGElement): SVGElement {
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#30407a",
                               stroke: "#1b2550", "stroke-width": 2 }));
  svg.appendChild(el("rect", { x: 7, y: 7, width: 46, height: 70, rx: 3, fill: "none",
                               stroke: "#8ea2e0", "stroke-width": 2 }));
  return svg;
}

/** A card face (or back) as an SVG element, 60×84 units, hidden from screen readers. */
export function cardFace(card: string): SVGElement {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true",
                          focusable: "false" });
  if (card === HIDDEN) return back(svg);
  const ink = `ink s-${card[1]}`;
  const suit = SYMBOLS[card[1]] ?? "?";
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#ffffff",
                               stroke: "#555555", "stroke-width": 1.5 }));
  svg.appendChild(el("text", { x: 5, y: 19, class: ink, "font-size": 17, "font-weight": 700,
                               "font-family": "sans-serif" }, rankText(card)));
  svg.appendChild(el("text", { x: 5, y: 34, class: ink, "font-size": 14,
                               "font-family": "sans-serif" }, suit));
  svg.appendChild(el("text", { x: 36, y: 66, class: ink, "font-size": 30,
                               "text-anchor": "middle", "font-family": "sans-serif" }, suit));
  return svg;
}

/** A small card back standing for one face-down card in a sentence, named `hidden`. */
export function backGlyph(hidden: string): HTMLElement {
  const span = document.createElement("span");
  span.className = "backglyph";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", hidden);
  span.appendChild(back(el("svg", { viewBox: "0 0 60 84", "aria-hidden": "true",
                                    focusable: "false" })));
  return span;
}
