import { FR, phraseFor } from './findings.js';
import type { Num, ReportMessages } from './types.js';

/**
 * French. A non-breaking space precedes the colon and semicolon, as French
 * typography wants; counts that would need agreement follow a colon instead.
 */

const s = (n: Num, one: string, other: string): string => `${n.text} ${n.one ? one : other}`;
const C = '\u00a0:';
const SC = '\u00a0;';

const PROVENANCE: Record<string, string> = {
  third_party: 'tierce partie',
  computed: 'calculée',
  tenant_supplied: 'fournie par vous',
  self_attested: 'auto-déclarée',
  analyst_asserted: 'affirmée par un analyste',
};

const WIDTH = {
  narrow: 'les éléments concordent et suffisent à situer le score avec précision.',
  moderate: `les éléments ne situent le score qu'approximativement${SC} davantage d'éléments le resserreraient.`,
  wide: "les éléments sont rares ou contradictoires, la valeur réelle peut donc se trouver n'importe où dans cette plage.",
};

const ABSENCE = {
  timeout: "n'ont pas répondu à temps",
  error: 'ont échoué sur une erreur',
  no_data: "n'ont trouvé aucune donnée",
  refused: 'ont été refusées',
  budget: "n'ont pas été lancées faute de budget",
  unregistered: "n'ont pas été lancées car le type n'est pas enregistré pour votre compte",
};

const HEADLINE = {
  higher: 'Confiance plutôt élevée',
  middle: 'Confiance modérée',
  lower: 'Confiance plutôt faible',
};

export const fr: ReportMessages = {
  titles: {
    summary: 'Résumé',
    evidence: 'Éléments',
    contradictions: 'Contradictions',
    gaps: "Ce qui n'a pas pu être vérifié",
    method: 'Méthode',
  },

  scoreLine: ({ score, low, high }) => `Le score est de ${score.text} sur 100, avec un intervalle de ${low.text} à ${high.text}.`,
  widthLine: ({ width, band }) => `L'intervalle a une largeur de ${s(width, 'point', 'points')}${C} ${WIDTH[band]}`,
  labelLine: ({ value, version }) => `Votre politique (version ${version.text}) attribue à ce résultat le libellé «\u00a0${value}\u00a0».`,
  noLabel: () => `Aucun libellé ne s'applique${C} aucune de vos politiques ne qualifie ce résultat.`,
  preliminary: () =>
    `Cette évaluation est provisoire${C} les éléments réunis jusqu'ici ne satisfont pas encore la règle d'arrêt, et elle sera affinée.`,

  evidenceTotals: ({ signals }) => `L'évaluation repose sur ${s(signals, 'signal', 'signaux')}.`,
  noEvidence: () => `Aucun élément n'a été admis${SC} l'intervalle est donc aussi large que la méthode le permet.`,
  byProvenance: ({ list }) => `Par provenance${C} ${list}.`,
  byTrustBand: ({ high, medium, low }) => `Par niveau de confiance${C} élevé ${high.text}, moyen ${medium.text}, faible ${low.text}.`,
  supporting: ({ count, list }) => `${s(count, 'constat renforce', 'constats renforcent')} la confiance${C} ${list}`,
  weakening: ({ count, list }) => `${s(count, 'constat affaiblit', 'constats affaiblissent')} la confiance${C} ${list}`,
  neutral: ({ count }) => `Constats neutres, comptés sans effet sur le score${C} ${count.text}.`,
  moreNotQuoted: ({ count }) => `(${count.text} autres non cités)`,
  findingsNotShown: () => 'Les constats individuels ne font pas partie de ce rapport.',
  finding: ({ kind, disposition }) => phraseFor(FR, kind, disposition),
  provenanceClass: (id) => PROVENANCE[id],

  contradictions: ({ count }) =>
    `Éléments allant en sens contraire du reste${C} ${count.text}. Les éléments contradictoires ne sont pas moyennés${C} ils élargissent l'intervalle.`,
  conflictOn: ({ type, supports, weakens }) => `Sur la valeur ${type} présentée${C} ${supports.text} pour, ${weakens.text} contre.`,

  coverage: ({ run, answered, unanswered }) =>
    `Vérifications lancées${C} ${run.text}${SC} avec réponse${C} ${answered.text}${SC} sans réponse${C} ${unanswered.text}.`,
  absence: ({ kind, type, count }) => `Vérifications sur la valeur ${type} présentée qui ${ABSENCE[kind]}${C} ${count.text}.`,
  tierGap: ({ kind, tier, count }) =>
    `Vérifications du type «\u00a0${kind}\u00a0» nécessitant le niveau ${tier}, au-delà du plafond de niveau de cette demande, et non lancées${C} ${count.text}.`,
  switchedOffGap: ({ kind, count }) =>
    `Vérifications du type «\u00a0${kind}\u00a0» désactivées dans cette installation, et donc non lancées${C} ${count.text}. Cela ne compte ni pour ni contre le sujet.`,
  failedSignals: ({ count }) => `Vérifications n'ayant rien produit d'exploitable${C} ${count.text}.`,
  gapsMeaning: () => `Ce qui n'a pas pu être vérifié ne compte ni pour ni contre le sujet${SC} cela élargit l'intervalle.`,
  noGaps: () => "Toutes les vérifications lancées ont répondu, et le plafond de niveau n'a rien laissé hors d'atteinte.",

  method: ({ version, asOf }) =>
    `Méthodologie version ${version}, éléments à jour au ${asOf}. Le score et l'intervalle proviennent d'une seule fonction publiée appliquée aux éléments admis${SC} aucune personne ne les a fixés ni ajustés.`,
  methodLabel: () => 'Les libellés proviennent de votre propre politique publiée et ne modifient jamais le score.',

  shareHeadline: ({ band, preliminary }) => `${HEADLINE[band]}${preliminary ? ' (provisoire)' : ''}`,
  shareBody: ({ score, low, high, asOf }) => `Score ${score.text} sur 100, intervalle de ${low.text} à ${high.text}, au ${asOf}.`,
  shareLabel: ({ value }) => `Libellé${C} ${value}.`,
};
