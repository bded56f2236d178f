import { DE, phraseFor } from './findings.js';
import type { Num, ReportMessages } from './types.js';

/** German. Counts that would need agreement follow a colon instead. */

const s = (n: Num, one: string, other: string): string => `${n.text} ${n.one ? one : other}`;

const PROVENANCE: Record<string, string> = {
  third_party: 'Dritte',
  computed: 'berechnet',
  tenant_supplied: 'von Ihnen geliefert',
  self_attested: 'selbst erklärt',
  analyst_asserted: 'von Analysten festgestellt',
};

const WIDTH = {
  narrow: 'Die Belege stimmen überein und reichen aus, um den Wert genau einzuordnen.',
  moderate: 'Die Belege ordnen den Wert nur grob ein; weitere Belege würden das Intervall verengen.',
  wide: 'Die Belege sind dünn oder widersprüchlich, der tatsächliche Wert kann also überall in diesem Bereich liegen.',
};

const ABSENCE = {
  timeout: 'nicht rechtzeitig antworteten',
  error: 'mit einem Fehler scheiterten',
  no_data: 'keine Daten fanden',
  refused: 'abgelehnt wurden',
  budget: 'wegen erschöpften Budgets nicht liefen',
  unregistered: 'nicht liefen, weil der Typ für Ihr Konto nicht registriert ist',
};

const HEADLINE = {
  higher: 'Eher hohes Vertrauen angezeigt',
  middle: 'Mittleres Vertrauen angezeigt',
  lower: 'Eher niedriges Vertrauen angezeigt',
};

export const de: ReportMessages = {
  titles: {
    summary: 'Zusammenfassung',
    evidence: 'Belege',
    contradictions: 'Widersprüche',
    gaps: 'Was nicht geprüft werden konnte',
    method: 'Methode',
  },

  scoreLine: ({ score, low, high }) => `Der Wert beträgt ${score.text} von 100, mit einem Intervall von ${low.text} bis ${high.text}.`,
  widthLine: ({ width, band }) => `Das Intervall ist ${s(width, 'Punkt', 'Punkte')} breit: ${WIDTH[band]}`,
  labelLine: ({ value, version }) => `Ihre Richtlinie (Version ${version.text}) kennzeichnet dieses Ergebnis als „${value}“.`,
  noLabel: () => 'Keine Kennzeichnung: Keine Ihrer Richtlinien kennzeichnet dieses Ergebnis.',
  preliminary: () =>
    'Diese Bewertung ist vorläufig: Die bisher gesammelten Belege erfüllen die Abbruchregel noch nicht; sie wird weiter verfeinert.',

  evidenceTotals: ({ signals }) => `Die Bewertung stützt sich auf ${s(signals, 'Signal', 'Signale')}.`,
  noEvidence: () => 'Es wurden keine Belege zugelassen; das Intervall ist daher so breit, wie die Methode es zulässt.',
  byProvenance: ({ list }) => `Nach Herkunft: ${list}.`,
  byTrustBand: ({ high, medium, low }) => `Nach Vertrauensstufe: hoch ${high.text}, mittel ${medium.text}, niedrig ${low.text}.`,
  supporting: ({ count, list }) => `${s(count, 'Befund stützt', 'Befunde stützen')} das Vertrauen: ${list}`,
  weakening: ({ count, list }) => `${s(count, 'Befund schwächt', 'Befunde schwächen')} das Vertrauen: ${list}`,
  neutral: ({ count }) => `Neutrale Befunde, gezählt ohne Einfluss auf den Wert: ${count.text}.`,
  moreNotQuoted: ({ count }) => `(${count.text} weitere nicht zitiert)`,
  findingsNotShown: () => 'Einzelne Befunde sind nicht Teil dieses Berichts.',
  finding: ({ kind, disposition }) => phraseFor(DE, kind, disposition),
  provenanceClass: (id) => PROVENANCE[id],

  contradictions: ({ count }) =>
    `Belege, die dem Rest widersprechen: ${count.text}. Widersprüchliche Belege werden nicht herausgemittelt, sondern verbreitern das Intervall.`,
  conflictOn: ({ type, supports, weakens }) => `Zum vorgelegten Wert vom Typ ${type}: ${supports.text} dafür, ${weakens.text} dagegen.`,

  coverage: ({ run, answered, unanswered }) =>
    `Durchgeführte Prüfungen: ${run.text}; beantwortet: ${answered.text}; unbeantwortet: ${unanswered.text}.`,
  absence: ({ kind, type, count }) => `Prüfungen zum vorgelegten Wert vom Typ ${type}, die ${ABSENCE[kind]}: ${count.text}.`,
  tierGap: ({ kind, tier, count }) =>
    `Prüfungen der Art „${kind}“, die Stufe ${tier} erfordern (oberhalb der Stufenobergrenze dieser Anfrage) und daher nicht liefen: ${count.text}.`,
  switchedOffGap: ({ kind, count }) =>
    `Prüfungen der Art „${kind}“, die in dieser Installation abgeschaltet sind und daher nicht liefen: ${count.text}. Das zählt weder für noch gegen das Subjekt.`,
  failedSignals: ({ count }) => `Prüfungen ohne verwertbares Ergebnis: ${count.text}.`,
  gapsMeaning: () => 'Was nicht geprüft werden konnte, zählt weder für noch gegen das Subjekt; es verbreitert stattdessen das Intervall.',
  noGaps: () => 'Jede durchgeführte Prüfung hat geantwortet, und die Stufenobergrenze hat nichts außer Reichweite gelassen.',

  method: ({ version, asOf }) =>
    `Methodik Version ${version}, Belege mit Stand ${asOf}. Wert und Intervall stammen aus einer einzigen veröffentlichten Funktion, angewandt auf die zugelassenen Belege; keine Person hat sie festgelegt oder angepasst.`,
  methodLabel: () => 'Kennzeichnungen stammen aus Ihrer eigenen veröffentlichten Richtlinie und ändern den Wert nie.',

  shareHeadline: ({ band, preliminary }) => `${HEADLINE[band]}${preliminary ? ' (vorläufig)' : ''}`,
  shareBody: ({ score, low, high, asOf }) => `Wert ${score.text} von 100, Intervall ${low.text} bis ${high.text}, Stand ${asOf}.`,
  shareLabel: ({ value }) => `Kennzeichnung: ${value}.`,
};
