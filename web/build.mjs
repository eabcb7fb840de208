// Build the page into the Python package (bot/web/static): the page's script, its style
// sheet, the HTML shell, and the Discord Activity's handshake (activity.js, with Discord's
// Embedded App SDK; the page loads it only inside Discord's frame). Deterministic for one esbuild version, so CI can compare the
// committed files with a fresh build.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const out = "../bot/web/static";
mkdirSync(`${out}/assets`, { recursive: true });
await build({
  entryPoints: { app: "src/main.ts", activity: "src/activity.ts", style: "src/style.css" },
  outdir: `${out}/assets`,
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync("index.html", `${out}/index.html`);
