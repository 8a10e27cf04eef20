import { and, eq, sql } from "drizzle-orm";
import type { AuthenticatedPrincipal } from "../auth/principal";
import { database, schema } from "../db/client";
import type { Env } from "../env";

// The job record behind every `job_id` a tool answers with (issue #15: values
// that look real are real). A job is one tool call; its id is the request id,
// so the job, its ledger rows and its job.* events share one identifier.
// Anonymous calls have no account to look a job up with and are not stored.

export type JobStatus = "processing" | "completed" | "failed";

export interface JobStart {
  id: string;
  tool: string;
  operation: string;
  credits: number;
}

export async function startJob(env: Env, p: AuthenticatedPrincipal, job: JobStart): Promise<void> {
  await database(env.DB)
    .insert(schema.jobs)
    .values({
      id: job.id,
      accountId: p.accountId,
      tool: job.tool,
      operation: job.operation,
      status: "processing",
      credits: job.credits,
      keyId: p.kind === "key" ? p.keyId : null,
      userId: p.userId,
    });
}

export type JobEnd = { status: "completed"; outputUrls: string[] } | { status: "failed"; errorCode: string };

export async function finishJob(env: Env, id: string, end: JobEnd): Promise<void> {
  const finishedAt = new Date().toISOString();
  const values =
    end.status === "completed"
      ? { status: end.status, outputUrls: JSON.stringify(end.outputUrls), finishedAt }
      : { status: end.status, errorCode: end.errorCode, credits: 0, finishedAt };
  await database(env.DB).update(schema.jobs).set(values).where(eq(schema.jobs.id, id));
}

type JobRow = typeof schema.jobs.$inferSelect;

/** A job as the API presents it; null when the account has no such job. */
export async function loadJob(env: Env, accountId: string, id: string) {
  const [row] = await database(env.DB)
    .select()
    .from(schema.jobs)
    .where(and(eq(schema.jobs.id, id), eq(schema.jobs.accountId, accountId)));
  return row ? present(row) : null;
}

function present(j: JobRow) {
  const outputUrls = JSON.parse(j.outputUrls) as string[];
  return {
    id: j.id,
    object: "job" as const,
    tool: j.tool,
    operation: j.operation,
    status: j.status as JobStatus,
    credits_charged: j.credits,
    output_url: outputUrls.length === 1 ? outputUrls[0] : null,
    output_urls: outputUrls,
    error_code: j.errorCode,
    key_id: j.keyId,
    created_at: j.createdAt,
    finished_at: j.finishedAt,
  };
}

/** Whether a call of this account stored the output `url` names (as the tool answered it). */
export async function accountStored(env: Env, accountId: string, url: string): Promise<boolean> {
  const rows = await database(env.DB)
    .select({ id: schema.jobs.id })
    .from(schema.jobs)
    .where(and(eq(schema.jobs.accountId, accountId), sql`exists (select 1 from json_each(${schema.jobs.outputUrls}) where value = ${url})`))
    .limit(1);
  return rows.length > 0;
}
