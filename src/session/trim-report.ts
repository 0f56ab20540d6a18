/**
 * Renders a {@link LoadReport} as the one line shown after a resume.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { LoadReport } from './load-report.js';

/**
 * One line naming every counter that is not zero (the reference showed only trim or expiry,
 * decisions.md D411), or "Nothing trimmed". Token savings are estimated as characters / 4.
 */
export function trimReport(report: LoadReport, lang: Lang = 'en'): string {
  const parts: string[] = [];
  // One of anything is said in the singular ("removed 1 API-error entry"), never "1 entries".
  const counted = (
    count: number,
    key: CountedKey,
    name: string,
    extra: Record<string, string | number> = {},
  ) => {
    if (count > 0) parts.push(uiText(count === 1 ? `${key}One` : key, { [name]: count, ...extra }, lang));
  };
  counted(report.cleared, 'trim.report.cleared', 'cleared', {
    kept: report.kept,
    tokens: Math.floor(report.charsSaved / 4).toLocaleString('en-US'),
  });
  counted(report.expired, 'trim.report.expired', 'expired');
  counted(report.pruned, 'trim.report.pruned', 'pruned');
  counted(report.denialsDropped, 'trim.report.denials', 'denials');
  counted(report.healed, 'trim.report.healed', 'healed');
  counted(report.errors.length, 'trim.report.errors', 'errors');
  if (parts.length === 0) return uiText('trim.report.nothing', {}, lang);
  const line = parts.join(lang === 'zh' ? ';' : '; ');
  return lang === 'zh' ? line : line.charAt(0).toUpperCase() + line.slice(1);
}

/** The counted parts of the report; each has a `…One` form for a count of one. */
type CountedKey =
  | 'trim.report.cleared'
  | 'trim.report.expired'
  | 'trim.report.pruned'
  | 'trim.report.denials'
  | 'trim.report.healed'
  | 'trim.report.errors';
