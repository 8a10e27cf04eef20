// Image toolkit figures: median time and output size of compress, resize and
// convert over HTTP against the bundled Worker, beside the native tools at
// the same quality (cjpeg, pngquant, cwebp, avifenc, ImageMagick's resize)
// when installed; the workerd peak RSS and the WASM heaps for the
// 24-megapixel JPEG; and the engine's live memory at band boundaries,
// measured in Node (workerd cannot report its JS heap).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { fileURLToPath } from "node:url";
import { bundleEngineEntry, LIVE_PROBE } from "./engine-bundle.mjs";

export const title = "Images";

const RUNS = 5;
const BIG_RUNS = 3;

async function download(_ctx, url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`download ${url}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const form = (bytes, name, fields = {}) => {
  const fd = new FormData();
  fd.append("file", new File([bytes], name));
  for (const [k, v] of Object.entries(fields)) fd.append(k, String(v));
  return fd;
};

/** One tool call; throws unless 200. */
async function call(ctx, path, bytes, name, fields) {
  const r = await ctx.post(path, form(bytes, name, fields));
  if (r.status !== 200) throw new Error(`${path} ${name}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  return r;
}

/**
 * Fixed photo set: corpus pictures and larger ones scaled up from them here,
 * in Node with MuPDF (smooth, photo-like). Not through our own resize: a
 * 24 MP upscale of a small JPEG holds the whole output and is refused as too
 * big for a Worker.
 */
async function photoSet(ctx) {
  const sampleJpg = readFileSync(join(ctx.corpus, "images/libvips/sample.jpg"));
  const samplePng = readFileSync(join(ctx.corpus, "images/libvips/sample.png"));
  const make = async (w, h, format, quality = 92, grain = 0) => {
    const image = new mupdf.Image(sampleJpg);
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], false);
    const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
    device.fillImage(image, [w, 0, 0, h, 0, 0], 1);
    device.close();
    if (grain) addGrain(pix, grain);
    const bytes = format === "jpeg" ? cameraJpeg(ctx, pix, quality) : pix.asPNG();
    pix.destroy();
    image.destroy();
    return new Uint8Array(bytes);
  };
  return {
    "sample.jpg 290x442": { bytes: new Uint8Array(sampleJpg), name: "sample.jpg", format: "jpeg" },
    "photo 1600x2440 jpg": { bytes: await make(1600, 2440, "jpeg"), name: "photo.jpg", format: "jpeg" },
    "photo 6000x4000 jpg (24 MP)": { bytes: await make(6000, 4000, "jpeg"), name: "big.jpg", format: "jpeg", big: true },
    // A phone's photo: the size issue #10's speed targets name (phoneTargets only).
    "photo 4000x3000 jpg (12 MP)": { bytes: await make(4000, 3000, "jpeg"), name: "phone.jpg", format: "jpeg", big: true, only: "phone" },
    "sample.png 290x442 16-bit": { bytes: new Uint8Array(samplePng), name: "sample.png", format: "png" },
    "photo 1000x1525 png": { bytes: await make(1000, 1525, "png"), name: "photo.png", format: "png" },
    "photo 1000x1525 jpg": { bytes: await make(1000, 1525, "jpeg"), name: "small.jpg", format: "jpeg" },
    // Grain as a camera leaves it: an upscaled smooth picture deflates to almost nothing and says little.
    "photo 4000x3000 png (12 MP, grain)": { bytes: await make(4000, 3000, "png", 92, 6), name: "big.png", format: "png", big: true },
  };
}

/** Deterministic grain of about +-`amount` on every sample (a fixed LCG: the same picture every run). */
function addGrain(pix, amount) {
  const px = pix.getPixels();
  let seed = 1;
  for (let i = 0; i < px.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    px[i] = Math.max(0, Math.min(255, px[i] + ((seed >> 16) % (2 * amount + 1)) - amount));
  }
}

/**
 * A camera-like JPEG (4:2:0, as phones and cameras write them) through cjpeg
 * when installed; MuPDF's own writer (4:4:4) otherwise, which sends compress
 * down its slower MozJPEG path: the row notes which one was used.
 */
function cameraJpeg(ctx, pix, quality) {
  const w = pix.getWidth();
  const h = pix.getHeight();
  const rgb = pix.getPixels();
  const ppm = join(ctx.tmp, `src-${w}x${h}.ppm`);
  writeFileSync(ppm, Buffer.concat([Buffer.from(`P6\n${w} ${h}\n255\n`), Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength)]));
  const r = spawnSync("cjpeg", ["-quality", String(quality), "-sample", "2x2", ppm], { maxBuffer: 1 << 28 });
  if (r.status === 0) return r.stdout;
  console.log("  (cjpeg not installed: bench photos are MuPDF's 4:4:4 JPEGs)");
  return pix.asJPEG(quality, false);
}

