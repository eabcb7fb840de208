// The web table's page, in three parts as a round UI is built: the socket (socket.ts:
// connect, back off, send, dispatch), one state object (state.ts: every frame applied in
// one place) and the drawing (draw/*.ts). The server sends the whole table after every
// change and every sentence in the viewer's language; the page draws them (as text, never
// HTML) and sends the chosen action. Frames are typed by protocol.ts, generated from the
// server's Python types. This file wires the three together and starts the page.

import { $, make, para } from "./dom";
import type { ActivityConfig, ActivityFrame } from "./handshake";
import type { Choice, ClientFrame, LobbyFrame, PageWords, ServerFrame } from "./protocol";
import { CONTRACT_VERSION } from "./protocol";
import { showReveal } from "./reveal";
import { applySettings } from "./settings";
import { TableSocket } from "./socket";
import type { SocketStatus } from "./socket";
import { addLog, receive, state } from "./state";
import type { Change } from "./state";
import {
  drawDecisions, drawHand, drawVariants, firstCard, keyboard, onAct, onUnlitTap,
} from "./draw/hand";
import { duration, flyIn, flyOut, holdTime } from "./draw/motion";
import {
  appendLog, drawHelp, drawLog, drawPanelTitles, drawResult, drawSettings, drawSheet, openDialog,
  toggleReview,
} from "./draw/panels";
import { drawCentre, drawHeader, drawLast, drawSeats } from "./draw/table";
import { clearTurn, drawTimer, turnFelt } from "./draw/turn";

/** Inside Discord's Activity frame (the URL has the SDK's `frame_id`), every request goes
 * through Discord's proxy: under `/.proxy/`, which Discord strips (docs/activity.md). */
const inDiscord = new URLSearchParams(location.search).has("frame_id");
const base = inDiscord ? "/.proxy/" : "/";
const KEY_STORE = "tricktable.key";

let socket: TableSocket | null = null;
let before: PageWords | null = null;
let holding = 0;
/** Where the card the viewer just tapped was (its flight to the centre starts there). */
let playedFrom: DOMRect | null = null;

// -- the link's key: from the address once, then held in memory (and this tab) ----------
function takeKey(): string {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("k");
  try {
    if (fromHash) sessionStorage.setItem(KEY_STORE, fromHash);
    return fromHash ?? sessionStorage.getItem(KEY_STORE) ?? "";
  } catch {
    return fromHash ?? "";
  }
}

function keepKey(key: string): void {
  try { sessionStorage.setItem(KEY_STORE, key); } catch { /* kept in memory only */ }
}

function forgetKey(): void {
  try { sessionStorage.removeItem(KEY_STORE); } catch { /* nothing kept */ }
}

/** Once joined, the key leaves the address bar (a shared screen or a copied address shows
 * none); reconnects use the one in memory, a reload this tab's copy. */
function hideKey(): void {
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
}

// -- the live region ---------------------------------------------------------------------
function announce(text: string): void {
  if (!text) return;
  const live = $("announce");
  live.appendChild(make("p", text));
  while (live.childElementCount > 3) live.firstElementChild?.remove();
}

// -- frames in ---------------------------------------------------------------------------
/** User Timing marks of the first load (read by bench/web_page.py): each frame type's
 * first arrival, and the first table drawn. */
function mark(name: string): void {
  if (performance.getEntriesByName(name).length === 0) performance.mark(name);
}

function onFrame(frame: ServerFrame): void {
  mark(`frame:${frame.type}`);
  const change = receive(frame);
  const w = state.words;
  switch (frame.type) {
    case "hello":
      document.documentElement.lang = frame.language;
      $("title").textContent = frame.title;
      if (frame.key) { keepKey(frame.key); socket?.rekey(frame.key); }
      hideKey();
      drawStatic();
      drawLog(w);
      if (w) drawSheet(w);
      if (!state.result) $("result").hidden = true;
      break;
    case "history":
      drawLog(w);
      if (w) drawSheet(w);
      break;
    case "spectators":
      $("watching").textContent = state.spectators;
      break;
    case "table":
      draw(change);
      if (!performance.getEntriesByName("drawn:table").length) {
        mark("drawn:table");  // and once painted (the frame after the next one began):
        requestAnimationFrame(() => requestAnimationFrame(() => mark("painted:table")));
      }
      break;
    case "line":
      appendLog(w);
      break;
    case "deal_result":
    case "match_over":
      appendLog(w);
      if (frame.type === "match_over") {
        if (frame.again === null) socket?.stop();
        clearTurn();
        draw(change);
      }
      if (w) { drawSheet(w); drawResult(w, playAgain); }
      break;
    case "lobby":
      drawLobby(frame);
      break;
    case "reveal": {
      $("result").hidden = true;
      const said = showReveal(frame, w?.hidden_card ?? "", state.hello?.seat ?? null);
      addLog(said);
      appendLog(w);
      announce(said);
      break;
    }
    case "closed":
      socket?.stop();
      appendLog(w);
      clearTurn();
      draw(change);
      break;
    case "error":
      if (frame.fatal) { socket?.stop(); forgetKey(); clearTurn(); draw(change); }
      break;
    case "refused":
    case "reason":
      break;
  }
  $("refusal").textContent = state.notice;
  change.announce.forEach(announce);
  drawLink();
}

