import { zipSync } from "fflate";

export interface NamedFile {
  name: string;
  data: Uint8Array;
}

/**
 * Stores files in a ZIP without recompressing them (PDF and image payloads
 * are already compressed; deflating again costs time for nothing). Duplicate
 * names get a numeric suffix so no part is lost.
 */
export function zipFiles(files: NamedFile[]): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const f of files) entries[uniqueName(entries, f.name)] = [f.data, { level: 0 }];
  return zipSync(entries);
}

function uniqueName(taken: Record<string, unknown>, name: string): string {
  if (!(name in taken)) return name;
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let i = 2; ; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!(candidate in taken)) return candidate;
  }
}
