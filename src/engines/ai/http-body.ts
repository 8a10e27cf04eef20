import { readAtMost } from "../../runtime/bytes";
import { AiError } from "./types";

/** Reads at most `limit` bytes of a response body; more is a failure (a model server must not fill the isolate). */
export async function readBounded(res: Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get("Content-Length") ?? "0");
  if (declared > limit) {
    await res.body?.cancel();
    throw new AiError("too_large", `The model server's answer is ${declared} bytes; at most ${limit} are read.`);
  }
  const body = await readAtMost(res.body, limit);
  if (body === null) throw new AiError("too_large", `The model server's answer passed ${limit} bytes.`);
  return new TextDecoder().decode(body);
}
