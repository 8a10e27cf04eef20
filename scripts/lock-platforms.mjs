// The npm registry reachable from our build machines does not serve the
// macOS and Windows builds of workerd, so `npm install` here leaves them out
// of package-lock.json, and `npm ci` then refuses the lock as out of sync.
// This adds those optional entries (version, os, cpu; no integrity, since
// their tarballs cannot be fetched here) next to each workerd-linux-64 entry.
// Linux installs skip them as foreign platforms; a Mac or Windows machine
// resolves them from its registry. Idempotent: run it after `npm install`.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const lockPath = join(dirname(fileURLToPath(import.meta.url)), "..", "package-lock.json");
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const platforms = {
  "workerd-darwin-64": { os: ["darwin"], cpu: ["x64"] },
  "workerd-darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "workerd-windows-64": { os: ["win32"], cpu: ["x64"] },
};

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!path.endsWith("@cloudflare/workerd-linux-64")) continue;
  const base = path.slice(0, -"workerd-linux-64".length);
  for (const [name, target] of Object.entries(platforms)) {
    if (lock.packages[base + name]) continue;
    const { integrity: _unknown, ...rest } = entry;
    lock.packages[base + name] = { ...rest, ...target };
    added++;
  }
}
if (added) {
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`lock-platforms: ${added} optional workerd platform entries added`);
