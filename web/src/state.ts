// The page's one state object: everything the drawing reads, changed only here, frame by
// frame (`receive`) or by the player's own choices. The socket (socket.ts) feeds it; the
// drawing (draw/*.ts) reads it.

import type {
  DealResultFrame, HelloFrame, Labels, LobbyFrame, Page, ScoreSheet, ServerFrame, TableFrame,
  Trick,
} from "./protocol";
import type { Hand } from "./protocol";
import { loadSettings } from "./settings";
import type { Settings } from "./settings";

/** The socket as the player sees it: not yet open, open, lost (reconnecting), the server
 * restarting (close code 1012, reconnecting), or ended (no more reconnects). */
export type Link = "connecting" | "open" | "lost" | "restarting" | "ended";

export interface Result {
  title: string;
  lines: string[];
  review: Page[];
  hands: Hand[];
  /** The match is over (no next deal: no button to go on). */
  over: boolean;
  /** The label of Play again (local play, at the match's end), else null. */
  again: string | null;
  /** The label of the button going on to the next deal (already dealt), else null. */
  next: string | null;
}

export interface State {
  hello: HelloFrame | null;
  words: Labels | null;
  table: TableFrame | null;
  lobby: LobbyFrame | null;
  /** The deal's log, oldest first (the history frame's on join, then every line). */
  log: string[];
  /** Every finished deal and the running score (on join and with every result). */
  sheet: ScoreSheet | null;
  /** How many watch, in words (empty: nobody). */
  spectators: string;
  result: Result | null;
  lastResult: DealResultFrame | null;
  link: Link;
  /** A refusal or an error, in the server's words (or the page's `not_sent`). */
  notice: string;
  variant: string | null;
  showLast: boolean;
  /** A completed trick shown (its winner marked) before it goes to the winner's side. */
  held: Trick | null;
  /** When the current turn of the viewer began (ms, `performance.now()`), else 0. */
  turnSince: number;
  settings: Settings;
}

export const state: State = {
  hello: null, words: null, table: null, lobby: null, log: [], sheet: null, spectators: "",
  result: null,
  lastResult: null, link: "connecting", notice: "", variant: null, showLast: false,
  held: null, turnSince: 0, settings: loadSettings(),
};

/** What a frame changed that the page must also say or do beyond drawing. */
export interface Change {
  /** Sentences for the live region (your turn, the trick's winner, the deal's result). */
  announce: string[];
  /** The viewer's turn has just begun. */
  turnBegan: boolean;
  /** A trick has just been completed (it is `state.held`). */
  trickDone: boolean;
  /** A new deal has just been dealt. */
  dealt: boolean;
}

const LOG_LINES = 200;

function sameTrick(a: Trick | null, b: Trick | null): boolean {
  return JSON.stringify(a?.cards ?? null) === JSON.stringify(b?.cards ?? null)
    && (a?.winner ?? null) === (b?.winner ?? null);
}

/** Apply one server frame to the state. */
export function receive(frame: ServerFrame): Change {
  const change: Change = { announce: [], turnBegan: false, trickDone: false, dealt: false };
  switch (frame.type) {
    case "hello":
      if (state.hello && state.hello.table !== frame.table) {  // a new match (play again)
        Object.assign(state, { table: null, lobby: null, log: [], sheet: null, result: null,
                               lastResult: null, held: null, turnSince: 0, variant: null });
      }
      state.hello = frame;
      state.words = frame.labels;
      state.link = "open";
      state.notice = "";
      break;
    case "table": {
      const before = state.table;
      if (before && frame.last_trick && !sameTrick(before.last_trick, frame.last_trick)
          && frame.deal === before.deal) {
        state.held = frame.last_trick;
        change.trickDone = true;
      }
      if (!before || frame.deal !== before.deal) {
        change.dealt = before !== null;  // a new deal seen coming, not the first table
        state.held = null;
      }
      if (frame.your_turn && !(before?.your_turn ?? false)) {
        change.turnBegan = true;
        state.turnSince = performance.now();
        if (state.words) change.announce.push(state.words.your_turn_short);
      }
      if (!frame.your_turn) state.turnSince = 0;
      state.table = frame;
      state.lobby = null;
      state.notice = "";
      break;
    }
    case "history":
      state.log = frame.lines.slice(-LOG_LINES);
      state.sheet = frame.sheet;
      break;
    case "spectators":
      state.spectators = frame.text;
      break;
    case "reason":
      state.notice = frame.text;
      change.announce.push(frame.text);
      break;
    case "line":
      addLog(frame.text);
      if (frame.kind === "trick") change.announce.push(frame.text);
      break;
    case "deal_result":
      state.lastResult = frame;
      state.sheet = frame.sheet;
      state.result = { title: frame.title, lines: frame.lines, review: frame.review,
                       hands: frame.hands, over: false, again: null, next: frame.next };
      addLog([frame.title, ...frame.lines].join(" "));
      change.announce.push([frame.title, ...frame.lines].join(" "));
      break;
    case "match_over":
      if (frame.again === null) state.link = "ended";
      state.result = { title: frame.title, lines: frame.lines,
                       review: state.lastResult?.review ?? [],
                       hands: state.lastResult?.hands ?? [], over: true, again: frame.again,
                       next: null };
      addLog([frame.title, ...frame.lines].join(" "));
      change.announce.push([frame.title, ...frame.lines].join(" "));
      endTurn();
      break;
    case "lobby":
      state.lobby = frame;
      break;
    case "reveal":
      state.result = null;
      break;
    case "refused":
      state.notice = frame.text;
      change.announce.push(frame.text);
      break;
    case "closed":
      state.link = "ended";
      state.notice = frame.text;
      addLog(frame.text);
      change.announce.push(frame.text);
      endTurn();
      break;
    case "error":
      state.notice = frame.text;
      change.announce.push(frame.text);
      if (frame.fatal) {
        state.link = "ended";
        endTurn();
      }
      break;
  }
  return change;
}

/** The table cannot be played from this page any more: no turn, nothing lit. */
function endTurn(): void {
  if (state.table) state.table = { ...state.table, your_turn: false, choices: [],
                                   deadline: null, prompt: "", forced: null };
  state.turnSince = 0;
}

export function addLog(text: string): void {
  state.log.push(text);
  if (state.log.length > LOG_LINES) state.log.splice(0, state.log.length - LOG_LINES);
}
