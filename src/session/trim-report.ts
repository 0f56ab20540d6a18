/**
 * Renders a {@link LoadReport} as the one line shown after a resume.
 *
 * @module
 */
import type { Lang } from '../config/ui-text.js';
import { fillTemplate } from './entry-content.js';
import type { LoadReport } from './load-report.js';
import { REPORT_TEXT } from './placeholder-text.js';

/**
 * One line naming every counter that is not zero (the reference showed only trim or expiry, cs §11.11), or
 * "Nothing trimmed". Token savings are estimated as characters / 4.
 */
export function trimReport(report: LoadReport, lang: Lang = 'en'): string {
  const text = REPORT_TEXT[lang];
  const parts: string[] = [];
  if (report.cleared > 0) {
    parts.push(
      fillTemplate(text.cleared, {
        cleared: report.cleared,
        kept: report.kept,
        tokens: Math.floor(report.charsSaved / 4).toLocaleString('en-US'),
      }),
    );
  }
  if (report.expired > 0) parts.push(fillTemplate(text.expired, { expired: report.expired }));
  if (report.pruned > 0) parts.push(fillTemplate(text.pruned, { pruned: report.pruned }));
  if (report.denialsDropped > 0) parts.push(fillTemplate(text.denials, { denials: report.denialsDropped }));
  if (report.healed > 0) parts.push(fillTemplate(text.healed, { healed: report.healed }));
  if (report.errors.length > 0) parts.push(fillTemplate(text.errors, { errors: report.errors.length }));
  if (parts.length === 0) return text.nothing;
  const line = parts.join(lang === 'zh' ? ';' : '; ');
  return lang === 'zh' ? line : line.charAt(0).toUpperCase() + line.slice(1);
}
