import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Nothing casts a machine's context (issue 49 item 6): the actor runtime is
 * typed by kind (machines/kinds.ts), so a command that names an actor's kind
 * gets that machine's context, and a cast would only hide a wrong kind. This
 * reads every source file under src/, actors/ and machines/ and counts the
 * casts: an expression ending in `context` taken `as` anything, or anything
 * taken `as` a machine's context type. XState's own declaration of a
 * machine's types (`context: {} as InquiryContext` in `setup`) declares, it
 * casts no value, and is not counted.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['src', 'actors', 'machines'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The context types the machines declare (`export interface InquiryContext`, ...). */
function machineContextTypes(): string[] {
  const names = sourceFiles(join(ROOT, 'machines')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/export (?:interface|type) (\w+Context)\b/g)].map((m) => m[1]!),
  );
  return [...new Set(names)];
}

/** The casts of a machine's context on one line of source. */
function contextCastsIn(line: string, contextTypes: readonly string[]): string[] {
  const found: string[] = [];
  // `snapshot.context as X`, `(record.snapshot.context) as X`, `context as unknown as X`.
  for (const m of line.matchAll(/\bcontext\)?\s+as\s+\w+/g)) found.push(m[0]);
  const types = contextTypes.join('|');
  if (types) {
    // Anything taken as a machine's context type, but XState's `{} as XContext` declaration in `types`.
    const cast = new RegExp(String.raw`(\{\}\s+)?\bas\s+(?:unknown\s+as\s+)?(?:${types})\b`, 'g');
    for (const m of line.matchAll(cast)) if (!m[1]) found.push(m[0]);
  }
  return found;
}

describe('casts of a machine context', () => {
  const types = machineContextTypes();

  it('the detector sees the casts it counts and passes the declarations it does not', () => {
    expect(types).toEqual(expect.arrayContaining(['InquiryContext', 'CaseContext', 'MonitorContext', 'SessionContext']));
    expect(contextCastsIn('const c = snapshot.context as CaseContext;', types)).toHaveLength(2);
    expect(contextCastsIn('const c = actor?.snapshot.context as InquiryContext | undefined;', types)).toHaveLength(2);
    expect(contextCastsIn('return (x as unknown as SessionContext).seq;', types)).toHaveLength(1);
    expect(contextCastsIn('    context: {} as MonitorContext,', types)).toEqual([]);
    expect(contextCastsIn('const c = snapshot.context;', types)).toEqual([]);
  });

  it('counts 0 under src/, actors/ and machines/', () => {
    const casts = SCANNED.flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => contextCastsIn(line, types).map((cast) => `${relative(ROOT, file)}:${i + 1}: ${cast}`)),
      ),
    );
    expect(casts).toEqual([]);
  });
});
