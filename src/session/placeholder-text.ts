/**
 * The texts the load pipeline writes into the copy of a transcript that goes back to the model, and the
 * one-line load report. English first (decision 1); they live here in one place until the UI catalog
 * (`src/config/ui-text.ts`) takes them over. `{name}` marks a slot filled at use.
 *
 * @module
 */

/** Placeholder texts the transforms substitute for tool-result content. */
export const PLACEHOLDER_TEXT = {
  /** Trim: an old large result moved to a spill file. Slots: `{n}` characters, `{path}` absolute path. */
  trimmed: '[Tool result archived: {n} characters. The full text is in {path}; Read it if you need it.]',
  /**
   * Expire: a stale ephemeral command result. Slots: `{cmd}` the backtick-wrapped first line of the command,
   * `{age}` how many model turns ago it ran.
   */
  expired:
    '[Output of {cmd} from {age} turns ago has expired; the state may have changed. Run it again if you need it.]',
  /** Prune: a tool result that was cut off by an interrupt. */
  interrupted: '[The previous turn was interrupted here; this tool produced no result.]',
  /** healOrphans: the synthetic answer to a tool call that never got a result. */
  orphan: '[This step was interrupted and has no result. Redo it if needed.]',
} as const;

/** Lines of the load report (`trimReport`). */
export const REPORT_TEXT = {
  en: {
    nothing: 'Nothing trimmed',
    cleared:
      'archived {cleared} old tool results (kept the {kept} most recent large ones), saving ~{tokens} tokens',
    expired: 'marked {expired} stale command results as expired',
    pruned: 'removed {pruned} API-error entries',
    denials: 'removed {denials} old denied calls',
    healed: 'answered {healed} interrupted tool calls',
    errors: '{errors} spill errors',
  },
  zh: {
    nothing: '未做裁剪',
    cleared: '归档了 {cleared} 个旧的工具结果(保留最近 {kept} 个大结果),约省 {tokens} tokens',
    expired: '{expired} 个命令结果已标记过期',
    pruned: '移除了 {pruned} 条 API 错误记录',
    denials: '移除了 {denials} 次旧的被拒调用',
    healed: '补齐了 {healed} 个被打断的工具调用',
    errors: '{errors} 个归档错误',
  },
} as const;
