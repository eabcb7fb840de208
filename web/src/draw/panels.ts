// The panels beside the table (below it on a phone): the log of the deal and the score
// sheet; the dialogs: the deal's result (with its hand diagram and review), help and
// settings. Every sentence is the server's or a label of the hello.

import { $, make, para } from "../dom";
import type { Labels, Page } from "../protocol";
import { SIZE_CHOICES, SPEED_CHOICES, saveSettings } from "../settings";
import type { Settings } from "../settings";
import { state } from "../state";
import { handDiagram } from "./diagram";

export function drawLog(w: Labels | null): void {
  const log = $("log");
  const hidden = w?.hidden_card ?? "";
  log.replaceChildren(...state.log.map((line) => para(line, hidden)));
  log.scrollTop = log.scrollHeight;
}

/** Append the newest log line only (the log is redrawn whole on join). */
export function appendLog(w: Labels | null): void {
  const log = $("log");
  const line = state.log[state.log.length - 1];
  if (line === undefined) return;
  log.appendChild(para(line, w?.hidden_card ?? ""));
  while (log.childElementCount > state.log.length) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

export function drawPanelTitles(w: Labels): void {
  $("logtitle").textContent = w.log;
  $("log").setAttribute("aria-label", w.log);
  $("sheettitle").textContent = w.score_sheet;
  $("sheetbutton").textContent = w.score_sheet;
  $("logbutton").textContent = w.log;
  $("helpbutton").textContent = w.help;
  $("settingsbutton").textContent = w.settings;
}

function pages(review: Page[], level: "h3" | "h4"): HTMLElement[] {
  return review.map((p) => {
    const part = make("section");
    part.append(make(level, p.title), ...p.lines.map((l) => make("p", l)));
    return part;
  });
}

/** The score sheet: a row per finished deal (its number, what it was played in, each
 * side's score of the deal and, below it, the running total). */
export function drawSheet(w: Labels): void {
  const sheet = state.sheet;
  $("sheettitle").textContent = sheet?.title || w.score_sheet;
  const body = $("sheetbody");
  body.replaceChildren();
  if (!sheet || !sheet.rows.length) return;
  const table = make("table");
  table.appendChild(make("caption", sheet.unit, "sr"));
  const head = make("tr");
  head.append(make("th", ""), ...sheet.columns.map((c) => make("th", c, "num")));
  table.appendChild(make("thead")).appendChild(head);
  const rows = make("tbody");
  for (const row of sheet.rows) {
    const tr = make("tr");
    const th = make("th", row.title);
    th.scope = "row";
    const about = [row.note, row.dealer].filter((x) => x).join(" · ");
    if (about) th.append(make("br"), make("small", about));
    tr.appendChild(th);
    row.points.forEach((points, i) => {
      const td = make("td", points, "num");
      td.append(make("br"), make("small", `= ${row.totals[i] ?? ""}`));
      tr.appendChild(td);
    });
    rows.appendChild(tr);
  }
  table.appendChild(rows);
  body.appendChild(table);
}

/** The help panel: the game's rules in the words of `tricktable rules`, then the page's
 * keys. */
export function drawHelp(w: Labels): void {
  $("helptitle").textContent = w.help;
  $("helpbody").replaceChildren(...pages([...state.hello?.help ?? [],
                                          { title: w.keys_title, lines: [w.keys] }], "h3"));
  $("helpclose").textContent = w.close;
}

/** The result sheet: the deal's (or match's) result, the hands as dealt, the review on
 * demand, and the way on: the next deal, or play again (local play) at the match's end. */
export function drawResult(w: Labels, again: (() => void) | null): void {
  const result = state.result;
  const sheet = $("result");
  if (!result) { sheet.hidden = true; return; }
  $("resulttitle").textContent = result.title;
  $("resultlines").replaceChildren(...result.lines.map((l) => para(l, w.hidden_card)));
  const hands = $("resulthands");
  hands.replaceChildren();
  if (result.hands.length) hands.appendChild(handDiagram(result.hands, state.hello?.seat ?? null,
                                                         result.title));
  const review = $("review");
  review.hidden = true;
  review.replaceChildren(...pages(result.review, "h3"));
  const reviewButton = $("reviewbutton") as HTMLButtonElement;
  reviewButton.textContent = w.review;
  reviewButton.hidden = result.review.length === 0;
  reviewButton.setAttribute("aria-expanded", "false");
  const close = $("closebutton") as HTMLButtonElement;
  close.textContent = result.next ?? w.close;
  const play = $("againbutton") as HTMLButtonElement;
  play.textContent = result.again ?? w.play_again;
  play.hidden = !result.over || result.again === null || again === null;
  if (again) play.onclick = again;
  sheet.hidden = false;
  $("resulttitle").setAttribute("tabindex", "-1");
  $("resulttitle").focus();
}

export function toggleReview(): void {
  const review = $("review");
  review.hidden = !review.hidden;
  $("reviewbutton").setAttribute("aria-expanded", String(!review.hidden));
}

// -- settings ----------------------------------------------------------------------------
function choice<T extends string>(label: string, value: T, options: T[], words: Labels,
                                  set: (v: T) => void): HTMLElement {
  const field = make("label", undefined, "field");
  const select = make("select");
  for (const option of options) {
    const o = make("option", words[option as keyof Labels] ?? option);
    o.value = option;
    o.selected = option === value;
    select.appendChild(o);
  }
  select.onchange = () => set(select.value as T);
  field.append(make("span", label), select);
  return field;
}

function check(label: string, value: boolean, set: (v: boolean) => void): HTMLElement {
  const field = make("label", undefined, "field check");
  const box = make("input");
  box.type = "checkbox";
  box.checked = value;
  box.onchange = () => set(box.checked);
  field.append(box, make("span", label));
  return field;
}

export function drawSettings(w: Labels, changed: () => void): void {
  const s = state.settings;
  const save = <K extends keyof Settings>(key: K) => (value: Settings[K]) => {
    state.settings = { ...state.settings, [key]: value };
    saveSettings(state.settings);
    changed();
  };
  $("settingstitle").textContent = w.settings;
  $("settingsbody").replaceChildren(
    choice(w.card_size, s.size, SIZE_CHOICES, w, save("size")),
    check(w.four_colours, s.four, save("four")),
    check(w.sound, s.sound, save("sound")),
    check(w.vibrate, s.vibrate, save("vibrate")),
    choice(w.animation, s.speed, SPEED_CHOICES, w, save("speed")));
  $("settingsclose").textContent = w.close;
}

/** Open a dialog (help, settings) at its top: the focus on its title, not on its last
 * button (Tab goes on from there; Escape closes it). */
export function openDialog(id: string): void {
  const dialog = $(id) as HTMLDialogElement;
  if (!dialog.open) dialog.showModal();
  const title = dialog.querySelector("h2");
  if (title) {
    title.tabIndex = -1;
    title.focus();
  }
  dialog.scrollTop = 0;
}

