import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { EngineError } from "../../src/engines/errors";
import { readZip, zipDirectory } from "../../src/engines/zip";
import { lyingZip } from "./zip-lies";

// The bounded ZIP reader (issue #31): what it reads equals what fflate
// reads, and what it refuses it refuses before (declared sizes) or while
// (real output) inflating, never after.

const MiB = 1024 * 1024;
const LIMITS = { maxTotalBytes: 32 * MiB };

function refusal(read: () => unknown): EngineError {
  try {
    read();
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("bounded ZIP reader", () => {
  it("reads what fflate reads: deflated, stored, empty and UTF-8-named entries; folders are left out", () => {
    const text = strToU8("hello ".repeat(5000));
    const noise = new Uint8Array(300_000).map((_, i) => (i * 2654435761) >>> 24);
    const zip = zipSync({
      "a.txt": text,
      "dir/": new Uint8Array(0),
      "b.bin": noise,
      "s.txt": [strToU8("stored"), { level: 0 }],
      empty: new Uint8Array(0),
      "café/ü.xml": strToU8("<x/>"),
    });
    const ours = readZip(zip, LIMITS);
    const theirs = unzipSync(zip);
    expect([...ours.keys()].sort()).toEqual(
      Object.keys(theirs)
        .filter((n) => !n.endsWith("/"))
        .sort(),
    );
    for (const [name, data] of ours) expect(data).toEqual(theirs[name]);
    expect(readZip(zip, LIMITS, (n) => n === "a.txt").size).toBe(1);
  });

  it("refuses a package whose declared sizes pass the cap before inflating anything", () => {
    // A small cap keeps the test fast; docx-bombs.test.ts runs the 240 MB one through the tools.
    const small = { maxTotalBytes: 4 * MiB };
    const bomb = zipSync({ "word/document.xml": strToU8("<w:document/>"), "word/media/zero.bin": new Uint8Array(10 * MiB) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(30_000);
    const started = performance.now();
    const err = refusal(() => readZip(bomb, small));
    expect(performance.now() - started).toBeLessThan(50);
    expect(err.kind).toBe("too_large");
    expect(err.message).toMatch(/expands to more than 4 MiB \(at word\/media\/zero\.bin\)/);
    // The entries the caller does not want do not count.
    expect(readZip(bomb, small, (n) => n === "word/document.xml").size).toBe(1);
  });

  it("stops an entry the moment it inflates past what its directory declares (1 KB declared, 50 MB inside)", () => {
    const liar = lyingZip(zipSync({ "x.bin": new Uint8Array(50 * MiB) }, { level: 1 }), 1024);
    expect(zipDirectory(liar, LIMITS)[0].size).toBe(1024);
    const err = refusal(() => readZip(liar, LIMITS));
    expect(err.kind).toBe("corrupt");
    expect(err.message).toMatch(/x\.bin inflates to more than the 1024 bytes its directory declares/);
  });

  it("refuses an entry that inflates short of its declared size, a size no Deflate data can reach, and other damage", () => {
    const zip = zipSync({ "x.txt": strToU8("abc".repeat(1000)) });
    expect(refusal(() => readZip(lyingZip(zip, 3001), LIMITS)).message).toMatch(/inflates to 3000 bytes, not the 3001/);
    // 40 bytes of Deflate data cannot hold 10 MB.
    const tiny = zipSync({ "y.txt": strToU8("z") });
    expect(refusal(() => zipDirectory(lyingZip(tiny, 10 * MiB), LIMITS)).message).toMatch(/more than .* bytes of Deflate data can hold/);
    expect(refusal(() => readZip(strToU8("not a zip at all"), LIMITS)).kind).toBe("corrupt");
    expect(refusal(() => readZip(zip.slice(0, zip.length - 30), LIMITS)).kind).toBe("corrupt");
    const encrypted = zip.slice();
    const view = new DataView(encrypted.buffer);
    const eocd = encrypted.length - 22;
    view.setUint16(view.getUint32(eocd + 16, true) + 8, 1, true);
    expect(refusal(() => readZip(encrypted, LIMITS)).kind).toBe("unsupported");
  });

  it("refuses more entries than the limit allows", () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 50; i++) many[`f${i}`] = new Uint8Array(1);
    expect(refusal(() => readZip(zipSync(many), { maxTotalBytes: MiB, maxEntries: 20 })).message).toMatch(/50 entries; at most 20/);
  });
});