function write(ctx, name, bytes) {
  const p = join(ctx.tmp, name);
  writeFileSync(p, bytes);
  return p;
}

/** The input decoded to PPM/PNG for encoders that need raw pixels (djpeg is in libjpeg-turbo-progs). */
function rawOf(_ctx, path, format) {
  if (format !== "jpeg") return path;
  const ppm = `${path}.ppm`;
  const r = spawnSync("sh", ["-c", `djpeg "${path}" > "${ppm}"`]);
  return r.status === 0 ? ppm : null;
}

function size(path) {
  try {
    return readFileSync(path).length;
  } catch {
    return undefined;
  }
}

async function timed(ctx, runs, fn) {
  let last;
  const t = await ctx.time(async () => {
    last = await fn();
  }, runs);
  return { ...t, last };
}

async function compress(ctx, photos) {
  for (const [label, p] of Object.entries(photos)) {
    if (p.only) continue;
    const q = 70;
    const runs = p.big ? BIG_RUNS : RUNS;
    const { median_ms, last } = await timed(ctx, runs, () => call(ctx, "/api/v1/image/compress", p.bytes, p.name, { quality: q }));
    const input = write(ctx, `in-${p.name}`, p.bytes);
    let peer;
    if (p.format === "jpeg") {
      const raw = rawOf(ctx, input, "jpeg");
      const out = join(ctx.tmp, "peer.jpg");
      const n = raw && ctx.native("cjpeg", ["-quality", String(q), "-optimize", "-progressive", "-outfile", out, raw], { runs });
      if (n) peer = { peer: "cjpeg -quality 70 -optimize -progressive", peer_ms: n.median_ms, peer_bytes: size(out) };
    } else {
      const out = join(ctx.tmp, "peer.png");
      const n = ctx.native("pngquant", ["--force", "--quality", `0-${q}`, "--speed", "3", "--output", out, input], { runs, allowFailure: true });
      if (n) peer = { peer: "pngquant --quality 0-70", peer_ms: n.median_ms, peer_bytes: size(out) };
    }
    ctx.row({ tool: "image-compress", case: `${label} q${q}`, ms: median_ms, bytes: last.json.meta.output_size, note: `from ${p.bytes.length} B`, ...peer });
  }
}

async function convert(ctx, photos) {
  const p = photos["photo 1600x2440 jpg"];
  const input = write(ctx, "conv.jpg", p.bytes);
  const raw = rawOf(ctx, input, "jpeg");
  const q = 85;
  const peers = {
    webp: raw && ctx.native("cwebp", ["-quiet", "-q", String(q), "-m", "4", raw, "-o", join(ctx.tmp, "peer.webp")], { runs: RUNS }),
    png: null,
  };
  for (const target of ["webp", "png"]) {
    const { median_ms, last } = await timed(ctx, RUNS, () => call(ctx, "/api/v1/image/convert", p.bytes, p.name, { target_format: target, quality: q }));
    const n = peers[target];
    const peer = n ? { peer: "cwebp -q 85 -m 4", peer_ms: n.median_ms, peer_bytes: size(join(ctx.tmp, `peer.${target}`)) } : {};
    ctx.row({ tool: "image-convert", case: `1600x2440 jpg -> ${target} q${q}`, ms: median_ms, bytes: last.json.meta.output_size, ...peer });
  }
  // AVIF: one frame up to 2 MP, a grid of 512 px tiles above (bounded memory,
  // any size). avifenc single-threaded for a like-for-like codec comparison.
  const avifCases = [
    ["photo 1000x1525 jpg", "1000x1525 jpg -> avif (grid, just over 1.5 MP)", BIG_RUNS],
    ["photo 1600x2440 jpg", "1600x2440 jpg -> avif (grid)", BIG_RUNS],
    ["photo 6000x4000 jpg (24 MP)", "6000x4000 jpg -> avif (grid)", 1],
  ];
  for (const [label, name, runs] of avifCases) {
    const src = photos[label];
    const srcIn = write(ctx, `conv-avif-${src.name}`, src.bytes);
    const out = join(ctx.tmp, "peer.avif");
    const n = ctx.native("avifenc", ["-j", "1", "-s", "6", "-y", "420", "--min", "9", "--max", "9", srcIn, out], { runs });
    const { median_ms, last } = await timed(ctx, runs, () => call(ctx, "/api/v1/image/convert", src.bytes, src.name, { target_format: "avif", quality: q }));
    const peer = n ? { peer: "avifenc -j 1 -s 6 -y 420 (q85 = quantizer 9)", peer_ms: n.median_ms, peer_bytes: size(out) } : {};
    ctx.row({ tool: "image-convert", case: `${name} q${q}`, ms: median_ms, bytes: last.json.meta.output_size, ...peer });
  }
  // A big PNG is read in bands (never whole): to JPEG beside ImageMagick.
  const png = photos["photo 4000x3000 png (12 MP, grain)"];
  const pngIn = write(ctx, "conv-big.png", png.bytes);
  const peerJpg = join(ctx.tmp, "peer-big.jpg");
  const im = ctx.native("convert", [pngIn, "-quality", String(q), "-sampling-factor", "2x2", peerJpg], { runs: BIG_RUNS });
  const { median_ms, last } = await timed(ctx, BIG_RUNS, () => call(ctx, "/api/v1/image/convert", png.bytes, png.name, { target_format: "jpg", quality: q }));
  const imPeer = im ? { peer: "ImageMagick convert -quality 85 (4:2:0)", peer_ms: im.median_ms, peer_bytes: size(peerJpg) } : {};
  ctx.row({ tool: "image-convert", case: `4000x3000 png -> jpg q${q}`, ms: median_ms, bytes: last.json.meta.output_size, ...imPeer });
}

