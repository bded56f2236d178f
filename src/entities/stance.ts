/**
 * Which way a piece of testimony points when the tenant did not say
 * (`stance` absent on ObservationIn). The rule is deliberately small and
 * written down (docs/design-decisions.md, "Observation stance"):
 *
 * - a summary that names an adverse act (chargeback, fraud, stolen, scam,
 *   impersonation, phishing, mule, laundering, counterfeit, account takeover,
 *   in each language the reports are written in: en, de, es, fr, pt) weakens;
 * - unless a negation (no, not, never, without, kein, nicht, sin, sans, pas,
 *   sem, não, ...) stands within the three words before it: "no chargeback
 *   in three years" is not an accusation;
 * - anything else is neutral. Praise is never derived from free text: a
 *   fraudster writes "good customer" as easily as anyone, so supporting
 *   testimony must say so with `stance: supports`.
 *
 * Words are compared by stem (lower-cased, diacritics kept), so "fraudulent",
 * "Betrüger" and "impersonated" match. Linear in the summary's length.
 */
export type Stance = 'supports' | 'weakens' | 'neutral';

// Stems of words that name an adverse act; a word matches when it starts with one.
const ADVERSE_STEMS: readonly string[] = [
  // English
  'chargeback',
  'fraud',
  'stolen',
  'steal',
  'scam',
  'impersonat',
  'phish',
  'mule',
  'launder',
  'counterfeit',
  'forged',
  'forgery',
  'takeover',
  'hijack',
  'spoof',
  'extort',
  'embezzl',
  'skimm',
  // German
  'betrug',
  'betrüg',
  'gestohl',
  'diebstahl',
  'rückbuchung',
  'gefälscht',
  'fälschung',
  'geldwäsch',
  'identitätsdiebstahl',
  'erpress',
  // Spanish
  'fraude',
  'fraudulent',
  'robad',
  'estafa',
  'suplant',
  'contracargo',
  'falsificad',
  'blanqueo',
  'extorsi',
  // French
  'escroqu',
  'arnaqu',
  'volé',
  'usurp',
  'rétrofactur',
  'contrefa',
  'blanchi',
  'falsifi',
  // Portuguese
  'roubad',
  'golpe',
  'golpista',
  'estorno',
  'lavagem',
  'falsifica',
  'extorsão',
];

// A negation within this many words before an adverse word cancels it.
const NEGATION_REACH = 3;
const NEGATIONS: ReadonlySet<string> = new Set([
  'no',
  'not',
  'never',
  'without',
  'none',
  'nor',
  "n't",
  'cleared',
  'unfounded',
  'kein',
  'keine',
  'keinen',
  'keiner',
  'nicht',
  'nie',
  'niemals',
  'ohne',
  'sin',
  'nunca',
  'ningún',
  'ninguna',
  'ni',
  'sans',
  'pas',
  'jamais',
  'aucun',
  'aucune',
  'sem',
  'não',
  'nao',
  'nenhum',
  'nenhuma',
]);

function words(text: string): string[] {
  return text
    .toLocaleLowerCase('und')
    .split(/[^\p{L}\p{M}']+/u)
    .filter((w) => w.length > 0);
}

function isAdverse(word: string): boolean {
  return ADVERSE_STEMS.some((stem) => word.startsWith(stem));
}

function isNegated(tokens: readonly string[], at: number): boolean {
  for (let i = Math.max(0, at - NEGATION_REACH); i < at; i++) {
    const token = tokens[i]!;
    if (NEGATIONS.has(token) || token.endsWith("n't")) return true;
  }
  return false;
}

/** The stance a summary implies when none was given: weakens on an un-negated adverse word, else neutral. */
export function deriveStance(summary: string): Stance {
  const tokens = words(summary);
  return tokens.some((word, i) => isAdverse(word) && !isNegated(tokens, i)) ? 'weakens' : 'neutral';
}

/** The stance to store: the tenant's when given, the derived one otherwise. */
export function stanceOf(given: Stance | undefined, summary: string): Stance {
  return given ?? deriveStance(summary);
}
