// The measured limits table: for every pair of formats, the largest picture
// convert accepts (up to a 24 MP phone photo, 6000 x 4000), and at that size
// the live memory of the call, measured in Node with GC at every band, beside
// the estimate memory-fit.ts admitted it with. Inputs are written from one
// grainy 24 MP photo by the engine's own roads, without the budget check
// (some inputs, e.g. a 24 MP uncompressed TIFF, are bigger than any call may
// make). Slow (a quarter of an hour): `npm run bench -- image-limits`;
// LIMITS_FROM=webp,avif measures those input formats only, LIMITS_TO=gif
// those outputs; the layouts our writers never make (EXTERNAL_LAYOUTS:
// single-frame AVIF, lossless WebP, tiled TIFF) need avifenc, cwebp and
// ImageMagick.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { bundleEngineEntry, LIVE_PROBE, ROOT } from "./engine-bundle.mjs";

export const title = "Image size limits (convert, per pair)";
export const onlyWhenNamed = true;

const FORMATS = ["jpeg", "png", "webp", "avif", "gif", "bmp", "tiff"];
/**
 * Input layouts our own writers never make, made from the PNG of the same
 * size by the native tool that does, when it is installed: single-frame AVIF
 * (our writer makes grids past 1.5 MP) by libavif's avifenc, lossless WebP by
 * cwebp, 256-pixel LZW tiles by ImageMagick. Name: the tool, its arguments
 * for (png in, file out), and the file's extension.
 */
const avifenc = (...opts) => ({ tool: "avifenc", ext: "avif", args: (i, o) => ["-j", "1", "-s", "10", ...opts, i, o] });
const EXTERNAL_LAYOUTS = {
  "avif-8bit-420": avifenc("-d", "8", "-y", "420"),
  "avif-8bit-444": avifenc("-d", "8", "-y", "444"),
  "avif-10bit-420": avifenc("-d", "10", "-y", "420"),
  "avif-10bit-444": avifenc("-d", "10", "-y", "444"),
  "webp-lossless": { tool: "cwebp", ext: "webp", args: (i, o) => ["-quiet", "-lossless", i, "-o", o] },
  "tiff-tiles": { tool: "convert", ext: "tiff", args: (i, o) => [i, "-define", "tiff:tile-geometry=256x256", "-compress", "lzw", o] },
};
const installed = (tool) => spawnSync(tool, ["-version"]).status === 0 || spawnSync(tool, ["--version"]).status === 0;
const PHONE = [6000, 4000];
const src = (p) => JSON.stringify(join(ROOT, "src/engines", p));

/** Writes the 24 MP source photo: the corpus sample scaled up by MuPDF, with camera-like grain. */
function sourcePhoto(ctx) {
  const image = new mupdf.Image(readFileSync(join(ctx.corpus, "images/libvips/sample.jpg")));
  const [w, h] = PHONE;
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], false);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
  device.fillImage(image, [w, 0, 0, h, 0, 0], 1);
  device.close();
  const px = pix.getPixels();
  let seed = 1;
  for (let i = 0; i < px.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    px[i] = Math.max(0, Math.min(255, px[i] + ((seed >> 16) % 13) - 6));
  }
  const path = join(ctx.tmp, "limits-source.jpg");
  writeFileSync(path, pix.asJPEG(92, false));
  return path;
}

const ENTRY = `import { readFileSync, writeFileSync } from "node:fs";
import { convertImage } from ${src("images/index.ts")};
import { readHeader } from ${src("images/formats/header.ts")};
import { inputFacts, sinkRoad, sourceRoad } from ${src("images/memory/paths.ts")};
import { openSource } from ${src("images/memory/sources.ts")};
import { openSink } from ${src("images/memory/sinks.ts")};
import { transcode } from ${src("images/memory/streaming.ts")};
import { memoryProbe } from ${src("images/memory/probe.ts")};
import { contiguous } from ${JSON.stringify(join(ROOT, "src/engines/bytes.ts"))};
${LIVE_PROBE}
const [mode, from, arg, out, w, h] = process.argv.slice(2);
const file = readFileSync(from);
const input = new Uint8Array(file.buffer, file.byteOffset, file.byteLength); // a view: a copy would leave garbage in the baseline
if (mode === "make") {
  // An input of w x h in format arg, written on the engine's roads without the budget check.
  const header = readHeader(input);
  const road = sourceRoad(inputFacts(input, header));
  const opened = await openSource(input, road, { width: +w, height: +h });
  const spec = { ...opened, orientation: 1, format: arg, width: +w, height: +h, quality: 90 };
  const reopen = async () => (await openSource(input, road, { width: +w, height: +h }, true)).source;
  writeFileSync(out, contiguous(await transcode(opened.source, +w, +h, openSink(sinkRoad(arg, +w * +h), spec), reopen)));
  process.exit(0);
}
const base = live();
let peak = base, planned = 0;
memoryProbe.sample = () => { peak = Math.max(peak, live()); };
memoryProbe.planned = (bytes) => { planned = bytes; };
const t = Date.now();
try {
  const r = await convertImage(input, arg, 85);
  memoryProbe.sample();
  console.log(JSON.stringify({ ok: true, ms: Date.now() - t, bytes: r.bytes.length, peak_mb: +((peak - base) / 1048576).toFixed(1), est_mb: +(planned / 1048576).toFixed(1) }));
} catch (err) {
  const largest = /fits this way is about (\\d+\\.\\d) MP/.exec(String(err?.message));
  console.log(JSON.stringify({ ok: false, largest_mp: largest ? +largest[1] : null, error: String(err?.message).slice(0, 300) }));
}
`;

