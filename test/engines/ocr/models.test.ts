import { describe, expect, it } from "vitest";
import { MODEL_CACHE_BYTES, ModelMissing, modelBytes, modelCacheStats } from "../../../src/engines/ocr/models";
import { modelKey, OCR_LANGUAGES } from "../../../src/engines/ocr/languages";

// Where the OCR Worker finds a model (src/engines/ocr/languages.ts): bundled
// ones without I/O, R2 ones read once and kept in a small LRU of bytes.

/** A stand-in for the OCR_MODELS bucket that counts its reads. */
function bucket(objects: Record<string, number>) {
  const reads: string[] = [];
  const stub = {
    async get(key: string) {
      reads.push(key);
      const size = objects[key];
      return size === undefined ? null : { arrayBuffer: async () => new ArrayBuffer(size) };
    },
  };
  return { bucket: stub as unknown as R2Bucket, reads };
}

describe("OCR models", () => {
  it("bundles eng, deu, fra, ita and por, and reads none of them from R2", async () => {
    const { bucket: b, reads } = bucket({});
    for (const [lang, { home }] of Object.entries(OCR_LANGUAGES)) {
      if (home !== "bundle") continue;
      expect((await modelBytes(lang as keyof typeof OCR_LANGUAGES, b)).byteLength).toBeGreaterThan(1_000_000);
    }
    expect(reads).toEqual([]);
  });

  it("reads an R2 model once, keeps it, and evicts the least recently used past the cache's size", async () => {
    const { bucket: b, reads } = bucket({ [modelKey("spa")]: 4 * 1024 * 1024, [modelKey("nld")]: MODEL_CACHE_BYTES - 1024 * 1024 });
    await modelBytes("spa", b);
    await modelBytes("spa", b);
    expect(reads).toEqual([modelKey("spa")]);
    await modelBytes("nld", b);
    expect(modelCacheStats().cached).toEqual(["nld"]);
    expect(modelCacheStats().cached_bytes).toBeLessThanOrEqual(MODEL_CACHE_BYTES);
    await modelBytes("spa", b);
    expect(reads).toEqual([modelKey("spa"), modelKey("nld"), modelKey("spa")]);
  });

  it("a model that is neither bundled nor seeded is ModelMissing (the OCR Worker's 503)", async () => {
    await expect(modelBytes("nld", bucket({}).bucket)).rejects.toBeInstanceOf(ModelMissing);
    await expect(modelBytes("nld", undefined)).rejects.toBeInstanceOf(ModelMissing);
  });
});
