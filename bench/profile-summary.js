// A diagnostic, not a line of npm run bench: reads a V8 CPU profile (bench/call-profile.js with AIRLOCK_PROFILE) and
// prints, in µs per call, the busy time, the top functions by self time, and the time by part of @airlock/core (each
// sample goes to the innermost frame of core's dist, or of a package, that is on its stack; else to its own frame).
// Usage: node bench/profile-summary.js PROFILE CALLS [TOP]
import { readFileSync } from 'node:fs';

const [file, callsArg, topArg = '30'] = process.argv.slice(2);
if (file === undefined || !(Number(callsArg) > 0)) throw new Error('usage: profile-summary.js PROFILE CALLS [TOP]');
const calls = Number(callsArg);
const top = Number(topArg);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const where = (url) => url.replace(/.*node_modules\//, '').replace(/.*packages\/core\/dist\//, 'core/');
const self = new Map();
const parts = new Map();
let busy = 0;
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
for (let i = 0; i < profile.samples.length; i++) {
  const us = profile.timeDeltas[i + 1] ?? 0;
  const leaf = nodes.get(profile.samples[i]).callFrame;
  if (leaf.functionName !== '(idle)') busy += us;
  add(self, `${leaf.functionName || '(anonymous)'} ${where(leaf.url)}:${leaf.lineNumber + 1}`, us);
  let part;
  for (let id = profile.samples[i]; id !== undefined && part === undefined; id = parents.get(id)) {
    const match = nodes
      .get(id)
      .callFrame.url.match(/packages\/core\/dist\/([^/]+)|node_modules\/(@[^/]+\/[^/]+|[^/]+)/);
    if (match !== null) part = match[1] === undefined ? match[2] : `core/${match[1]}`;
  }
  add(parts, part ?? `(${leaf.url === '' ? leaf.functionName : where(leaf.url)})`, us);
}
const print = (title, map, n) => {
  console.log(title);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  for (const [key, us] of rows) console.log(`${(us / calls).toFixed(2).padStart(9)}  ${key}`);
};
console.log(`busy (not idle) µs per call: ${(busy / calls).toFixed(1)}`);
print('self time, µs per call:', self, top);
print('by part (innermost frame of core or a package), µs per call:', parts, 25);
