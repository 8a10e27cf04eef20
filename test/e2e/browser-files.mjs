// Files for the browser tests (/docs and /console): PDFs to upload, written
// with pdf-lib into a test's folder, and downloads Chromium finishes there.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";

/** A PDF of `pages` pages each saying "<label> <n>", written into `dir`; answers its path. */
export async function pdfWithPages(dir, pages, label) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300, 300]).drawText(`${label} ${i}`, { x: 20, y: 250, size: 14, font });
  const path = join(dir, `${label}.pdf`);
  writeFileSync(path, await doc.save());
  return path;
}

/** Waits until Chromium has finished a download into `folder`; answers its path. */
export async function downloaded(folder, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const done = readdirSync(folder).filter((f) => !f.endsWith(".crdownload"));
    if (done.length) return join(folder, done[0]);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no download finished in ${folder}`);
}
