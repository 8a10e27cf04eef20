import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64 } from "../../src/secrets/encoding";
import { SECRET_PREFIX, generateSecret, sign, signatureHeader, verifyWebhook } from "../../src/webhooks/signing";
import { corpusText, describeWithCorpus } from "../support/corpus";

// Signer and verifier against the Standard Webhooks vectors of the shared
// corpus (positive and negative), and against the standardwebhooks package
// that subscribers use.

interface Vector {
  name: string;
  secret?: string;
  webhook_id?: string;
  webhook_timestamp?: number | string;
  body?: string;
  expected_signature?: string;
  header_signature?: string;
  expect: string;
}

let vectors: Map<string, Vector>;

const v = (name: string): Required<Pick<Vector, "secret" | "webhook_id" | "body">> & Vector => {
  const found = vectors.get(name);
  if (!found) throw new Error(`vector ${name} missing from the corpus`);
  return found as Required<Pick<Vector, "secret" | "webhook_id" | "body">> & Vector;
};

const headersOf = (x: Vector, signature: string) => ({ id: x.webhook_id!, timestamp: String(x.webhook_timestamp), signature });

describeWithCorpus("Standard Webhooks vectors", () => {
  beforeAll(async () => {
    const file = JSON.parse(await corpusText("webhooks/vectors.json")) as { vectors: Vector[] };
    vectors = new Map(file.vectors.map((v) => [v.name, v]));
  });

  for (const name of ["reference_sign", "secret_without_prefix", "derived_positive_1", "derived_positive_2"]) {
    it(`${name}: sign() gives the expected signature, and it verifies`, async () => {
      const x = v(name);
      const sig = await sign(x.secret, x.webhook_id, x.webhook_timestamp!, x.body);
      expect(sig).toBe(x.expected_signature);
      expect(await verifyWebhook(x.secret, headersOf(x, sig), x.body, Number(x.webhook_timestamp))).toEqual({ ok: true });
    });
  }

  it("multiple_signatures_one_valid: any v1 entry of a space-separated list matches", async () => {
    const x = v("multiple_signatures_one_valid");
    expect(await verifyWebhook(x.secret, headersOf(x, x.header_signature!), x.body, Number(x.webhook_timestamp))).toEqual({ ok: true });
  });

  for (const name of ["tampered_signature_last_char", "wrong_version_prefix", "body_whitespace_changed"]) {
    it(`${name}: verification fails`, async () => {
      const x = v(name);
      expect(await verifyWebhook(x.secret, headersOf(x, x.header_signature!), x.body, Number(x.webhook_timestamp))).toEqual({
        ok: false,
        reason: "no_match",
      });
    });
  }

  for (const name of ["timestamp_string_float", "timestamp_negative"]) {
    it(`${name}: sign and verify both reject the timestamp`, async () => {
      const x = v(name);
      await expect(sign(x.secret, x.webhook_id, x.webhook_timestamp!, x.body)).rejects.toThrow(/timestamp/);
      const good = await sign(x.secret, x.webhook_id, 1614265330, x.body);
      expect(await verifyWebhook(x.secret, headersOf(x, good), x.body, 1614265330)).toEqual({ ok: false, reason: "bad_timestamp" });
    });
  }

  it("missing_headers: each missing header is a verification error", async () => {
    const x = v("reference_sign");
    const full = headersOf(x, x.expected_signature!);
    for (const drop of ["id", "timestamp", "signature"] as const) {
      const h = { ...full, [drop]: null };
      expect(await verifyWebhook(x.secret, h, x.body, Number(x.webhook_timestamp))).toEqual({ ok: false, reason: "missing_headers" });
    }
  });

  it("stale_timestamp: more than 300 s either way is refused; 300 s is accepted", async () => {
    const x = v("reference_sign");
    const h = headersOf(x, x.expected_signature!);
    const ts = Number(x.webhook_timestamp);
    expect((await verifyWebhook(x.secret, h, x.body, ts + 300)).ok).toBe(true);
    expect((await verifyWebhook(x.secret, h, x.body, ts - 300)).ok).toBe(true);
    expect(await verifyWebhook(x.secret, h, x.body, ts + 301)).toEqual({ ok: false, reason: "stale" });
    expect(await verifyWebhook(x.secret, h, x.body, ts - 301)).toEqual({ ok: false, reason: "stale" });
  });

  it("empty_secret: refused", async () => {
    await expect(sign(v("empty_secret").secret, "msg_1", 1614265330, "{}")).rejects.toThrow(/empty/);
  });
});

describe("our secrets and signatures with the standardwebhooks package", () => {
  it("a generated secret is whsec_ + Base64 of 32 random bytes", () => {
    const a = generateSecret();
    expect(a.startsWith(SECRET_PREFIX)).toBe(true);
    expect(fromBase64(a.slice(SECRET_PREFIX.length))).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });

  it("the package verifies our signature and computes the same one", async () => {
    const secret = generateSecret();
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ event: "invoice.paid", event_id: "e1", timestamp: ts, data: { credits: 5, note: "héllo ✓" } });
    const ours = await sign(secret, "e1", ts, body);
    const wh = new Webhook(secret);
    expect(wh.sign("e1", new Date(ts * 1000), body)).toBe(ours);
    expect(wh.verify(body, { "webhook-id": "e1", "webhook-timestamp": String(ts), "webhook-signature": ours })).toMatchObject({ event: "invoice.paid" });
  });

  it("a two-secret header (rotation window) verifies with either secret alone, and not with a third", async () => {
    const [current, previous, other] = [generateSecret(), generateSecret(), generateSecret()];
    const ts = Math.floor(Date.now() / 1000);
    const header = await signatureHeader([current, previous], "e2", ts, "{}");
    expect(header.split(" ")).toHaveLength(2);
    const headers = { "webhook-id": "e2", "webhook-timestamp": String(ts), "webhook-signature": header };
    expect(() => new Webhook(current).verify("{}", headers)).not.toThrow();
    expect(() => new Webhook(previous).verify("{}", headers)).not.toThrow();
    expect(() => new Webhook(other).verify("{}", headers)).toThrow();
  });
});
