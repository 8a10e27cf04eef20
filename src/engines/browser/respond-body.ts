import { HTTPRequest } from "@cloudflare/puppeteer";
import { Buffer } from "node:buffer";

// Every response a page receives now passes through the Worker
// (fetch-through.ts) and HTTPRequest.respond base64-encodes its body for
// Fetch.fulfillRequest. @cloudflare/puppeteer 1.x does that with an array of
// one string per byte joined and passed to btoa: about 8 bytes of heap per
// body byte, so one 15 MiB image would pass the Worker's 128 MB memory limit.
// Node's Buffer (nodejs_compat) encodes natively at 1.33 bytes per byte. The
// replacement keeps the library's contract ({contentLength, base64}).

type Encoded = { contentLength: number; base64: string };
const target = HTTPRequest as unknown as { getResponse?: (body: string | Uint8Array) => Encoded };

if (typeof target.getResponse === "function") {
  target.getResponse = (body) => {
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { contentLength: bytes.byteLength, base64: bytes.toString("base64") };
  };
}
