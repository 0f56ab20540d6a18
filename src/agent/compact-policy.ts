/**
 * How the Claude Code child shrinks a long conversation on its own (docs/handoff.md). flower owns context
 * economy through handoff (decisions.md D6), so the runtime usually asks for `no_summary`; a library user can
 * keep the SDK's own auto-compact with `auto`.
 *
 * @module
 */
import { FlowerError } from '../errors.js';

/** The three compact modes: SDK default, no automatic summary, or compaction fully off. */
export type CompactMode = 'auto' | 'no_summary' | 'off';

const MODES: readonly string[] = ['auto', 'no_summary', 'off'];

/** A compact policy, turned into child environment variables by {@link CompactPolicy.env}. */
export class CompactPolicy {
  readonly mode: CompactMode;
  /** Token window for the CLI's auto-compact (the CLI clamps it to 100k–1M); null = the model's own. */
  readonly window: number | null;

  constructor(options: { mode?: CompactMode; window?: number | null } = {}) {
    this.mode = options.mode ?? 'auto';
    this.window = options.window ?? null;
  }

  /**
   * The child environment for this policy: `no_summary` → `DISABLE_AUTO_COMPACT=1`, `off` →
   * `DISABLE_COMPACT=1`, a window → `CLAUDE_CODE_AUTO_COMPACT_WINDOW`. Throws on an unknown mode, which can
   * only come from untyped callers (the check runs inside `run`, as in the reference).
   */
  env(): Record<string, string> {
    if (!MODES.includes(this.mode)) {
      throw new FlowerError(
        'CONFIG_INVALID',
        `Unknown compact mode '${String(this.mode)}'; use auto, no_summary or off.`,
      );
    }
    const env: Record<string, string> = {};
    if (this.mode === 'no_summary') env['DISABLE_AUTO_COMPACT'] = '1';
    if (this.mode === 'off') env['DISABLE_COMPACT'] = '1';
    if (this.window !== null) env['CLAUDE_CODE_AUTO_COMPACT_WINDOW'] = String(Math.trunc(this.window));
    return env;
  }
}
