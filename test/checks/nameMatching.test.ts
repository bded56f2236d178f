import { describe, expect, it } from 'vitest';
import { keyOf, tokenise, words } from '../../src/checks/nameKeys.js';
import { birthSpansOf, compare, contradictsBirth, downgraded, gradeOf, type Grade } from '../../src/checks/nameMatching.js';
import { aliasesOf, csvRows, indexSdn, parseSdn, SanctionsListError } from '../../src/checks/sanctionsList.js';

describe('normalising a name', () => {
  it.each([
    // given a name as typed; then its words
    ['José  MARÍA', ['jose', 'maria']],
    ['Müller-Lüdenscheidt', ['muller', 'ludenscheidt']],
    ["Shaykh Umar 'Abd", ['shaykh', 'umar', 'abd']],
    ['O’Brien, J.R.', ['obrien', 'j', 'r']],
    ['Abdul Rahman', ['abd', 'rahman']],
    ['Abdel-Aziz', ['abd', 'aziz']],
    // Letters Unicode does not decompose are folded, not dropped.
    ['Sıla Altıok', ['sila', 'altiok']],
    ['Aytən Əliyeva', ['ayten', 'eliyeva']],
    ['Łukasz Straße', ['lukasz', 'strasse']],
    // Cyrillic is romanised as the list writes it.
    ['Владимир Борисович Сенин', ['vladimir', 'borisovich', 'senin']],
    ['Юрий Щукин', ['yuriy', 'shchukin']],
    // A dotted legal form is one word; dotted initials stay initials.
    ['CECOEX, S.A.', ['cecoex', 'sa']],
    ['J.R. Miller', ['j', 'r', 'miller']],
  ])('given %j, then its words are %j', (raw, expected) => {
    expect(words(raw)).toEqual(expected);
  });

  it.each([
    // given a list's `LAST, First` form; then the tokens without particles, and how many are the family name
    ['AL-ZAWAHIRI, Dr. Ayman', ['zawahiri', 'ayman'], 1],
    ['BIN LADEN, Usama bin Muhammad', ['laden', 'usama', 'muhammad'], 1],
    ['Banco Nacional de Cuba', ['banco', 'nacional', 'cuba'], 0],
    ['ALFA-BANK JSC', ['alfa', 'bank'], 0],
    ['van der Berg', ['berg'], 0],
    ['Tamez Fajardo e Hijos', ['tamez', 'fajardo', 'hijos'], 0],
  ])('given %j, then tokens %j with %i family-name tokens', (raw, tokens, surname) => {
    const name = tokenise(raw);
    expect(name.tokens).toEqual(tokens);
    expect(name.surname).toBe(surname);
  });

  it.each([
    // given two romanisations of one name; then one key
    ['mohammed', 'muhammad'],
    ['mohamed', 'muhamad'],
    ['khalid', 'halid'],
    ['yuri', 'iouri'],
    ['yuriy', 'jurij'],
    ['sergeyev', 'sergeev'],
    ['smirnoff', 'smirnov'],
    ['smirnow', 'smirnov'],
    ['filipov', 'philipov'],
    ['hussein', 'husayn'],
    ['hossain', 'husain'],
    ['yevgeny', 'evgenii'],
    ['abdullah', 'abdulla'],
    ['zhukov', 'joukov'],
    ['djamal', 'jamal'],
    ['oualid', 'walid'],
    ['dostoyevsky', 'dostoevskiy'],
  ])('given %s and %s, then they share a key', (a, b) => {
    expect(keyOf(a)).toBe(keyOf(b));
  });

  it.each([
    // given two different names; then different keys
    ['miller', 'muller'],
    ['peter', 'potter'],
    ['ivan', 'ivanov'],
    ['karim', 'kareem0'],
  ])('given %s and %s, then their keys differ', (a, b) => {
    expect(keyOf(a)).not.toBe(keyOf(b));
  });
});

