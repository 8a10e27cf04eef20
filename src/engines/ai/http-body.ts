import { AiError } from "./types";

/** Reads at most `limit` bytes of a response body; more is a failure (a model server must not fill the isolate). */
export async function readBounded(res: Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get("Content-Length") ?? "0");
  if (declared > limit) {
    await res.body?.cancel();
    throw new AiError("too_large", `The model server's answer is ${declared} bytes; at most ${limit} are read.`);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new AiError("too_large", `The model server's answer passed ${limit} bytes.`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return new TextDecoder().decode(all);
}
