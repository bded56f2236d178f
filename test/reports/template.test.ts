import { describe, expect, it } from 'vitest';
import { builtInCatalogue } from '../../src/checks/catalogue.js';
import { DE, ES, FR, PT, phraseFor } from '../../src/reports/locales/findings.js';
import { negotiateLang } from '../../src/reports/locales/index.js';
import { renderShareCard, renderTemplateReport } from '../../src/reports/template.js';
import { Report, ShareCardOut } from '../../src/assessment/schemas.js';
import { AS_OF, assessment, EMAIL, expectNoPresentedValue, findings, NOW } from './fixtures.js';

const keys = (r: Report): string[] => r.sections.map((s) => s.key);
const body = (r: Report, key: string): string => r.sections.find((s) => s.key === key)?.body ?? '';

describe('renderTemplateReport: shape', () => {
  it('given an assessment and findings, then the report parses with Report and names the template', () => {
    const report = renderTemplateReport({ assessment: assessment(), findings: findings(), now: NOW });
    expect(() => Report.parse(report)).not.toThrow();
    expect(report).toMatchObject({ rendered_by: 'template', prompt_version: null, lang: 'en', generated_at: NOW.toISOString() });
    expect(keys(report)).toEqual(['summary', 'evidence', 'contradictions', 'gaps', 'method']);
  });

  it('given no contradictions, then there is no contradictions section', () => {
    const a = assessment({ evidence: { ...assessment().evidence, contradictions: 0 } });
    expect(keys(renderTemplateReport({ assessment: a, findings: findings(), now: NOW }))).toEqual([
      'summary',
      'evidence',
      'gaps',
      'method',
    ]);
  });

  it('given no findings (the tenant may not see them), then it speaks from counts and quotes nothing', () => {
    const report = renderTemplateReport({ assessment: assessment(), now: NOW });
    expect(() => Report.parse(report)).not.toThrow();
    expect(report.sections.every((s) => s.finding_ids.length === 0)).toBe(true);
    expect(expectNoPresentedValue(JSON.stringify(report))).toEqual([]);
    expect(body(report, 'evidence')).toContain('not part of this report');
    expect(body(report, 'gaps')).toContain('2 checks produced nothing usable');
  });

  it('given no evidence at all, then it says so and still parses', () => {
    const empty = assessment({
      score: 50,
      low: 5,
      high: 95,
      label: null,
      evidence: {
        ...assessment().evidence,
        signals: 0,
        failed_signals: 0,
        contradictions: 0,
        by_provenance_class: {},
        by_trust_band: { high: 0, medium: 0, low: 0 },
      },
    });
    const f = findings({
      findings: [],
      absences: [],
      coverage: { tier_ceiling: 't2', checks_run: 0, checks_answered: 0, checks_unanswered: 0 },
    });
    const report = renderTemplateReport({ assessment: empty, findings: f, now: NOW });
    expect(() => Report.parse(report)).not.toThrow();
    expect(body(report, 'evidence')).toContain('No evidence was admitted');
    expect(body(report, 'summary')).toContain('No label applies');
    expect(body(report, 'gaps')).toContain('Every check that ran answered');
  });
});