describe('grading a presented name against a listed one', () => {
  const rare = () => false;
  const grade = (presented: string, listed: string, isCommon: (key: string) => boolean = rare): Grade | null => {
    const p = tokenise(presented);
    const l = tokenise(listed);
    return gradeOf(compare(p, l), p, l, isCommon);
  };

  it.each([
    // given a presented name and a listed name; then the grade
    ['Vladimir Borisovich Senin', 'SENIN, Vladimir Borisovich', 'exact'],
    ['senin vladimir borisovich', 'SENIN, Vladimir Borisovich', 'exact'],
    ['Vladímir Borísovich Sénin', 'SENIN, Vladimir Borisovich', 'exact'],
    ['J. R. Miller', 'MILLER, James Robert', 'strong'],
    ['James Robert Miller', 'MILLER, J. R.', 'strong'],
    ['Mohammed Khalfan Gailani', 'GHAILANI, Muhammad Khalfan', 'strong'],
    ['Ahmed Omar Khalfan Ghailani', 'GHAILANI, Ahmed Khalfan', 'strong'],
    ['Ahmed Khalfan Ghailani Jr.', 'GHAILANI, Ahmed Khalfan', 'exact'],
    ['Ahmed Ghailani', 'GHAILANI, Ahmed Khalfan', 'weak'],
    ['Ahmed Khalfan', 'GHAILANI, Ahmed Khalfan', null],
    ['Ahmed Khalfan Ghailani Omar Said', 'GHAILANI, Ahmed Khalfan', 'weak'],
    ['James Miller', 'SMITH, John', null],
    // A person's one-word name is a nickname or a given name: weak at most.
    ['Godane', 'GODANE', 'weak'],
    ['Abdi Godane', 'GODANE', null],
  ])('given %j against %j, then %s', (presented, listed, expected) => {
    expect(grade(presented, listed)).toBe(expected);
  });

  it('given a one-word listed name, then only an organisation spelled the same is exact', () => {
    const p = tokenise('Hamas');
    const l = tokenise('HAMAS');
    expect(gradeOf(compare(p, l), p, l, rare, 'entity')).toBe('exact');
    const respelt = tokenise('Hammas');
    expect(gradeOf(compare(respelt, l), respelt, l, rare, 'entity')).toBe('weak');
  });

  it('given a match resting on common names alone, then it is weak at most, and a partial one is none', () => {
    const common = () => true;
    expect(grade('Muhammad Ali', 'ALI, Muhammad', common)).toBe('weak');
    expect(grade('Muhammad Hassan Ali', 'ALI, Muhammad Hassan', common)).toBe('weak');
    expect(grade('Muhammad Ali', 'ALI, Muhammad Yusuf', common)).toBeNull();
  });

  it('given a claimed birth date the list contradicts, then the grade drops one step; one it agrees with changes nothing', () => {
    const spans = birthSpansOf('DOB 14 Mar 1974; alt. DOB 1970; POB Zanzibar.');
    expect(spans).toEqual([
      { from: '1974-03-14', to: '1974-03-14' },
      { from: '1970-01-01', to: '1970-12-31' },
    ]);
    expect(contradictsBirth(spans, '1970-06-01')).toBe(false);
    expect(contradictsBirth(spans, '1985-06-01')).toBe(true);
    expect(contradictsBirth([], '1985-06-01')).toBe(false);
    expect(birthSpansOf('DOB circa 1960')).toEqual([{ from: '1959-01-01', to: '1961-12-31' }]);
    expect(birthSpansOf('DOB 1960 to 1962')).toEqual([{ from: '1960-01-01', to: '1962-12-31' }]);
    expect(downgraded('exact')).toBe('strong');
    expect(downgraded('weak')).toBeNull();
  });
});

describe('reading a list in the sdn.csv layout', () => {
  const ROWS = [
    `1,"SENIN, Vladimir Borisovich","individual","UKRAINE-EO13660",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 14 Mar 1974; nationality Russia; a.k.a. 'SENIN, V.'; a.k.a. ''THE FOX''."`,
    `2,"EXAMPLE TRADING LLC",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"f.k.a. 'OLD EXAMPLE TRADERS'."`,
    `3,"SEA SHIP","vessel","CUBA",-0- ,"CL1","Tug",-0- ,"212","Cuba",-0- ,-0- `,
  ].join('\r\n');

  it('given rows, then persons and organisations with their aliases and birth dates, and no vessel', () => {
    const parties = parseSdn(`${ROWS}\r\n\x1a`);
    expect(parties.map((p) => [p.id, p.kind, p.names])).toEqual([
      [1, 'individual', ['SENIN, Vladimir Borisovich', 'SENIN, V.', "'THE FOX'"]],
      [2, 'entity', ['EXAMPLE TRADING LLC', 'OLD EXAMPLE TRADERS']],
    ]);
    expect(parties[0]!.births).toEqual([{ from: '1974-03-14', to: '1974-03-14' }]);
  });

  it('given a list, then a name screened against it is graded, and narrowed by kind and birth date', () => {
    const list = indexSdn(parseSdn(ROWS), 'sanctions:test@0', new Set());
    expect(list.screen('Borisovich Senin')?.grade).toBe('weak');
    // The alias `SENIN, V.` is met whole, its initial by the given name.
    expect(list.screen('vladimir senin')?.grade).toBe('strong');
    expect(list.screen('Vladimir B. Senin')?.grade).toBe('strong');
    expect(list.screen('Old Example Traders')?.grade).toBe('exact');
    expect(list.screen('Old Example Traders', { kind: 'individual' })).toBeNull();
    expect(list.screen('Vladimir Borisovich Senin', { birth: '1990-01-01' })?.grade).toBe('strong');
    expect(list.screen('Sea Ship')).toBeNull();
    expect(list.screen('Jane Doe')).toBeNull();
  });

  it('given a file that is not in the layout, then the error names the row and quotes nothing', () => {
    expect(() => parseSdn('1,"SECRET NAME","individual"\n')).toThrow(SanctionsListError);
    try {
      parseSdn('1,"SECRET NAME","individual"\n');
    } catch (error) {
      expect((error as Error).message).toBe('row 1 has 3 fields, not 12');
    }
    expect(() => parseSdn('')).toThrow(/no person or organisation/);
    expect(() => csvRows('1,"open')).toThrow(/not closed/);
  });

  it('given remarks, then each kind of alias is read', () => {
    expect(aliasesOf("DOB 1966; a.k.a. 'ABU ANAS'; a.k.a. ''ABD AL-RAHMAN'; n.k.a. 'NEW NAME'.")).toEqual([
      'ABU ANAS',
      "'ABD AL-RAHMAN",
      'NEW NAME',
    ]);
  });
});
