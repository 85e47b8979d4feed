// node bench/lib/profile-stalls.mjs <dir> [min ms]: for each main-thread stall the stall recorder
// wrote (stalls-<pid>.json, see stall-recorder.mjs) of at least `min ms` (default 50), the functions
// V8's CPU profile of the same process (CPU.*.<pid>.0.*.cpuprofile) saw running during it: by
// self time, and the frames of this repository that held them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, minText = '50'] = process.argv.slice(2);
if (!dir) throw new Error('usage: node bench/lib/profile-stalls.mjs <dir> [min ms]');
const files = readdirSync(dir);
for (const stallFile of files.filter((file) => /^stalls-\d+\.json$/.test(file))) {
  const pid = stallFile.match(/\d+/)[0];
  const profileFile = files.find((file) => new RegExp(`^CPU\\..*\\.${pid}\\.0\\.\\d+\\.cpuprofile$`).test(file));
  const stalls = JSON.parse(readFileSync(path.join(dir, stallFile), 'utf8')).filter(([, ms]) => ms >= Number(minText));
  console.log(`process ${pid}: ${stalls.length} stalls of ${minText} ms or more${profileFile ? '' : ' (no main-thread profile found)'}`);
  if (!profileFile) continue;
  const profile = JSON.parse(readFileSync(path.join(dir, profileFile), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (node) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules|packages|services|gateway|workers)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
  const ours = (node) => /\/(packages|services|gateway|workers)\//.test(node.callFrame.url) && !node.callFrame.url.includes('node_modules');
  const times = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((at += delta));
  for (const [end, ms, cpuMs] of stalls) {
    const start = end - ms * 1000;
    const self = new Map();
    const held = new Map();
    for (let i = 0; i < times.length; i++) {
      if (times[i] < start || times[i] > end) continue;
      const dt = ((times[i + 1] ?? times[i]) - times[i]) / 1000;
      const node = byId.get(profile.samples[i]);
      if (node.callFrame.functionName === '(idle)') continue;
      self.set(name(node), (self.get(name(node)) ?? 0) + dt);
      const seen = new Set();
      for (let id = node.id; id !== undefined; id = parent.get(id)) {
        const frame = byId.get(id);
        if (!ours(frame) || seen.has(name(frame))) continue;
        seen.add(name(frame));
        held.set(name(frame), (held.get(name(frame)) ?? 0) + dt);
      }
    }
    const top = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([frame, t]) => `      ${t.toFixed(0).padStart(5)} ms  ${frame}`).join('\n');
    console.log(`\n  at ${((start - profile.startTime) / 1e6).toFixed(1)} s: ${ms} ms (process CPU ${cpuMs} ms)\n    self:\n${top(self)}\n    in:\n${top(held) || '      (no frame of this repository)'}`);
  }
}
