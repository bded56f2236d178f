import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir`, its subfolders included, whose name `keep` accepts: the architecture tests' reading list. */
export function sourceFiles(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) out.push(path);
    }
  };
  walk(dir);
  return out;
}