describe('renderTemplateReport: what each section says', () => {
  const report = renderTemplateReport({ assessment: assessment(), findings: findings(), now: NOW });

  it('summary: score, interval, width meaning and label', () => {
    const text = body(report, 'summary');
    expect(text).toContain('The score is 72 out of 100, with an interval from 58 to 83.');
    expect(text).toContain('25 points wide: the evidence places the score only roughly');
    expect(text).toContain('Your policy (version 3) labels this result “standard”.');
    expect(text).not.toContain('preliminary');
  });

  it('evidence: counts by provenance and band, supporting vs weakening by finding_ids', () => {
    const evidence = report.sections.find((s) => s.key === 'evidence');
    expect(evidence?.finding_ids).toEqual(['f-1', 'f-2', 'f-3', 'f-4']);
    expect(evidence?.body).toContain('By provenance: computed (3) and third-party (2).');
    expect(evidence?.body).toContain('By trust band: 3 high, 1 medium, 1 low.');
    expect(evidence?.body).toContain('3 findings support trust');
    expect(evidence?.body).toContain('1 finding weakens trust: The domain offers free mailboxes.');
    expect(evidence?.body).toContain('1 finding is neutral');
  });

  it('contradictions: grouped by artifact type, referencing both sides', () => {
    const c = report.sections.find((s) => s.key === 'contradictions');
    expect(c?.body).toContain('On the presented EMAIL: 2 supporting, 1 weakening.');
    expect(c?.finding_ids).toEqual(['f-1', 'f-2', 'f-4']);
  });

  it('gaps: coverage, absences by kind and type, tier gaps, what it means', () => {
    const text = body(report, 'gaps');
    expect(text).toContain('Of 7 checks run, 5 answered and 2 did not.');
    expect(text).toContain('1 check on the presented PHONE did not answer in time.');
    expect(text).toContain('1 check on the presented EMAIL found no data.');
    expect(text).toContain('of the kind “domain age” would need tier t2');
    expect(text).toContain('counts neither for nor against');
    expect(text).not.toContain(EMAIL);
  });

  it('method: version, as_of, one published function, no person', () => {
    const text = body(report, 'method');
    expect(text).toContain('Methodology version m-2025.1');
    expect(text).toContain('January 1, 2025');
    expect(text).toContain('one published function');
    expect(text).toContain('no person set or adjusted them');
  });

  it('every finding_id referenced exists in the findings', () => {
    const known = new Set(findings().findings?.map((x) => x.finding_id));
    expect(report.sections.flatMap((s) => s.finding_ids).every((id) => known.has(id))).toBe(true);
  });
});

describe('renderTemplateReport: preliminary', () => {
  it('given a preliminary assessment, then the summary and the share card say so', () => {
    const report = renderTemplateReport({ assessment: assessment({ preliminary: true }), findings: findings(), now: NOW });
    expect(body(report, 'summary')).toContain('This assessment is preliminary');
    expect(report.share.headline).toContain('(preliminary)');
  });

  it.each([
    ['es', 'preliminar'],
    ['fr', 'provisoire'],
    ['pt', 'preliminar'],
    ['de', 'vorläufig'],
  ])('given %s, then the preliminary caveat is in that language', (lang, word) => {
    const report = renderTemplateReport({ assessment: assessment({ preliminary: true }), findings: findings(), lang, now: NOW });
    expect(body(report, 'summary')).toContain(word);
  });
});

describe('languages', () => {
  it.each([
    [undefined, 'en'],
    ['en', 'en'],
    ['en-GB', 'en'],
    ['es', 'es'],
    ['fr', 'fr'],
    ['fr-CA', 'fr'],
    ['pt-BR', 'pt'],
    ['PT-br', 'pt'],
    ['de-AT', 'de'],
    ['xx', 'en'],
    ['zh-Hant-TW', 'en'],
    ['', 'en'],
  ])('given render_lang %s, then the report is written in %s', (asked, used) => {
    expect(negotiateLang(asked)).toBe(used);
    const report = renderTemplateReport({ assessment: assessment(), findings: findings(), lang: asked, now: NOW });
    expect(report.lang).toBe(used);
    expect(() => Report.parse(report)).not.toThrow();
  });

  it.each([
    ['en', 'Summary', 'The score is 72'],
    ['es', 'Resumen', 'La puntuación es 72'],
    ['fr', 'Résumé', 'Le score est de 72'],
    ['pt', 'Resumo', 'A pontuação é 72'],
    ['de', 'Zusammenfassung', 'Der Wert beträgt 72'],
  ])('given %s, then titles and text are in that language', (lang, title, text) => {
    const report = renderTemplateReport({ assessment: assessment(), findings: findings(), lang, now: NOW });
    expect(report.sections[0]?.title).toBe(title);
    expect(report.sections[0]?.body).toContain(text);
  });

  it('given large counts, then numbers are formatted with Intl for the language', () => {
    const big = assessment({ evidence: { ...assessment().evidence, signals: 12345 } });
    const text = (lang: string): string =>
      body(renderTemplateReport({ assessment: big, findings: findings(), lang, now: NOW }), 'evidence');
    expect(text('en')).toContain('12,345 signals');
    expect(text('de')).toContain('12.345 Signale');
    expect(text('fr')).toContain('12\u202f345 signaux');
    expect(text('es')).toContain('12.345 señales');
  });

  it('given fr, then the as_of is a French date', () => {
    expect(body(renderTemplateReport({ assessment: assessment(), findings: findings(), lang: 'fr', now: NOW }), 'method')).toContain(
      '1 janvier 2025',
    );
  });
});

