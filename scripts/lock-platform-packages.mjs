#!/usr/bin/env node
// npm records an optional, platform-specific dependency in package-lock.json only when the
// registry it installs from serves that package. Where one is missing, `npm ci` refuses the
// lockfile as out of sync. This adds the missing entries with their os/cpu, so every
// platform skips the ones that are not its own. Run it after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORM = /-(darwin|linux|win32|freebsd)-(x64|arm64|arm|ia32)(-gnu|-musl|-msvc)?$/;
const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
let added = 0;
for (const [where, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const match = PLATFORM.exec(name);
    if (lock.packages[key] || lock.packages[`${where}/${key}`] || !match) continue;
    lock.packages[key] = { version, cpu: [match[2]], license: entry.license, optional: true, os: [match[1]] };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`platform entries added: ${added}`);
