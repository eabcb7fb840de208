// Your turn, felt: the tab's title marked, the live region's "Your turn", an optional
// sound and vibration (settings), a gentle reminder after a while on one turn, and the
// turn timer wherever the table has a deadline.

import { $, fill } from "../dom";
import type { Labels, TableFrame } from "../protocol";
import { state } from "../state";

const REMINDER_MS = 25000;
let reminder = 0;
let ticker = 0;
let audio: AudioContext | null = null;

/** Two soft notes (Web Audio: no file to load), when the player chose sound. */
function chime(): void {
  if (!state.settings.sound) return;
  try {
    audio = audio ?? new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((hz, i) => {
      const ctx = audio as AudioContext;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.08, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.22);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.25);
    });
  } catch {
    audio = null;  // no audio in this browser: the title and the words remain
  }
}

function buzz(): void {
  if (state.settings.vibrate && typeof navigator.vibrate === "function") navigator.vibrate(120);
}

/** Called after every table frame: the title, and the reminder's clock. */
export function turnFelt(t: TableFrame, w: Labels, began: boolean, announce: (s: string) => void): void {
  const title = state.hello?.title ?? "tricktable";
  document.title = t.your_turn ? `● ${w.your_turn_short} · ${title}` : title;
  $("turn").classList.remove("reminded");
  if (began) { chime(); buzz(); }
  window.clearTimeout(reminder);
  if (t.your_turn) {
    const left = Math.max(0, REMINDER_MS - (performance.now() - state.turnSince));
    reminder = window.setTimeout(() => {
      if (!state.table?.your_turn) return;
      $("turn").textContent = w.still_your_turn;
      $("turn").classList.add("reminded");
      announce(w.still_your_turn);
      chime();
      buzz();
    }, left);
  }
}

export function clearTurn(): void {
  window.clearTimeout(reminder);
  document.title = state.hello?.title ?? document.title;
}

/** The turn timer: the seconds left and a bar, while the table has a deadline. */
export function drawTimer(deadline: string | null, w: Labels): void {
  window.clearInterval(ticker);
  const box = $("timer");
  const bar = $("timerbar");
  box.hidden = !deadline;
  if (!deadline) return;
  const end = Date.parse(deadline);
  const total = Math.max(1000, end - Date.now());
  const tick = () => {
    const ms = Math.max(0, end - Date.now());
    $("timertext").textContent = fill(w.seconds_left, { seconds: Math.ceil(ms / 1000) });
    bar.style.width = `${(100 * ms) / total}%`;
    box.classList.toggle("late", ms < 10000);
    if (ms <= 0) window.clearInterval(ticker);
  };
  tick();
  ticker = window.setInterval(tick, 1000);
}
