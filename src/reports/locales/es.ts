import { ES, phraseFor } from './findings.js';
import type { Num, ReportMessages } from './types.js';

/** Spanish. Counts that would need agreement are put after a colon instead. */

const s = (n: Num, one: string, other: string): string => `${n.text} ${n.one ? one : other}`;

const PROVENANCE: Record<string, string> = {
  third_party: 'de terceros',
  computed: 'calculada',
  tenant_supplied: 'aportada por usted',
  self_attested: 'autodeclarada',
  analyst_asserted: 'afirmada por un analista',
};

const WIDTH = {
  narrow: 'la evidencia concuerda y basta para situar la puntuación con precisión.',
  moderate: 'la evidencia sitúa la puntuación solo de forma aproximada; más evidencia la acotaría.',
  wide: 'la evidencia es escasa o contradictoria, así que el valor real podría estar en cualquier punto de ese rango.',
};

const ABSENCE = {
  timeout: 'no respondieron a tiempo',
  error: 'fallaron con un error',
  no_data: 'no encontraron datos',
  refused: 'fueron rechazadas',
  budget: 'no se ejecutaron por haberse agotado el presupuesto',
  unregistered: 'no se ejecutaron porque el tipo no está registrado para su cuenta',
};

const HEADLINE = {
  higher: 'Indicios de confianza alta',
  middle: 'Indicios de confianza moderada',
  lower: 'Indicios de confianza baja',
};

export const es: ReportMessages = {
  titles: {
    summary: 'Resumen',
    evidence: 'Evidencia',
    contradictions: 'Contradicciones',
    gaps: 'Lo que no se pudo comprobar',
    method: 'Método',
  },

  scoreLine: ({ score, low, high }) => `La puntuación es ${score.text} de 100, con un intervalo de ${low.text} a ${high.text}.`,
  widthLine: ({ width, band }) => `El intervalo tiene una amplitud de ${s(width, 'punto', 'puntos')}: ${WIDTH[band]}`,
  labelLine: ({ value, version }) => `Su política (versión ${version.text}) etiqueta este resultado como «${value}».`,
  noLabel: () => 'No se aplica ninguna etiqueta: ninguna de sus políticas etiqueta este resultado.',
  preliminary: () => 'Esta evaluación es preliminar: la evidencia reunida hasta ahora aún no cumple la regla de parada, y se refinará.',

  evidenceTotals: ({ signals }) => `La evaluación se basa en ${s(signals, 'señal', 'señales')}.`,
  noEvidence: () => 'No se admitió ninguna evidencia, así que el intervalo es tan amplio como permite el método.',
  byProvenance: ({ list }) => `Por procedencia: ${list}.`,
  byTrustBand: ({ high, medium, low }) => `Por banda de confianza: alta ${high.text}, media ${medium.text}, baja ${low.text}.`,
  supporting: ({ count, list }) => `${s(count, 'hallazgo respalda', 'hallazgos respaldan')} la confianza: ${list}`,
  weakening: ({ count, list }) => `${s(count, 'hallazgo debilita', 'hallazgos debilitan')} la confianza: ${list}`,
  neutral: ({ count }) => `Hallazgos neutros, contados sin mover la puntuación: ${count.text}.`,
  moreNotQuoted: ({ count }) => `(${count.text} más sin citar)`,
  findingsNotShown: () => 'Los hallazgos individuales no forman parte de este informe.',
  finding: ({ kind, disposition }) => phraseFor(ES, kind, disposition),
  provenanceClass: (id) => PROVENANCE[id],

  contradictions: ({ count }) =>
    `Elementos de evidencia en sentido contrario al resto: ${count.text}. La evidencia contradictoria no se promedia: amplía el intervalo.`,
  conflictOn: ({ type, supports, weakens }) => `Sobre el valor ${type} presentado: ${supports.text} a favor, ${weakens.text} en contra.`,

  coverage: ({ run, answered, unanswered }) =>
    `Comprobaciones ejecutadas: ${run.text}; respondidas: ${answered.text}; sin respuesta: ${unanswered.text}.`,
  absence: ({ kind, type, count }) => `Comprobaciones sobre el valor ${type} presentado que ${ABSENCE[kind]}: ${count.text}.`,
  tierGap: ({ kind, tier, count }) =>
    `Comprobaciones del tipo «${kind}» que requieren el nivel ${tier}, por encima del límite de nivel de esta consulta, y no se ejecutaron: ${count.text}.`,
  switchedOffGap: ({ kind, count }) =>
    `Comprobaciones del tipo «${kind}» desactivadas en esta instalación, que por eso no se ejecutaron: ${count.text}. No cuenta ni a favor ni en contra del sujeto.`,
  failedSignals: ({ count }) => `Comprobaciones que no produjeron nada utilizable: ${count.text}.`,
  gapsMeaning: () => 'Lo que no se pudo comprobar no cuenta ni a favor ni en contra del sujeto; en su lugar, amplía el intervalo.',
  noGaps: () => 'Todas las comprobaciones ejecutadas respondieron, y el límite de nivel no dejó nada fuera de alcance.',

  method: ({ version, asOf }) =>
    `Versión de la metodología ${version}, con evidencia vigente a ${asOf}. La puntuación y el intervalo provienen de una única función publicada aplicada a la evidencia admitida; ninguna persona los fijó ni los ajustó.`,
  methodLabel: () => 'Las etiquetas provienen de su propia política publicada y nunca cambian la puntuación.',

  shareHeadline: ({ band, preliminary }) => `${HEADLINE[band]}${preliminary ? ' (preliminar)' : ''}`,
  shareBody: ({ score, low, high, asOf }) => `Puntuación ${score.text} de 100, intervalo de ${low.text} a ${high.text}, a ${asOf}.`,
  shareLabel: ({ value }) => `Etiqueta: ${value}.`,
};
