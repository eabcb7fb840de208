// The web table's page: a thin view of one seat's (or a spectator's) subscription. The
// server sends the whole table after every change and every sentence in the viewer's
// language; the page draws them (as text, never HTML) and sends the chosen action.
// Frames are typed by protocol.ts, generated from the server's Python types.

import { cardFace, cardText } from "./cards";
import type { ActivityConfig, ActivityFrame } from "./handshake";
import type {
  Choice, ClientFrame, DealResultFrame, HelloFrame, Labels, LobbyFrame, Page, ServerFrame,
  TableFrame, Trick,
} from "./protocol";
import { CONTRACT_VERSION } from "./protocol";
import { showReveal } from "./reveal";

const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;

function make<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string,
                                                     cls?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

const key = new URLSearchParams(location.hash.slice(1)).get("k") ?? "";
/** Inside Discord's Activity frame (the URL has the SDK's `frame_id`), every request goes
 * through Discord's proxy: under `/.proxy/`, which Discord strips (docs/activity.md). */
const inDiscord = new URLSearchParams(location.search).has("frame_id");
const base = inDiscord ? "/.proxy/" : "/";
/** The socket's first frame: `join` with the link's key, or the Activity's. */
let first: ClientFrame | ActivityFrame = { v: CONTRACT_VERSION, type: "join", key };
let socket: WebSocket | null = null;
let finished = false;
/** The wait before the next reconnect (ms): doubled after every lost socket up to 5 s,
 * back to the first only once the server's `hello` arrived (a server that accepts the
 * socket and closes it at once must not be hammered). */
const FIRST_RETRY = 500;
let retry = FIRST_RETRY;
let labels: Labels | null = null;
let hello: HelloFrame | null = null;
let table: TableFrame | null = null;
let variant: string | null = null;
let showLast = false;
let lastResult: DealResultFrame | null = null;
let timer = 0;

