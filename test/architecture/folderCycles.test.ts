import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No two folders import each other, directly or round a longer loop (issue
 * 49). dependency-cruiser's `no-cycles` rule sees files; this test cruises
 * the same code with the same configuration and looks at the graph of
 * folders: each top-level folder of src/, machines/ and actors/ is one node,
 * every import (type-only ones too) an edge, and any strongly connected set
 * of two or more nodes a failure.
 *
 * Two kinds of file count apart from their folder, because the layers of
 * .dependency-cruiser.cjs put them elsewhere: a capability's HTTP and queue
 * glue (routes.ts, *Routes.ts, jobs.ts, which only src/root mounts and
 * which import the edge, above which they sit), and the operations table
 * (src/schemas/operations*.ts, the contract, which gathers every
 * capability's schemas.ts while src/schemas' other files are the scalars
 * those schemas are made of). docs/architecture.md says so.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The node a file belongs to in the graph of folders, or null outside the code. */
function folderOf(path: string): string | null {
  if (/^src\/schemas\/operations[A-Za-z]*\.ts$/.test(path)) return 'src/schemas (operations table)';
  const src = /^src\/([^/]+)\//.exec(path);
  if (src) {
    const glue = /^src\/[^/]+\/[A-Za-z/]*(routes|jobs|Routes)\.ts$/.test(path) && !/^src\/(root|cli)\//.test(path);
    return glue ? `src/${src[1]} (routes and jobs)` : `src/${src[1]}`;
  }
  const top = /^(machines|actors)\//.exec(path);
  return top ? top[1]! : null;
}

type Graph = Map<string, Map<string, string>>;

/** Folder to folder, each edge with one file import that makes it (for the message). */
function folderGraph(modules: readonly { source: string; dependencies: readonly { resolved: string }[] }[]): Graph {
  const graph: Graph = new Map();
  for (const m of modules) {
    const from = folderOf(m.source);
    if (from === null) continue;
    for (const d of m.dependencies) {
      const to = folderOf(d.resolved);
      if (to === null || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${m.source} -> ${d.resolved}`);
    }
  }
  return graph;
}

/** The strongly connected sets of two or more folders (Tarjan), each sorted, with the imports inside it. */
function folderCycles(graph: Graph): { folders: string[]; imports: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: { folders: string[]; imports: string[] }[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length < 2) return;
    const inside = new Set(set);
    const imports = set.flatMap((f) => [...(graph.get(f) ?? [])].filter(([to]) => inside.has(to)).map(([, why]) => why));
    out.push({ folders: set.sort(), imports: imports.sort() });
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('folder cycles', () => {
  it('finds a two-folder cycle and a longer one, and leaves a one-way graph alone', () => {
    const m = (source: string, ...to: string[]) => ({ source, dependencies: to.map((resolved) => ({ resolved })) });
    const graph = folderGraph([
      m('src/events/routes.ts', 'src/monitors/index.ts'),
      m('src/events/hub.ts', 'src/platform/log.ts'),
      m('src/monitors/runs.ts', 'src/events/index.ts', 'src/platform/log.ts'),
      m('src/events/index.ts', 'src/events/hub.ts'),
      m('src/auth/admission.ts', 'src/policies/index.ts'),
      m('src/policies/commands.ts', 'src/registry/index.ts'),
      m('src/registry/cache.ts', 'src/auth/index.ts'),
      m('src/schemas/operations.ts', 'src/tenancy/schemas.ts'),
      m('src/tenancy/schemas.ts', 'src/schemas/common.ts'),
    ]);
    expect(folderCycles(graph)).toEqual([{ folders: ['src/auth', 'src/policies', 'src/registry'], imports: expect.any(Array) }]);
    expect(folderOf('src/events/routes.ts')).toBe('src/events (routes and jobs)');
    expect(folderOf('src/root/routes.ts')).toBe('src/root');
    expect(folderOf('machines/inquiryMachine.ts')).toBe('machines');
    graph.get('src/monitors')!.set('src/events (routes and jobs)', 'x');
    graph.set('src/events (routes and jobs)', new Map([['src/monitors', 'y']]));
    expect(folderCycles(graph).map((c) => c.folders)).toContainEqual(['src/events (routes and jobs)', 'src/monitors']);
  });

  it('no folder of src/, machines/ or actors/ imports one that imports it back', { timeout: 180_000 }, () => {
    const json = execFileSync(
      join(ROOT, 'node_modules', '.bin', 'depcruise'),
      ['src', 'machines', 'actors', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd: ROOT, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
    );
    const { modules } = JSON.parse(json) as { modules: { source: string; dependencies: { resolved: string }[] }[] };
    expect(modules.length).toBeGreaterThan(100);
    expect(folderCycles(folderGraph(modules))).toEqual([]);
  });
});
