import { quietMupdfLog, type Mupdf } from "./loader";

/**
 * Runs synchronous MuPDF work while collecting the warnings and errors MuPDF
 * logs instead of throwing ("repairing PDF document", "bad data in a85d"...).
 * The log hook is global to the isolate; MuPDF calls are synchronous, so no
 * other request can interleave between setting and restoring it.
 */
export function withMupdfLog<T>(mupdf: Mupdf, work: () => T): { result: T; messages: string[] } {
  const messages: string[] = [];
  mupdf.setLog((message: string) => {
    if (messages.length < 200) messages.push(message);
  });
  try {
    return { result: work(), messages };
  } finally {
    quietMupdfLog(mupdf);
  }
}
