import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds src/checks/data/hostingAsns.json, the networks the IP check treats
 * as hosting, data-centre or VPN (not "eyeball" networks people connect
 * from), from the maintained X4BNet/lists_vpn repository (MIT,
 * https://github.com/X4BNet/lists_vpn): its input/datacenter/ASN.txt and
 * input/vpn/ASN.txt. No npm package carries this list, so it is built here
 * and the output names the commit and date it came from.
 *
 *   npm run data:hosting -- <path to a clone (or bare mirror) of X4BNet/lists_vpn>
 */
const source = process.argv[2];
if (!source) {
  console.error('usage: npm run data:hosting -- <path to a clone or bare mirror of X4BNet/lists_vpn>');
  process.exit(2);
}

function git(...args: string[]): string {
  return execFileSync('git', ['-C', source!, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** A file at HEAD: from the work tree when there is one, else from the repository itself. */
function fileAtHead(path: string): string {
  const onDisk = join(source!, path);
  return existsSync(onDisk) ? readFileSync(onDisk, 'utf8') : git('show', `HEAD:${path}`);
}

function asns(text: string): number[] {
  const found = new Set<number>();
  for (const line of text.split('\n')) {
    const m = /^\s*AS(\d+)\b/i.exec(line);
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

const [commit, date] = git('log', '-1', '--format=%H %cs').trim().split(' ');
const out = {
  source: 'X4BNet/lists_vpn (https://github.com/X4BNet/lists_vpn): input/datacenter/ASN.txt and input/vpn/ASN.txt',
  licence: 'MIT',
  commit,
  commit_date: date,
  generated_by: 'scripts/build-hosting-asns.ts',
  datacenter: asns(fileAtHead('input/datacenter/ASN.txt')),
  vpn: asns(fileAtHead('input/vpn/ASN.txt')),
};
writeFileSync(new URL('../src/checks/data/hostingAsns.json', import.meta.url), `${JSON.stringify(out)}\n`);
console.log(`wrote ${out.datacenter.length} data-centre and ${out.vpn.length} VPN networks from ${commit} (${date})`);