async function resize(ctx, photos) {
  for (const label of ["photo 1600x2440 jpg", "photo 6000x4000 jpg (24 MP)"]) {
    const p = photos[label];
    const runs = p.big ? BIG_RUNS : RUNS;
    const { median_ms, last } = await timed(ctx, runs, () => call(ctx, "/api/v1/image/resize", p.bytes, p.name, { width: 1200, quality: 85 }));
    const input = write(ctx, `rs-${p.name}`, p.bytes);
    const out = join(ctx.tmp, "peer-rs.jpg");
    const n = ctx.native("convert", [input, "-filter", "Lanczos", "-resize", "1200x", "-quality", "85", out], { runs });
    const peer = n ? { peer: "ImageMagick -filter Lanczos -resize", peer_ms: n.median_ms, peer_bytes: size(out) } : {};
    ctx.row({ tool: "image-resize", case: `${label} -> 1200 wide`, ms: median_ms, bytes: last.json.meta.output_size, ...peer });
  }
}

async function bigMemory(ctx, photos) {
  const p = photos["photo 6000x4000 jpg (24 MP)"];
  for (const [tool, path, fields] of [
    ["image-compress", "/api/v1/image/compress", { quality: 75 }],
    ["image-resize", "/api/v1/image/resize", { width: 1600 }],
  ]) {
    const { result, peak_mb } = await ctx.peak(() => call(ctx, path, p.bytes, p.name, fields));
    const heaps = (await ctx.runtime()).wasm_heaps ?? {};
    const images = Object.entries(heaps).filter(([k]) => /jpeg|png|webp|avif|resize|oxipng/.test(k));
    const note = `WASM heaps after: ${images.map(([k, v]) => `${k} ${(v / 1048576).toFixed(0)} MB`).join(", ")}`;
    ctx.row({ tool, case: "24 MP JPEG, workerd peak RSS", ms: Math.round(result.ms), bytes: result.json.meta.output_size, peak_mb, note });
  }
}