function onStatus(status: SocketStatus): void {
  if (status === "open") mark("socket:open");
  // lost before any hello: the words to say it come from the server's words
  if (status !== "open" && !state.words && !before) void pageWords().then(drawLink);
  // a restarting server refuses connections for a while: still "restarting", not "lost"
  if (status === "lost" && state.link === "restarting") return;
  if (status !== "open" && state.link !== "ended") state.link = status;
  drawLink();
}

/** The connection line: shown (and spoken) while the socket is lost or the server is
 * restarting; the page keeps the last table meanwhile. */
function drawLink(): void {
  const w = state.words;
  const text = state.link === "lost" ? (w?.lost ?? before?.lost ?? "")
    : state.link === "restarting" ? (w?.restarting ?? before?.lost ?? "") : "";
  const line = $("link");
  if (line.textContent !== text) line.textContent = text;
  line.hidden = !text;
  document.documentElement.classList.toggle("offline",
                                            state.link === "lost" || state.link === "restarting");
}

// -- drawing -----------------------------------------------------------------------------
/** What only changes with the hello (titles of panels and buttons, the dialogs). */
function drawStatic(): void {
  const w = state.words;
  if (!w) return;
  drawPanelTitles(w);
  $("confirmno").textContent = w.back;
}

function trickKeys(): Map<string, DOMRect> {
  const out = new Map<string, DOMRect>();
  $("trick").querySelectorAll<HTMLElement>(".tcard").forEach((el) =>
    out.set(`${el.dataset.seat}:${el.dataset.card}`, el.getBoundingClientRect()));
  return out;
}

function seatRect(seat: number | null | undefined): DOMRect | null {
  const li = $("seats").querySelector(`li[data-seat="${seat}"]`);
  return li ? li.getBoundingClientRect() : null;
}

function draw(change?: Change): void {
  const t = state.table;
  const w = state.words;
  if (!t || !w) return;
  const shown = duration() ? trickKeys() : new Map<string, DOMRect>();
  document.documentElement.classList.toggle("myturn", t.your_turn);
  drawHeader(t, w);
  drawSeats(t, w);
  drawCentre(t, w);
  $("turn").textContent = t.forced ?? t.prompt;
  $("turn").classList.toggle("mine", t.your_turn);
  drawVariants(t);
  drawDecisions(t, w);
  drawHand(t, w);
  drawLast(t, w);
  const facts = $("facts");
  facts.replaceChildren();
  for (const [label, text] of t.facts) {
    if (label === w.trump && t.trump_text) continue;  // the centre says it
    if (label === w.tricks && $("sidetricks").textContent) continue;  // the header does
    const dd = make("dd");
    dd.append(...para(text, w.hidden_card).childNodes);
    facts.append(make("dt", label), dd);
  }
  drawTimer(t.deadline, w);
  turnFelt(t, w, change?.turnBegan ?? false, announce);
  // cards that move
  if (duration()) {
    $("trick").querySelectorAll<HTMLElement>(".tcard").forEach((el) => {
      if (shown.has(`${el.dataset.seat}:${el.dataset.card}`)) return;
      const mine = el.dataset.seat === String(state.hello?.seat);
      const from = mine && playedFrom ? playedFrom : seatRect(Number(el.dataset.seat));
      if (from) flyIn(el, from);
    });
    if (change?.dealt) {
      const from = $("centre").getBoundingClientRect();
      $("hand").querySelectorAll(".card").forEach((el, i) => flyIn(el, from, i * 25));
    }
  }
  playedFrom = null;
  if (change?.trickDone) holdTrick();
}

/** Show the completed trick a moment (its winner marked), then send it to the winner's
 * side and draw the trick now in play. */
function holdTrick(): void {
  window.clearTimeout(holding);
  const held = state.held;
  holding = window.setTimeout(() => {
    const cards = Array.from($("trick").querySelectorAll(".tcard"));
    const to = seatRect(held?.winner);
    const done = () => {
      if (state.held !== held) return;
      state.held = null;
      if (state.table && state.words) drawCentre(state.table, state.words);
    };
    if (to) void flyOut(cards, to).then(done);
    else done();
  }, holdTime());
}

