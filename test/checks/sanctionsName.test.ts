import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChecks, sanctionsNameCheck } from '../../src/checks/sanctionsNameCheck.js';
import { loadSanctionsList } from '../../src/checks/sanctionsList.js';
import { runOn, verdict } from './support.js';

// The shipped snapshot, as the service reads it when TAS_SANCTIONS_LIST is unset.
const list = loadSanctionsList();
const check = sanctionsNameCheck(list);

describe('sanctions_name: a name against the shipped list', () => {
  it('given the shipped list, then the check names its snapshot by file and hash', () => {
    expect(check.snapshot).toBe('sanctions:ofac-sdn-2024-05-03.csv@210ca6b4a818');
    expect(check.artifactTypes).toEqual(['NAME']);
    expect(list.parties).toBeGreaterThan(10_000);
  });

  it.each([
    // given a listed name as a person would type it; then the grade
    ['Vladimir Borisovich Senin', 'exact'],
    ['senin vladimir borisovich', 'exact'],
    ['Владимир Борисович Сенин', 'exact'],
    ['Ayman al-Zawahiri', 'exact'],
    ['Akhmed Khalfan Gailani', 'strong'],
    ['banco nacional de cuba', 'exact'],
  ])('given %j, then it weakens with grade %s, and the finding names neither list nor entry', async (name, grade) => {
    const result = await runOn(check, 'NAME', name);
    expect(verdict(result)).toBe('weakens');
    const signal = result.signals[0]!;
    expect(signal.kind).toBe(`sanctions_match_${grade}`);
    expect(signal.statement).toBe(`The name closely matches a party on a sanctions list (grade: ${grade}).`);
    expect(signal.snapshot).toBe(check.snapshot);
    // Never the list's name, never the listed name: the statement is fixed wording around the grade.
    expect(signal.statement).not.toMatch(/OFAC|SDN|Treasury|senin|zawahiri|ghailani|cuba/i);
  });

  it.each(['Sarah Thompson', 'Markus Weber', 'Jane Doe', 'Acme Widgets Ltd'])(
    'given the ordinary name %j, then the neutral answer',
    async (name) => {
      const result = await runOn(check, 'NAME', name);
      expect(verdict(result)).toBe('neutral');
      expect(result.signals[0]!.statement).toBe('The name does not closely match any party of the sanctions list it was screened against.');
    },
  );

  it('given a name the claim says is a person, then an organisation of the list does not match it', async () => {
    const asOrganisation = await runOn(check, 'NAME', 'Banco Nacional de Cuba', { claim: { organisation: 'Banco Nacional de Cuba' } });
    expect(verdict(asOrganisation)).toBe('weakens');
    const asPerson = await runOn(check, 'NAME', 'Banco Nacional de Cuba', { claim: { name: 'banco nacional de cuba' } });
    expect(verdict(asPerson)).toBe('neutral');
  });

  it('given a name with no letters, then an absence that names the check', async () => {
    const result = await runOn(check, 'NAME', '---');
    expect(verdict(result)).toBe('absence:no_data');
    expect(result.absences[0]!.reason).toMatch(/sanctions list/);
  });
});

describe('sanctions_name: an operator list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tas-sanctions-'));

  it('given a fresher file in the same layout, then the check reads it and names its snapshot', () => {
    const path = join(dir, 'sdn.csv');
    writeFileSync(path, '7,"DOE, Johnathan Quincy","individual","X",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n');
    const [made] = createChecks({ sanctionsFile: path });
    expect(made!.snapshot).toMatch(/^sanctions:sdn\.csv@[0-9a-f]{12}$/);
  });

  it('given a file that is not in the layout, then start-up fails naming the setting and the file, quoting no entry', () => {
    const path = join(dir, 'broken.csv');
    writeFileSync(path, '7,"SECRET PERSON","individual"\n');
    expect(() => createChecks({ sanctionsFile: path })).toThrow(
      /^TAS_SANCTIONS_LIST: the sanctions list .*broken\.csv is not in OFAC's sdn\.csv layout: row 1 has 3 fields, not 12$/,
    );
    expect(() => createChecks({ sanctionsFile: join(dir, 'missing.csv') })).toThrow(/cannot be read \(ENOENT\)/);
  });
});

describe('sanctions_name: the names bench stays held out', () => {
  // bench/names.ts takes its ordinary names from @faker-js/faker; a check reading it would measure a list against itself.
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(join(dir, entry.name)) : /\.(ts|js|mjs)$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );

  it('given the service source, then no module reads @faker-js/faker, and it stays a development dependency', () => {
    const readers = [...sources('src'), ...sources('machines'), ...sources('actors')].filter((file) =>
      readFileSync(file, 'utf8').includes('@faker-js/faker'),
    );
    expect(readers).toEqual([]);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies['@faker-js/faker']).toBeUndefined();
    expect(pkg.devDependencies['@faker-js/faker']).toBe('10.6.0');
  });
});
