/**
 * The wake banner (docs/continuity.md): printed once, after the startup prompt, when `go` continues a
 * workspace whose brief is confirmed — where it resumes, what it found, and which wake this is. Built only
 * from a {@link WakeState}, which is gathered read-only: the reference built a whole runtime for it,
 * creating folders and re-checking credentials just to print one line (decisions.md D224).
 *
 * @module
 */
import { createColors } from 'picocolors';
import { displayPath } from '../config/config-dir.js';
import type { Env } from '../config/process-environment.js';
import { uiText, type Lang } from '../config/ui-text.js';
import { formatContext } from '../render/format-numbers.js';
import type { WakeState } from '../runtime/wake-state.js';

/** Options of {@link wakeBanner}. */
export interface WakeBannerOptions {
  /** The workspace being resumed (shown with the home directory as `~`). */
  workspace: string;
  /** For the home directory. */
  env: Env;
  lang: Lang;
  /** Colour the parts (cyan head, dim details). */
  color: boolean;
}

/**
 * The banner line: `<- Resuming in ~/app · brief confirmed · 4 goal checks · work context 36.8K · wake #3`.
 * The goal part needs at least one check and the context part a known context; the wake number is the
 * one this run will have (`woke + 1`).
 */
export function wakeBanner(state: WakeState, options: WakeBannerOptions): string {
  const { lang } = options;
  const colors = createColors(options.color);
  const bits = [uiText('wake.confirmed', {}, lang)];
  if (state.checks >= 1)
    bits.push(uiText(state.checks === 1 ? 'wake.goal' : 'wake.goals', { n: state.checks }, lang));
  if (state.context > 0) bits.push(uiText('wake.context', { x: formatContext(state.context) }, lang));
  bits.push(uiText('wake.count', { n: state.woke + 1 }, lang));
  const head = `<- ${uiText('wake.at', { path: displayPath(options.workspace, options.env) }, lang)}`;
  return `${colors.cyan(head)} ${colors.dim(`· ${bits.join(' · ')}`)}`;
}