/** Live memory of the engine itself on the 24 MP JPEG, in Node with GC at each band (see src/engines/images/memory/probe.ts). */
async function engineLiveMemory(ctx, photos) {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const entry = join(ctx.tmp, "mem-entry.mjs");
  writeFileSync(
    entry,
    `import { readFileSync } from "node:fs";
import { compressImage, convertImage, resizeImage } from ${JSON.stringify(join(root, "src/engines/images/index.ts"))};
import { memoryProbe } from ${JSON.stringify(join(root, "src/engines/images/memory/probe.ts"))};
import { heapReport } from ${JSON.stringify(join(root, "src/engines/heap.ts"))};
${LIVE_PROBE}
const [src, op] = process.argv.slice(2);
const file = readFileSync(src);
const input = new Uint8Array(file.buffer, file.byteOffset, file.byteLength); // a view: a copy would leave garbage in the baseline
const base = live();
let peak = base, wasm = 0;
memoryProbe.sample = () => { peak = Math.max(peak, live()); wasm = Math.max(wasm, Object.values(heapReport()).reduce((a, b) => a + b, 0)); };
const r =
  op === "compress" ? await compressImage(input, 75)
  : op === "resize" ? await resizeImage(input, { width: 1600, quality: 85 })
  : await convertImage(input, op, 85);
console.log(JSON.stringify({ bytes: r.bytes.length, peak_mb: +((peak - base) / 1048576).toFixed(1), wasm_mb: +(wasm / 1048576).toFixed(1) }));
`,
  );
  const out = join(ctx.tmp, "mem-bundle.mjs");
  if (!(await bundleEngineEntry(entry, out))) {
    ctx.row({ tool: "engine", case: "live memory", note: "esbuild not available" });
    return;
  }
  const jpeg = write(ctx, "live.jpg", photos["photo 6000x4000 jpg (24 MP)"].bytes);
  const png = write(ctx, "live.png", photos["photo 4000x3000 png (12 MP, grain)"].bytes);
  for (const [input, kind, op] of [
    [jpeg, "24 MP JPEG", "compress"],
    [jpeg, "24 MP JPEG", "resize"],
    [jpeg, "24 MP JPEG", "avif"],
    [png, "12 MP PNG", "compress"],
    [png, "12 MP PNG", "resize"],
    [png, "12 MP PNG", "jpeg"],
  ]) {
    const tool = `engine ${op === "avif" || op === "jpeg" ? `convert to ${op}` : op}`;
    const r = spawnSync(process.execPath, ["--expose-gc", out, input, op], { encoding: "utf8" });
    const line = r.stdout.trim().split("\n").pop() ?? "";
    try {
      const m = JSON.parse(line);
      ctx.row({
        tool,
        case: `${kind}, live peak over baseline`,
        bytes: m.bytes,
        note: `JS + ArrayBuffers + WASM: ${m.peak_mb} MB, of which WASM heaps ${m.wasm_mb} MB`,
      });
    } catch {
      ctx.row({ tool, case: `${kind}, live memory`, note: `failed: ${(r.stderr || line).slice(-200)}` });
    }
  }
}

/**
 * WebP at phone size (issue #10): our banded libwebp build beside cwebp at
 * the same quality and method on the same files (the 12 MP grain PNG, the
 * 24 MP JPEG), and the 24 MP WebP read back in bands beside dwebp.
 */
async function webpAtPhoneSize(ctx, photos) {
  const q = 75;
  const png = photos["photo 4000x3000 png (12 MP, grain)"];
  const big = photos["photo 6000x4000 jpg (24 MP)"];
  let webp24;
  // cwebp reads PNG and JPEG itself: both sides decode the same file.
  for (const [p, raw, label] of [
    [png, write(ctx, "webp-12.png", png.bytes), "4000x3000 png (12 MP) -> webp"],
    [big, write(ctx, "webp-24.jpg", big.bytes), "6000x4000 jpg (24 MP) -> webp"],
  ]) {
    const out = join(ctx.tmp, "peer-phone.webp");
    const n = raw && ctx.native("cwebp", ["-quiet", "-q", String(q), "-m", "4", raw, "-o", out], { runs: BIG_RUNS });
    const { median_ms, last } = await timed(ctx, BIG_RUNS, () => call(ctx, "/api/v1/image/convert", p.bytes, p.name, { target_format: "webp", quality: q }));
    const peer = n ? { peer: `cwebp -q ${q} -m 4`, peer_ms: n.median_ms, peer_bytes: size(out) } : {};
    ctx.row({ tool: "image-convert", case: `${label} q${q}`, ms: median_ms, bytes: last.json.meta.output_size, ...peer });
    if (p === big) webp24 = await download(ctx, last.json.url);
  }
  if (!webp24) return;
  const input = write(ctx, "webp-24.webp", webp24);
  const out = join(ctx.tmp, "peer-from-webp.png");
  const n = ctx.native("dwebp", ["-quiet", input, "-o", out], { runs: BIG_RUNS });
  const { median_ms, last } = await timed(ctx, BIG_RUNS, () => call(ctx, "/api/v1/image/convert", webp24, "big.webp", { target_format: "png" }));
  const peer = n ? { peer: "dwebp (to PNG)", peer_ms: n.median_ms, peer_bytes: size(out) } : {};
  ctx.row({ tool: "image-convert", case: "6000x4000 webp (24 MP) -> png", ms: median_ms, bytes: last.json.meta.output_size, ...peer });
}

/**
 * PSNR (dB) of a decoded output against the input's own decode (djpeg), by
 * ImageMagick's compare; null when a tool is missing. Both sides are
 * validated this way: a fast wrong file would not pass for a result.
 */
