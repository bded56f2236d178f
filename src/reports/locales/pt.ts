import { PT, phraseFor } from './findings.js';
import type { Num, ReportMessages } from './types.js';

/** Portuguese (Brazilian spelling). Counts that would need agreement follow a colon instead. */

const s = (n: Num, one: string, other: string): string => `${n.text} ${n.one ? one : other}`;

const PROVENANCE: Record<string, string> = {
  third_party: 'de terceiros',
  computed: 'calculada',
  tenant_supplied: 'fornecida por você',
  self_attested: 'autodeclarada',
  analyst_asserted: 'afirmada por analista',
};

const WIDTH = {
  narrow: 'as evidências concordam e bastam para situar a pontuação com precisão.',
  moderate: 'as evidências situam a pontuação apenas de forma aproximada; mais evidências a estreitariam.',
  wide: 'as evidências são escassas ou contraditórias, então o valor real pode estar em qualquer ponto dessa faixa.',
};

const ABSENCE = {
  timeout: 'não responderam a tempo',
  error: 'falharam com um erro',
  no_data: 'não encontraram dados',
  refused: 'foram recusadas',
  budget: 'não foram executadas porque o orçamento se esgotou',
  unregistered: 'não foram executadas porque o tipo não está registrado para sua conta',
};

const HEADLINE = {
  higher: 'Confiança mais alta indicada',
  middle: 'Confiança moderada indicada',
  lower: 'Confiança mais baixa indicada',
};

export const pt: ReportMessages = {
  titles: {
    summary: 'Resumo',
    evidence: 'Evidências',
    contradictions: 'Contradições',
    gaps: 'O que não pôde ser verificado',
    method: 'Método',
  },

  scoreLine: ({ score, low, high }) => `A pontuação é ${score.text} de 100, com um intervalo de ${low.text} a ${high.text}.`,
  widthLine: ({ width, band }) => `O intervalo tem ${s(width, 'ponto', 'pontos')} de largura: ${WIDTH[band]}`,
  labelLine: ({ value, version }) => `Sua política (versão ${version.text}) rotula este resultado como “${value}”.`,
  noLabel: () => 'Nenhum rótulo se aplica: nenhuma de suas políticas rotula este resultado.',
  preliminary: () =>
    'Esta avaliação é preliminar: as evidências reunidas até agora ainda não atendem à regra de parada, e ela será refinada.',

  evidenceTotals: ({ signals }) => `A avaliação se baseia em ${s(signals, 'sinal', 'sinais')}.`,
  noEvidence: () => 'Nenhuma evidência foi admitida, então o intervalo é tão largo quanto o método permite.',
  byProvenance: ({ list }) => `Por procedência: ${list}.`,
  byTrustBand: ({ high, medium, low }) => `Por faixa de confiança: alta ${high.text}, média ${medium.text}, baixa ${low.text}.`,
  supporting: ({ count, list }) => `${s(count, 'constatação reforça', 'constatações reforçam')} a confiança: ${list}`,
  weakening: ({ count, list }) => `${s(count, 'constatação enfraquece', 'constatações enfraquecem')} a confiança: ${list}`,
  neutral: ({ count }) => `Constatações neutras, contadas sem mover a pontuação: ${count.text}.`,
  moreNotQuoted: ({ count }) => `(mais ${count.text} não citadas)`,
  findingsNotShown: () => 'As constatações individuais não fazem parte deste relatório.',
  finding: ({ kind, disposition }) => phraseFor(PT, kind, disposition),
  provenanceClass: (id) => PROVENANCE[id],

  contradictions: ({ count }) =>
    `Evidências que apontam no sentido contrário ao restante: ${count.text}. Evidências em conflito não são compensadas pela média: elas alargam o intervalo.`,
  conflictOn: ({ type, supports, weakens }) => `Sobre o valor ${type} apresentado: ${supports.text} a favor, ${weakens.text} contra.`,

  coverage: ({ run, answered, unanswered }) =>
    `Verificações executadas: ${run.text}; respondidas: ${answered.text}; sem resposta: ${unanswered.text}.`,
  absence: ({ kind, type, count }) => `Verificações sobre o valor ${type} apresentado que ${ABSENCE[kind]}: ${count.text}.`,
  tierGap: ({ kind, tier, count }) =>
    `Verificações do tipo “${kind}” que exigem o nível ${tier}, acima do teto de nível desta consulta, e não foram executadas: ${count.text}.`,
  switchedOffGap: ({ kind, count }) =>
    `Verificações do tipo “${kind}” desativadas nesta instalação, e por isso não executadas: ${count.text}. Isto não conta nem a favor nem contra o sujeito.`,
  failedSignals: ({ count }) => `Verificações que não produziram nada utilizável: ${count.text}.`,
  gapsMeaning: () => 'O que não pôde ser verificado não conta nem a favor nem contra o sujeito; em vez disso, alarga o intervalo.',
  noGaps: () => 'Todas as verificações executadas responderam, e o teto de nível não deixou nada fora de alcance.',

  method: ({ version, asOf }) =>
    `Metodologia versão ${version}, com evidências atualizadas em ${asOf}. A pontuação e o intervalo vêm de uma única função publicada aplicada às evidências admitidas; nenhuma pessoa os definiu ou ajustou.`,
  methodLabel: () => 'Os rótulos vêm da sua própria política publicada e nunca alteram a pontuação.',

  shareHeadline: ({ band, preliminary }) => `${HEADLINE[band]}${preliminary ? ' (preliminar)' : ''}`,
  shareBody: ({ score, low, high, asOf }) => `Pontuação ${score.text} de 100, intervalo de ${low.text} a ${high.text}, em ${asOf}.`,
  shareLabel: ({ value }) => `Rótulo: ${value}.`,
};