/** The lobby: who sits where, and a button per action the server offers this viewer
 * (Join, Add AI, Start: the server checks them again, with Discord's rights). */
function drawLobby(frame: LobbyFrame): void {
  $("trickline").textContent = frame.seats.join(" · ");
  $("decisions").replaceChildren(...(frame.actions ?? []).map((action) => {
    const b = make("button", action.label, "decision");
    b.type = "button";
    b.onclick = () => sendOrSay({ v: CONTRACT_VERSION, type: "lobby_act", do: action.do });
    return b;
  }));
}

// -- frames out --------------------------------------------------------------------------
/** Send `frame`; when the socket is gone, say so (a tap is never dropped silently). */
function sendOrSay(frame: ClientFrame): boolean {
  if (socket?.send(frame)) return true;
  const w = state.words;
  state.notice = w?.not_sent ?? before?.lost ?? "";
  $("refusal").textContent = state.notice;
  announce(state.notice);
  return false;
}

/** Play again (local play, at the match's end): the server starts a new match and sends
 * its hello. */
function playAgain(): void {
  if (sendOrSay({ v: CONTRACT_VERSION, type: "again" })) $("result").hidden = true;
}

/** A tap on a card that may not be played: ask the server why (its answer is a reason
 * frame, shown in the notice line). */
function why(card: string): void {
  sendOrSay({ v: CONTRACT_VERSION, type: "why", card });
}

function act(choice: Choice, from?: HTMLElement): void {
  const t = state.table;
  if (!t) return;
  const rect = from?.getBoundingClientRect() ?? null;
  if (sendOrSay({ v: CONTRACT_VERSION, type: "act", version: t.version, action: choice.action })) {
    playedFrom = rect;
  }
}

// -- the page's own controls -------------------------------------------------------------
function wire(): void {
  onAct(act);
  onUnlitTap(why);
  keyboard();
  $("reviewbutton").onclick = toggleReview;
  $("closebutton").onclick = () => {
    $("result").hidden = true;
    (firstCard() ?? $("hand")).focus();
  };
  $("lasttrick").onclick = () => {
    state.showLast = !state.showLast;
    if (state.table && state.words) drawLast(state.table, state.words);
  };
  $("sheetbutton").onclick = () => { $("sheet").scrollIntoView(); $("sheettitle").focus(); };
  $("logbutton").onclick = () => { $("logpanel").scrollIntoView(); $("log").focus(); };
  // the panels are drawn when opened (the first table comes sooner)
  $("helpbutton").onclick = () => {
    if (state.words) drawHelp(state.words);
    openDialog("help");
  };
  $("settingsbutton").onclick = () => {
    if (state.words) drawSettings(state.words, () => {
      applySettings(state.settings);
      if (state.table) draw();
    });
    openDialog("settings");
  };
  $("helpclose").onclick = () => ($("help") as HTMLDialogElement).close();
  $("settingsclose").onclick = () => ($("settings") as HTMLDialogElement).close();
  window.addEventListener("hashchange", () => {
    if (new URLSearchParams(location.hash.slice(1)).get("k")) location.reload();
  });
}

// -- starting: the link's socket, or inside Discord the Activity's ----------------------
function open(first: ClientFrame | ActivityFrame): void {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = first.type === "activity" ? "ws/activity" : "ws";
  socket = new TableSocket(`${scheme}//${location.host}${base}${path}`, first,
                           { frame: onFrame, status: onStatus });
  socket.connect();
}

async function pageWords(): Promise<void> {
  try {
    before = (await (await fetch(`${base}api/words`)).json()) as PageWords;
  } catch {
    before = null;
  }
}

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
  let refused = "";
  try {
    const answer = await fetch(`${base}api/activity`);
    const config = (await answer.json()) as ActivityConfig;
    refused = config.refused;
    await loadScript(`${base}assets/activity.js`);
    const handshake = window.tricktableHandshake;
    if (!handshake) throw new Error("no handshake");
    const { accessToken, instanceId } = await handshake(config.client_id, base);
    open({ v: CONTRACT_VERSION, type: "activity", access_token: accessToken,
           instance_id: instanceId });
  } catch {
    $("refusal").textContent = refused;
  }
}

async function start(): Promise<void> {
  applySettings(state.settings);
  wire();
  if (inDiscord) { void startActivity(); return; }
  const key = takeKey();
  if (key) {
    open({ v: CONTRACT_VERSION, type: "join", key });
    return;
  }
  await pageWords();
  if (before) document.documentElement.lang = before.language;
  $("refusal").textContent = before?.no_key ?? "";
}

void start();