function psnrAgainst(refPpm, file, format) {
  const ppm = `${file}.ppm`;
  const decode =
    format === "webp"
      ? ["dwebp", ["-quiet", file, "-ppm", "-o", ppm]]
      : format === "avif"
        ? ["avifdec", [file, `${file}.png`]]
        : ["sh", ["-c", `djpeg "${file}" > "${ppm}"`]];
  if (spawnSync(decode[0], decode[1]).status !== 0) return null;
  const decoded = format === "avif" ? `${file}.png` : ppm;
  // compare writes the metric to stderr and exits 1 when the pictures differ at all.
  const r = spawnSync("compare", ["-metric", "PSNR", refPpm, decoded, "null:"], { encoding: "utf8" });
  const db = Number.parseFloat(r.stderr);
  return Number.isFinite(db) ? db : null;
}

/**
 * Issue #10's three speed targets on a 12 MP camera JPEG (4000x3000, 4:2:0),
 * each beside the peer the issue names, in one run: compress at q75 within
 * 2x of `djpeg | cjpeg -quality 75` at equal or smaller size; WebP within
 * 1.5x of `cwebp -q 75` at equal size; AVIF within 2x of avifenc at most 5%
 * larger. Both outputs are decoded and held against the input's own decode.
 */
async function phoneTargets(ctx, photos) {
  const p = photos["photo 4000x3000 jpg (12 MP)"];
  const input = write(ctx, "phone.jpg", p.bytes);
  const ref = rawOf(ctx, input, "jpeg");
  const cases = [
    {
      tool: "image-compress",
      path: "/api/v1/image/compress",
      fields: { quality: 75 },
      format: "jpeg",
      runs: BIG_RUNS,
      target: 2,
      peer: "djpeg | cjpeg -quality 75",
      cmd: "sh",
      args: (out) => ["-c", `djpeg "${input}" | cjpeg -quality 75 > "${out}"`],
    },
    {
      tool: "image-convert",
      path: "/api/v1/image/convert",
      fields: { target_format: "webp", quality: 75 },
      format: "webp",
      runs: BIG_RUNS,
      target: 1.5,
      peer: "cwebp -q 75 -m 4",
      cmd: "cwebp",
      args: (out) => ["-quiet", "-q", "75", "-m", "4", input, "-o", out],
    },
    {
      tool: "image-convert",
      path: "/api/v1/image/convert",
      fields: { target_format: "avif", quality: 85 },
      format: "avif",
      runs: 1,
      target: 2,
      peer: "avifenc -j 1 -s 6 -y 420 (q85 = quantizer 9)",
      cmd: "avifenc",
      args: (out) => ["-j", "1", "-s", "6", "-y", "420", "--min", "9", "--max", "9", input, out],
    },
  ];
  for (const c of cases) {
    const peerOut = join(ctx.tmp, `phone-peer.${c.format}`);
    const n = ctx.native(c.cmd, c.args(peerOut), { runs: c.runs });
    const { median_ms, last } = await timed(ctx, c.runs, () => call(ctx, c.path, p.bytes, p.name, c.fields));
    const ours = write(ctx, `phone-ours.${c.format}`, await download(ctx, last.json.url));
    const peerBytes = n ? size(peerOut) : undefined;
    const notes = [`within ${c.target}x is the target`];
    if (n && Number.isFinite(n.median_ms)) notes.push(`${(median_ms / n.median_ms).toFixed(2)}x the peer's time`);
    if (peerBytes) notes.push(`${(((last.json.meta.output_size - peerBytes) / peerBytes) * 100).toFixed(1)}% size`);
    if (ref) {
      const db = (f) => psnrAgainst(ref, f, c.format)?.toFixed(2) ?? "?";
      notes.push(peerBytes ? `PSNR ${db(ours)} dB (peer ${db(peerOut)} dB)` : `PSNR ${db(ours)} dB`);
    }
    const peer = n ? { peer: c.peer, peer_ms: n.median_ms, peer_bytes: peerBytes } : {};
    ctx.row({
      tool: c.tool,
      case: `12 MP jpg -> ${c.format} q${c.fields.quality}`,
      ms: median_ms,
      bytes: last.json.meta.output_size,
      note: notes.join(", "),
      ...peer,
    });
  }
}

export async function run(ctx) {
  const photos = await photoSet(ctx);
  await compress(ctx, photos);
  await convert(ctx, photos);
  await resize(ctx, photos);
  await webpAtPhoneSize(ctx, photos);
  await phoneTargets(ctx, photos);
  await bigMemory(ctx, photos);
  await engineLiveMemory(ctx, photos);
}
