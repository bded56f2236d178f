import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { pt } from './pt.js';
import type { ReportMessages } from './types.js';

export type { Num, ReportMessages, ScoreBand, SectionKey, WidthBand } from './types.js';

/** Every language a report can be written in; English is the fallback. */
export const LOCALES = { en, es, fr, pt, de } as const satisfies Record<string, ReportMessages>;
export type ReportLang = keyof typeof LOCALES;
export const DEFAULT_LANG: ReportLang = 'en';

function isReportLang(tag: string): tag is ReportLang {
  return Object.hasOwn(LOCALES, tag);
}

/**
 * The language a report is written in for an asked tag: the exact tag when we
 * have it, else its primary subtag (`pt-BR` -> `pt`), else English. Tags are
 * case-insensitive (BCP 47), so `PT-br` negotiates like `pt-BR`.
 */
export function negotiateLang(asked?: string | null): ReportLang {
  if (!asked) return DEFAULT_LANG;
  const tag = asked.trim().toLowerCase().replaceAll('_', '-');
  if (isReportLang(tag)) return tag;
  const primary = tag.split('-')[0] ?? '';
  return isReportLang(primary) ? primary : DEFAULT_LANG;
}
