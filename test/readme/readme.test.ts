import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/platform/rules.js';

/**
 * The README is a clone's front door (issue 38): it points at nothing outside
 * the repository, every document it links is in the repository, and its rule
 * catalogue is the one the service refuses with (src/platform/rules.ts).
 */
const ROOT = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', ROOT), 'utf8');

describe('README.md', () => {
  it('points at nothing outside the repository', () => {
    expect(readme).not.toMatch(/\.\.\/shared|\]\(\.\.\//);
    for (const name of ['SPEC.md', 'DESIGN.md', 'METHODOLOGY.md']) expect(readme).not.toContain(name);
  });

  it('links only documents that exist in the repository', () => {
    const links = [...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/.test(href));
    expect(links.length).toBeGreaterThan(5);
    for (const href of links) expect(existsSync(new URL(href, ROOT)), href).toBe(true);
  });

  it("links only anchors that exist in the documents it links (a heading's slug or an element's id)", () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const anchored = [...readme.matchAll(/\]\(([^)#\s]+\.md)#([^)\s]+)\)/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(anchored.length).toBeGreaterThan(0);
    for (const [href, anchor] of anchored) {
      const text = readFileSync(new URL(href, ROOT), 'utf8');
      const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!));
      const ids = [...text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
      expect([...headings, ...ids], `${href}#${anchor}`).toContain(anchor);
    }
    // The README quotes bench/README's current figures by their rows.
    expect(anchored).toContainEqual(['bench/README.md', 'answer-quality']);
  });

  it('lists every rule of src/platform/rules.ts with its meaning', () => {
    for (const [id, meaning] of Object.entries(RULES)) expect(readme).toContain(`| ${id} | ${meaning} |`);
  });

  it('lists the same tas commands, with the same arguments, as `tas --help`', () => {
    // A command's synopsis: its line up to the first gap of two spaces (where its description starts).
    const synopses = (text: string) =>
      text
        .split('\n')
        .filter((line) => /^\s*tas [a-z]/.test(line))
        .map((line) => line.trim().split(/\s{2,}/)[0]!);
    const help = execFileSync(process.execPath, [fileURLToPath(new URL('bin/tas.js', ROOT)), '--help'], { encoding: 'utf8' });
    const section = readme.slice(readme.indexOf('## The `tas` command'));
    const block = /```\n([\s\S]*?)```/.exec(section)![1]!;
    expect(synopses(block)).toEqual(synopses(help));
    expect(synopses(help)).toEqual(
      expect.arrayContaining(['tas keys rotate-pepper', 'tas audit retain --before DATE', 'tas export revoke-key KID']),
    );
  });

  it('shows the first inquiry the service prints', async () => {
    const { FIRST_INQUIRY } = await import('../../src/edge/pages/firstInquiry.js');
    expect(readme).toContain(`-d '${JSON.stringify(FIRST_INQUIRY)}'`);
  });
});