function node(ctx, bundle, args) {
  const r = spawnSync(process.execPath, ["--expose-gc", bundle, ...args], { encoding: "utf8", cwd: ctx.tmp, maxBuffer: 1 << 24 });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  if (r.status !== 0 && !line.startsWith("{")) throw new Error((r.stderr || line).slice(-400));
  return line ? JSON.parse(line) : {};
}

/** Width and height of about `mp` megapixels in the phone photo's 3:2, rounded down to even sides. */
function sized(mp) {
  const h = Math.floor(Math.sqrt((mp * 1e6 * 2) / 3) / 2) * 2;
  return [Math.floor((h * 3) / 2 / 2) * 2, h];
}

export async function run(ctx) {
  const bundle = join(ctx.tmp, "limits-bundle.mjs");
  const entry = join(ctx.tmp, "limits-entry.mjs");
  writeFileSync(entry, ENTRY);
  if (!(await bundleEngineEntry(entry, bundle))) return ctx.row({ tool: "limits", case: "skipped", note: "esbuild not available" });
  const photo = sourcePhoto(ctx);
  const inputs = new Map();
  const inputOf = (format, [w, h]) => {
    const key = `${format}-${w}x${h}`;
    if (!inputs.has(key)) {
      const external = EXTERNAL_LAYOUTS[format];
      const path = join(ctx.tmp, `limits-${key}.${external?.ext ?? format}`);
      if (external) {
        const made = spawnSync(external.tool, external.args(inputOf("png", [w, h]), path), { encoding: "utf8" });
        if (made.status !== 0) throw new Error(`${external.tool}: ${made.stderr.slice(-300)}`);
      } else node(ctx, bundle, ["make", photo, format, path, String(w), String(h)]);
      inputs.set(key, path);
    }
    return inputs.get(key);
  };
  const table = [];
  // LIMITS_FROM=webp,avif re-measures some input formats only.
  const toList = process.env.LIMITS_TO ? process.env.LIMITS_TO.split(",") : FORMATS;
  const madeByPeers = Object.keys(EXTERNAL_LAYOUTS).filter((name) => installed(EXTERNAL_LAYOUTS[name].tool));
  const fromList = process.env.LIMITS_FROM ? process.env.LIMITS_FROM.split(",") : [...FORMATS, ...madeByPeers];
  for (const from of fromList) {
    for (const to of toList) {
      let size = PHONE;
      let r = node(ctx, bundle, ["convert", inputOf(from, size), to]);
      if (!r.ok && r.largest_mp) {
        // A tenth under the figure: sides are rounded to even numbers.
        size = sized(Math.min(24, r.largest_mp - 0.1));
        r = node(ctx, bundle, ["convert", inputOf(from, size), to]);
      }
      const mp = ((size[0] * size[1]) / 1e6).toFixed(1);
      table.push({ from, to, mp: r.ok ? mp : "-", peak: r.peak_mb, est: r.est_mb });
      ctx.row({
        tool: `${from} -> ${to}`,
        case: r.ok ? `largest ${mp} MP` : "refused",
        ms: r.ms,
        bytes: r.bytes,
        note: r.ok ? `live peak ${r.peak_mb} MB, estimate ${r.est_mb} MB` : r.error,
      });
    }
  }
  // The table as docs/engines/images.md prints it.
  console.log(`\n  | in \\ out | ${FORMATS.map((f) => f.toUpperCase()).join(" | ")} |`);
  for (const from of fromList) {
    const cells = FORMATS.map((to) => {
      const t = table.find((x) => x.from === from && x.to === to);
      if (!t) return "";
      return t.mp === "-" ? "-" : `${t.mp} (${t.peak}/${t.est})`;
    });
    console.log(`  | ${from.toUpperCase()} | ${cells.join(" | ")} |`);
  }
}
