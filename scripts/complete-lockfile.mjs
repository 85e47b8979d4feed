#!/usr/bin/env node
// The package registry this project is built against mirrors only the Linux builds of packages
// that ship per-platform binaries (esbuild, rollup, buf, turbo, …). npm then leaves the other
// platforms' optional dependencies out of package-lock.json, and `npm ci` refuses the lock
// ("Missing: @rollup/rollup-darwin-arm64@ from lock file"). This puts those entries back, as a
// lock written against the full registry would have them: optional, with the platform each one
// is for, so that npm skips them on any other platform. Run after every `npm install`
// (the root postinstall script does it). It changes nothing when the lock is complete.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  ['darwin', 'darwin'], ['linux', 'linux'], ['win32', 'win32'], ['windows', 'win32'], ['freebsd', 'freebsd'],
  ['openbsd', 'openbsd'], ['netbsd', 'netbsd'], ['sunos', 'sunos'], ['android', 'android'], ['aix', 'aix'],
  ['openharmony', 'openharmony'],
];
const CPU = [
  ['arm64', 'arm64'], ['aarch64', 'arm64'], ['armv7', 'arm'], ['arm-eabi', 'arm'], ['arm-gnueabihf', 'arm'],
  ['arm-musleabihf', 'arm'], ['arm', 'arm'], ['x64', 'x64'], ['64', 'x64'], ['ia32', 'ia32'], ['x86', 'ia32'],
  ['loong64', 'loong64'], ['ppc64', 'ppc64'], ['riscv64', 'riscv64'], ['s390x', 's390x'], ['mips64el', 'mips64el'],
];

/** Platform of a per-platform package, read from its name (e.g. @esbuild/darwin-arm64). */
function platformOf(name) {
  const tail = name.split('/').pop();
  const os = OS.find(([token]) => new RegExp(`(^|-)${token}(-|$)`).test(tail))?.[1];
  const cpu = CPU.find(([token]) => new RegExp(`(^|-)${token}(-|$)`).test(tail))?.[1];
  const libc = /-musl/.test(tail) ? 'musl' : /-gnu/.test(tail) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === '' ? '' : `${location}/`;
    // npm resolves a dependency next to its dependant or in any folder above it.
    const candidates = [`${base}node_modules/${name}`];
    for (let at = location; at.includes('node_modules/'); ) {
      at = at.slice(0, at.lastIndexOf('node_modules/')).replace(/\/$/, '');
      candidates.push(`${at ? `${at}/` : ''}node_modules/${name}`);
    }
    if (candidates.some((candidate) => packages[candidate])) continue;
    const version = String(range).replace(/^[\^~=]/, '');
    if (!/^\d+\.\d+\.\d+/.test(version)) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue;
    packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev && { dev: true }),
      optional: true,
      ...(os && { os: [os] }),
      ...(cpu && { cpu: [cpu] }),
      ...(libc && { libc: [libc] }),
    };
    added++;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`package-lock.json: restored ${added} optional per-platform entries`);
}
