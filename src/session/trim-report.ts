/**
 * Renders a {@link LoadReport} as the one line shown after a resume.
 *
 * @module
 */
import { uiText, type Lang } from '../config/ui-text.js';
import type { LoadReport } from './load-report.js';

/**
 * One line naming every counter that is not zero (the reference showed only trim or expiry, cs §11.11), or
 * "Nothing trimmed". Token savings are estimated as characters / 4.
 */
export function trimReport(report: LoadReport, lang: Lang = 'en'): string {
  const parts: string[] = [];
  if (report.cleared > 0) {
    parts.push(
      uiText(
        'trim.report.cleared',
        {
          cleared: report.cleared,
          kept: report.kept,
          tokens: Math.floor(report.charsSaved / 4).toLocaleString('en-US'),
        },
        lang,
      ),
    );
  }
  if (report.expired > 0) parts.push(uiText('trim.report.expired', { expired: report.expired }, lang));
  if (report.pruned > 0) parts.push(uiText('trim.report.pruned', { pruned: report.pruned }, lang));
  if (report.denialsDropped > 0)
    parts.push(uiText('trim.report.denials', { denials: report.denialsDropped }, lang));
  if (report.healed > 0) parts.push(uiText('trim.report.healed', { healed: report.healed }, lang));
  if (report.errors.length > 0)
    parts.push(uiText('trim.report.errors', { errors: report.errors.length }, lang));
  if (parts.length === 0) return uiText('trim.report.nothing', {}, lang);
  const line = parts.join(lang === 'zh' ? ';' : '; ');
  return lang === 'zh' ? line : line.charAt(0).toUpperCase() + line.slice(1);
}
