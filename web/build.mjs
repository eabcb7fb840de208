// Build the page into the Python package (bot/web/static): the page's script, its style
// sheet, the HTML shell, and the Discord Activity's handshake (activity.js, with Discord's
// Embedded App SDK; the page loads it only inside Discord's frame). Every file is also
// written precompressed beside itself (name.br, name.gz; the server sends the one the
// browser accepts, with Content-Encoding). Deterministic for one esbuild and one zlib
// version, so CI can compare the committed files with a fresh build.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

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

const files = ["index.html", ...readdirSync(`${out}/assets`)
  .filter((name) => /\.(js|css)$/.test(name)).map((name) => `assets/${name}`)];
for (const name of files) {
  const body = readFileSync(`${out}/${name}`);
  writeFileSync(`${out}/${name}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(`${out}/${name}.br`, brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  }));
}
