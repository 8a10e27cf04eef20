import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "../../src/webhooks/secret-box";
import { generateSecret } from "../../src/webhooks/signing";

// Secrets at rest: what D1 holds cannot be used to sign without the Worker's key.

describe("sealed signing secrets", () => {
  it("round-trips, and the sealed form reveals nothing of the secret", async () => {
    const secret = generateSecret();
    const sealed = await sealSecret(env, "whk_a", secret);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(await openSecret(env, "whk_a", sealed)).toBe(secret);
    expect(await sealSecret(env, "whk_a", secret)).not.toBe(sealed); // fresh IV each time
  });

  it("does not open under another endpoint id, another key, or after tampering", async () => {
    const sealed = await sealSecret(env, "whk_a", generateSecret());
    await expect(openSecret(env, "whk_b", sealed)).rejects.toThrow();
    await expect(openSecret({ ...env, WEBHOOK_SECRET_KEY: "some-other-master-key-0123456789" }, "whk_a", sealed)).rejects.toThrow();
    const [v, iv, ct] = sealed.split(".");
    const flipped = ct.slice(0, 4) + (ct[4] === "A" ? "B" : "A") + ct.slice(5);
    await expect(openSecret(env, "whk_a", [v, iv, flipped].join("."))).rejects.toThrow();
  });

  it("falls back to JWT_SECRET when WEBHOOK_SECRET_KEY is unset, and refuses with neither", async () => {
    const noKey = { ...env, WEBHOOK_SECRET_KEY: undefined };
    const sealed = await sealSecret(noKey, "whk_c", "whsec_abc");
    expect(await openSecret(noKey, "whk_c", sealed)).toBe("whsec_abc");
    await expect(sealSecret({ ...noKey, JWT_SECRET: undefined }, "whk_c", "whsec_abc")).rejects.toMatchObject({ code: "service_unavailable" });
  });
});