describe('share card', () => {
  it.each(['en', 'es', 'fr', 'pt', 'de'])('given %s, then the card parses and carries no presented value, statement or id', (lang) => {
    const report = renderTemplateReport({ assessment: assessment(), findings: findings(), lang, now: NOW });
    const card = ShareCardOut.parse(report.share);
    const text = JSON.stringify(card);
    expect(expectNoPresentedValue(text)).toEqual([]);
    for (const f of findings().findings ?? []) {
      expect(text).not.toContain(f.statement);
      expect(text).not.toContain(f.finding_id);
    }
    for (const id of [assessment().assessment_id, assessment().inquiry_id, assessment().entity_id ?? 'none'])
      expect(text).not.toContain(id);
  });

  it('holds the score, interval, label and as_of, with a headline from the score band', () => {
    expect(renderShareCard(assessment())).toEqual({
      headline: 'Higher trust indicated',
      body: 'Score 72 of 100, interval 58 to 83, as of January 1, 2025 at 12:00:00 PM UTC. Label: standard.',
      score: 72,
      low: 58,
      high: 83,
      label: { value: 'standard', policy_version: 3 },
      as_of: AS_OF,
    });
    expect(renderShareCard(assessment({ score: 50 })).headline).toBe('Moderate trust indicated');
    expect(renderShareCard(assessment({ score: 12, low: 3, high: 30, label: null })).headline).toBe('Lower trust indicated');
    expect(renderShareCard(assessment({ label: null })).label).toBeNull();
  });
});

describe('finding sentences in every report language (issue 18)', () => {
  const TABLES = { de: DE, es: ES, fr: FR, pt: PT };

  it('given every scored kind the checks declare, then each language other than English has its own sentence, and no sentence names a kind no check declares', async () => {
    const declared = new Set(
      (await builtInCatalogue()).flatMap((row) =>
        row.answers.filter((a) => a.disposition !== 'neutral').map((a) => `${a.kind}:${a.disposition}`),
      ),
    );
    expect(declared.size).toBeGreaterThan(40);
    for (const [lang, table] of Object.entries(TABLES)) {
      const keys = Object.keys(table).filter((k) => !k.startsWith('generic_'));
      expect([lang, [...declared].filter((k) => !keys.includes(k))]).toEqual([lang, []]);
      expect([lang, keys.filter((k) => !declared.has(k))]).toEqual([lang, []]);
    }
  });

  it('given German, then the findings are said in German and no English statement is quoted; repeated kinds are said once with their count', () => {
    const base = findings().findings!;
    const twice = findings({
      findings: [...base, { ...base[1]!, finding_id: 'f-6', statement: 'The mailbox bob is not a role account.' }],
    });
    const german = body(renderTemplateReport({ assessment: assessment(), findings: twice, lang: 'de', now: NOW }), 'evidence');
    expect(german).toContain(DE['established_site:supports']!);
    expect(german).toContain(`${DE['role_account:supports'] ?? DE.generic_supports} (×2)`);
    for (const f of twice.findings ?? []) expect(german).not.toContain(f.statement.replace(/\.$/, ''));
    const english = body(renderTemplateReport({ assessment: assessment(), findings: twice, lang: 'en', now: NOW }), 'evidence');
    expect(english).toContain('The mailbox bob is not a role account');
  });

  it('given a kind no table knows (an operator provider), then the language says the generic sentence for its direction', () => {
    expect(phraseFor(FR, 'acme_risk', 'weakens')).toBe(FR.generic_weakens);
    expect(phraseFor(PT, 'acme_risk', 'supports')).toBe(PT.generic_supports);
  });
});
