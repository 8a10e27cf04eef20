import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { accountWithKey, createAccount, createKey } from "../support/accounts";
import { call, pdfFile, postForm, postJson, problem, withKey, withToken } from "../support/http";
import type { Answer } from "../support/answers";

// Issue #15: the job_id a tool answers is a record the caller can look up,
// not a random string. These go through the real tools and the real lookup.

const MERGE = "/api/v1/pdf/merge/merge";

async function blankPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return doc.save();
}

async function mergeTwo(auth: Record<string, string>) {
  const files = [pdfFile(await blankPdf(1), "a.pdf"), pdfFile(await blankPdf(2), "b.pdf")];
  return postForm(MERGE, { files }, auth);
}

type Job = Answer<"getJob">;

async function job(id: string, auth: Record<string, string>): Promise<Job> {
  const res = await call(`/api/v1/jobs/${id}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Job;
}

describe("GET /api/v1/jobs/{id}", () => {
  it("finds a completed call by the job_id it answered, for its key and for the account's dashboard token", async () => {
    const acct = await accountWithKey();
    const res = await mergeTwo(withKey(acct.key));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { job_id: string; output_url: string };
    // One identifier for the call: the body's job_id is the X-Request-Id header.
    expect(res.headers.get("X-Request-Id")).toBe(body.job_id);

    const viaKey = await job(body.job_id, withKey(acct.key));
    expect(viaKey).toMatchObject({
      id: body.job_id,
      object: "job",
      tool: "merge-pdf",
      operation: "pdf.merge",
      status: "completed",
      credits_charged: 10,
      output_url: body.output_url,
      output_urls: [body.output_url],
      error_code: null,
      key_id: acct.keyId,
    });
    expect(Date.parse(viaKey.finished_at!)).toBeGreaterThanOrEqual(Date.parse(viaKey.created_at));
    expect(await job(body.job_id, withToken(acct.token))).toEqual(viaKey);
  });

  it("records a failed call as failed, refunded, with the problem's code", async () => {
    const acct = await accountWithKey();
    const broken = new File([new TextEncoder().encode("%PDF-1.7\nnot really a pdf")], "broken.pdf", { type: "application/pdf" });
    const res = await postForm(MERGE, { files: [broken, pdfFile(await blankPdf(1), "ok.pdf")] }, withKey(acct.key));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const p = await problem(res);
    const failed = await job(p.request_id, withKey(acct.key));
    expect(failed).toMatchObject({ status: "failed", credits_charged: 0, error_code: p.code, output_url: null, output_urls: [] });
    expect(failed.finished_at).not.toBeNull();
  });

  it("names compress results by the job: compression_id is the job id, batch items carry the batch's id and position", async () => {
    const acct = await createAccount({ plan: "pro" });
    const b64 = btoa(String.fromCharCode(...(await blankPdf(1))));
    const single = await postJson("/api/v1/compression/single", { file_data: b64, filename: "x.pdf" }, withToken(acct.token));
    expect(single.status).toBe(200);
    const one = (await single.json()) as { compression_id: string; download_url: string };
    expect(await job(one.compression_id, withToken(acct.token))).toMatchObject({ tool: "compress-pdf", status: "completed", output_url: one.download_url });

    const batch = await postJson(
      "/api/v1/compression/batch",
      {
        files: [
          { file_data: b64, filename: "a.pdf" },
          { file_data: b64, filename: "b.pdf" },
        ],
      },
      withToken(acct.token),
    );
    expect(batch.status).toBe(200);
    const many = (await batch.json()) as { batch_id: string; results: { compression_id: string; download_url: string }[] };
    expect(many.results.map((r) => r.compression_id)).toEqual([`${many.batch_id}-1`, `${many.batch_id}-2`]);
    const stored = await job(many.batch_id, withToken(acct.token));
    expect(stored).toMatchObject({ tool: "compress-pdf-batch", credits_charged: 40, output_url: null });
    expect(stored.output_urls).toEqual(many.results.map((r) => r.download_url));
  });

  it("answers 404 for another account's job, an unknown id and an anonymous call's job", async () => {
    const owner = await accountWithKey();
    const other = await accountWithKey();
    const res = await mergeTwo(withKey(owner.key));
    const { job_id } = (await res.json()) as { job_id: string };
    for (const auth of [withKey(other.key), withToken(other.token)]) {
      const miss = await call(`/api/v1/jobs/${job_id}`, { headers: auth });
      expect(miss.status).toBe(404);
      expect((await problem(miss)).code).toBe("not_found");
    }
    const unknown = await call(`/api/v1/jobs/${crypto.randomUUID()}`, { headers: withKey(owner.key) });
    expect((await problem(unknown)).code).toBe("not_found");

    // Anonymous calls have no account to find them with and are not stored.
    const anon = await mergeTwo({});
    expect(anon.status).toBe(200);
    const anonJob = ((await anon.json()) as { job_id: string }).job_id;
    expect((await call(`/api/v1/jobs/${anonJob}`, { headers: withKey(owner.key) })).status).toBe(404);
  });

  it("needs credentials, and a key with the read permission", async () => {
    const acct = await createAccount();
    const writeOnly = await createKey(acct.token, { permissions: ["write"] });
    const res = await mergeTwo(withKey(writeOnly.api_key));
    const { job_id } = (await res.json()) as { job_id: string };
    const denied = await call(`/api/v1/jobs/${job_id}`, { headers: withKey(writeOnly.api_key) });
    expect(denied.status).toBe(403);
    expect((await problem(denied)).code).toBe("permission_denied");
    const anonymous = await call(`/api/v1/jobs/${job_id}`);
    expect(anonymous.status).toBe(401);
  });
});