// -- the socket ---------------------------------------------------------------------
function connect(): void {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = first.type === "activity" ? "ws/activity" : "ws";
  const ws = new WebSocket(`${scheme}//${location.host}${base}${path}`);
  socket = ws;
  ws.onopen = () => {
    $("link").textContent = "";
    send(first);
  };
  ws.onmessage = (ev: MessageEvent) => {
    if (typeof ev.data === "string") receive(JSON.parse(ev.data) as ServerFrame);
  };
  ws.onclose = () => {
    socket = null;
    if (finished) return;
    $("link").textContent = "⟳";
    window.setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function send(frame: ClientFrame | ActivityFrame): void {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function receive(frame: ServerFrame): void {
  switch (frame.type) {
    case "hello": return onHello(frame);
    case "table": table = frame; return draw();
    case "line": return say(frame.text);
    case "deal_result": lastResult = frame; return showResult(frame.title, frame.lines,
                                                              frame.review, true);
    case "match_over":
      finished = true;
      return showResult(frame.title, frame.lines, lastResult ? lastResult.review : [], false);
    case "lobby": return drawLobby(frame);
    case "reveal": $("result").hidden = true; say(showReveal(frame)); return;
    case "refused": $("refusal").textContent = frame.text; say(frame.text); return;
    case "closed": finished = true; say(frame.text); $("refusal").textContent = frame.text;
      return;
    case "error":
      if (frame.fatal) finished = true;
      $("refusal").textContent = frame.text;
      return;
  }
}

function say(text: string): void {
  const log = $("log");
  log.appendChild(make("p", text));
  while (log.childElementCount > 60) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

// -- drawing ------------------------------------------------------------------------
function onHello(frame: HelloFrame): void {
  retry = FIRST_RETRY;
  hello = frame;
  labels = frame.labels;
  document.documentElement.lang = frame.language;
  document.title = frame.title;
  $("title").textContent = frame.title;
  $("hand").setAttribute("aria-label", frame.labels.hand);
  $("lasttrick").textContent = frame.labels.last_trick;
  $("reviewbutton").textContent = frame.labels.review;
  $("closebutton").textContent = frame.labels.back;
}

const PLACES: Record<number, string[]> = {
  2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "topleft", "topright", "right"],
  6: ["bottom", "left", "topleft", "top", "topright", "right"],
};

function draw(): void {
  const t = table;
  if (!t || !labels) return;
  $("refusal").textContent = "";
  $("confirm").hidden = true;
  $("score").textContent = t.score;
  $("trump").textContent = t.trump_text ? `${labels.trump}: ${t.trump_text}` : "";
  drawSeats(t);
  $("trickline").textContent = t.trick.line;
  $("turn").textContent = !t.your_turn ? ""
    : t.choices.some((c) => c.card !== null) ? labels.your_turn : labels.your_turn_choose;
  const last = $("lasttrick") as HTMLButtonElement;
  last.hidden = t.last_trick === null;
  last.setAttribute("aria-expanded", String(showLast));
  drawLast(t.last_trick);
  drawVariants(t);
  drawDecisions(t);
  drawHand(t);
  drawFacts(t);
  startTimer(t.deadline);
}

function drawSeats(t: TableFrame): void {
  const box = $("seats");
  box.replaceChildren();
  const n = t.seats.length;
  const me = hello?.seat ?? 0;
  const places = PLACES[n] ?? PLACES[4];
  const played = new Map(t.trick.cards.map((c) => [c.seat, c.card]));
  for (const seat of t.seats) {
    const div = make("div", undefined, `seat ${places[(seat.seat - me + n) % n]}`);
    if (seat.to_act) div.classList.add("turn");
    if (seat.you) div.classList.add("you");
    if (seat.partner) div.classList.add("partner");
    div.appendChild(make("span", (seat.to_act ? "▶ " : "") + seat.label, "name"));
    const card = played.get(seat.seat);
    if (card) div.appendChild(small(card));
    box.appendChild(div);
  }
}

function small(card: string): HTMLElement {
  const span = make("span", undefined, "card small");
  span.appendChild(cardFace(card));
  span.appendChild(make("span", cardText(card), "sr"));
  return span;
}

function drawLast(trick: Trick | null): void {
  const box = $("lastshown");
  box.hidden = !showLast || trick === null;
  box.replaceChildren();
  if (trick) {
    const cards = make("div", undefined, "cards");
    trick.cards.forEach((c) => cards.appendChild(small(c.card)));
    box.append(make("p", trick.line), cards);
  }
}

function drawVariants(t: TableFrame): void {
  const box = $("variants");
  box.replaceChildren();
  if (!t.variants.some(([v]) => v === variant)) variant = null;
  for (const [name, words] of t.variants) {
    const b = make("button", words, "toggle");
    b.type = "button";
    b.setAttribute("aria-pressed", String(variant === name));
    b.onclick = () => { variant = variant === name ? null : name; drawVariants(t); };
    box.appendChild(b);
  }
}

function drawDecisions(t: TableFrame): void {
  const box = $("decisions");
  box.replaceChildren();
  for (const choice of t.choices) {
    if (choice.card !== null) continue;
    const b = make("button", choice.label, "decision");
    b.type = "button";
    b.onclick = () => (choice.confirm ? ask(choice) : act(choice));
    box.appendChild(b);
  }
}

/** The lobby: who sits where, and a button per action the server offers this viewer
 * (Join, Add AI, Start: the server checks them again, with Discord's rights). */
function drawLobby(frame: LobbyFrame): void {
  $("trickline").textContent = frame.seats.join(" · ");
  const box = $("decisions");
  box.replaceChildren();
  for (const action of frame.actions ?? []) {
    const b = make("button", action.label, "decision");
    b.type = "button";
    b.onclick = () => send({ v: CONTRACT_VERSION, type: "lobby_act", do: action.do });
    box.appendChild(b);
  }
}

/** Ask before a decision that cannot be taken back (conceding): the decision's own words
 * confirm it, Back keeps playing. */
function ask(choice: Choice): void {
  if (!labels || choice.confirm === null) return;
  $("confirmtext").textContent = choice.confirm;
  const yes = $("confirmyes") as HTMLButtonElement;
  const no = $("confirmno") as HTMLButtonElement;
  yes.textContent = choice.label;
  no.textContent = labels.back;
  yes.onclick = () => { $("confirm").hidden = true; act(choice); };
  no.onclick = () => { $("confirm").hidden = true; firstCard()?.focus(); };
  $("confirm").hidden = false;
  no.focus();
}

function cardChoice(t: TableFrame, card: string): Choice | undefined {
  const options = t.choices.filter((c) => c.card === card);
  return options.find((c) => c.variant === variant)
    ?? options.find((c) => c.variant === null) ?? options[0];
}

function drawHand(t: TableFrame): void {
  const box = $("hand");
  const focused = document.activeElement instanceof HTMLElement
    ? document.activeElement.dataset.card : undefined;
  box.replaceChildren();
  let row: HTMLElement | null = null;
  let suit = "";
  const counts = new Map<string, number>();
  t.hand.forEach((c) => counts.set(c, (counts.get(c) ?? 0) + 1));
  for (const [card, count] of counts) {
    if (card === "??") continue;
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
    b.onclick = () => { const c = cardChoice(t, card); if (c) act(c); };
    row.appendChild(b);
  }
  const again = focused ? box.querySelector<HTMLButtonElement>(
    `button[data-card="${focused}"]:not([disabled])`) : null;
  (again ?? (t.your_turn && box.contains(document.activeElement) ? firstCard() : null))?.focus();
}

function firstCard(): HTMLButtonElement | null {
  return $("hand").querySelector<HTMLButtonElement>("button:not([disabled])");
}

function drawFacts(t: TableFrame): void {
  const box = $("facts");
  box.replaceChildren();
  for (const [label, text] of t.facts) box.append(make("dt", label), make("dd", text));
}

function startTimer(deadline: string | null): void {
  window.clearInterval(timer);
  const out = $("timer");
  out.textContent = "";
  if (!deadline) return;
  const end = Date.parse(deadline);
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    out.textContent = `⏱ ${left}`;
  };
  tick();
  timer = window.setInterval(tick, 1000);
}

function act(choice: Choice): void {
  if (!table) return;
  send({ v: CONTRACT_VERSION, type: "act", version: table.version, action: choice.action });
}

// -- results and review ----------------------------------------------------------------
function showResult(title: string, lines: string[], review: Page[], closable: boolean): void {
  $("resulttitle").textContent = title;
  $("resultlines").replaceChildren(...lines.map((l) => make("p", l)));
  say([title, ...lines].join(" "));
  const pages = $("review");
  pages.hidden = true;
  pages.replaceChildren(...review.map((p) => {
    const part = make("section");
    part.append(make("h3", p.title), ...p.lines.map((l) => make("p", l)));
    return part;
  }));
  ($("reviewbutton") as HTMLButtonElement).hidden = review.length === 0;
  ($("closebutton") as HTMLButtonElement).hidden = !closable;
  $("result").hidden = false;
  $("resulttitle").setAttribute("tabindex", "-1");
  $("resulttitle").focus();
}

$("reviewbutton").onclick = () => { const r = $("review"); r.hidden = !r.hidden; };
$("closebutton").onclick = () => { $("result").hidden = true; firstCard()?.focus(); };
$("lasttrick").onclick = () => { showLast = !showLast; if (table) draw(); };

// -- keyboard: arrows move over the playable cards, Enter plays ---------------------------
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
  }
  if (next) { ev.preventDefault(); next.focus(); }
});

// -- inside Discord: the handshake bundle, then the Activity's socket ----------------------
function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(src));
    document.head.appendChild(script);
  });
}

async function startActivity(): Promise<void> {
  let refused = "?";
  try {
    const answer = await fetch(`${base}api/activity`);
    const config = (await answer.json()) as ActivityConfig;
    refused = config.refused;
    await loadScript(`${base}assets/activity.js`);
    const handshake = window.tricktableHandshake;
    if (!handshake) throw new Error("no handshake");
    const { accessToken, instanceId } = await handshake(config.client_id, base);
    first = { v: CONTRACT_VERSION, type: "activity", access_token: accessToken,
              instance_id: instanceId };
    connect();
  } catch {
    $("refusal").textContent = refused;
  }
}

if (inDiscord) void startActivity();
else if (key) connect();
else $("refusal").textContent = "?";
