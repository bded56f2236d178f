import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time by function, self
 * time by package or project file, and inclusive time of the project's own
 * functions. Usage: tsx bench/profile-summary.ts FILE.cpuprofile [TOP]
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPECIAL = new Set(['(program)', '(idle)', '(garbage collector)', '(root)']);

function where(url: string): string {
  if (!url) return '';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 14).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (path.startsWith(ROOT)) return path.slice(ROOT.length);
  if (url.startsWith('node:')) return 'node (built-in)';
  return path;
}

function label(f: CallFrame): string {
  const name = f.functionName || '(anonymous)';
  if (SPECIAL.has(name)) return name;
  const file = f.url.replace(/^file:\/\//, '').replace(ROOT, '');
  return `${name}  ${file.includes('/node_modules/') ? file.slice(file.lastIndexOf('/node_modules/') + 14) : file}:${f.lineNumber + 1}`;
}

function module(f: CallFrame): string {
  if (SPECIAL.has(f.functionName)) return f.functionName;
  return where(f.url) || '(native / V8)';
}

const isProject = (f: CallFrame) => /^(src|actors|machines|workers)\//.test(where(f.url));

export interface Summary {
  sampledMs: number;
  bySelf: [string, number][];
  byModule: [string, number][];
  /** Natives and node internals (socket writes, hashing, JSON) charged to the nearest package or project frame. */
  byModuleFolded: [string, number][];
  foldedFunctions: [string, number][];
  projectInclusive: [string, number][];
}

export function summarise(path: string, top = 25): Summary {
  const p = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  // timeDeltas[i + 1] is the time until the next sample: the time sample i stood for.
  for (let i = 0; i < p.samples.length; i += 1) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + dt);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const bySelf = new Map<string, number>();
  const byModule = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const folded = new Map<string, number>();
  const foldedFn = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (!SPECIAL.has(node.callFrame.functionName)) {
      let cur: number | undefined = id;
      while (cur !== undefined && !byId.get(cur)!.callFrame.url.startsWith('file://')) cur = parent.get(cur);
      const f = cur === undefined ? node.callFrame : byId.get(cur)!.callFrame;
      folded.set(module(f), (folded.get(module(f)) ?? 0) + us);
      foldedFn.set(label(f), (foldedFn.get(label(f)) ?? 0) + us);
    } else {
      folded.set(node.callFrame.functionName, (folded.get(node.callFrame.functionName) ?? 0) + us);
    }
    bySelf.set(label(node.callFrame), (bySelf.get(label(node.callFrame)) ?? 0) + us);
    byModule.set(module(node.callFrame), (byModule.get(module(node.callFrame)) ?? 0) + us);
    // Inclusive time: every distinct project function on the stack gets this sample's time once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (!isProject(f)) continue;
      const key = label(f);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const pct = (m: Map<string, number>, n: number): [string, number][] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => [k, Math.round((v / total) * 1000) / 10]);
  return {
    sampledMs: Math.round(total / 1000),
    bySelf: pct(bySelf, top),
    byModule: pct(byModule, 15),
    byModuleFolded: pct(folded, 15),
    foldedFunctions: pct(foldedFn, 15),
    projectInclusive: pct(inclusive, 20),
  };
}

export function formatSummary(s: Summary): string {
  const rows = (title: string, list: [string, number][]) =>
    [`${title}`, ...list.map(([k, v]) => `  ${v.toFixed(1).padStart(5)} %  ${k}`)].join('\n');
  return [
    `sampled ${s.sampledMs} ms of the service process (percentages of that)`,
    rows('self time by function:', s.bySelf),
    rows('self time by package / project file:', s.byModule),
    rows('self time by package, natives and node internals charged to their nearest package frame:', s.byModuleFolded),
    rows('self time by function, the same way:', s.foldedFunctions),
    rows('inclusive time of project functions:', s.projectInclusive),
  ].join('\n\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  console.log(formatSummary(summarise(file, Number(process.argv[3] ?? 25))));
}
