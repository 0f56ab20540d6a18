/**
 * The worktree-isolation mark of a worker role (docs/workbench.md). Isolation is a property of the
 * role, not a global switch or a per-dispatch choice, and unmarked roles get zero added bytes.
 *
 * The mark is kept outside the SDK object, in a `WeakSet`: an extra key on the `AgentDefinition` would be
 * serialised into the options sent to Claude Code. The reference hid it as an attribute for the same
 * reason, and copying the definition silently dropped it; the same holds here — `{...def}` is a new object
 * and is not marked. `isolated()` returns the object it was given, so marking is an expression, and a copy
 * can carry the mark with `isolated(copy, wantsIsolation(original))`.
 *
 * @module
 */
import type { AgentDefinition } from './claude-sdk.js';

const marked = new WeakSet<AgentDefinition>();

/**
 * Marks `definition` (flag true) or unmarks it (flag false) for worktree isolation, and returns the same
 * object. A copy of a marked definition is not marked; carry the mark with
 * `isolated(copy, wantsIsolation(original))`.
 */
export function isolated<T extends AgentDefinition>(definition: T, flag = true): T {
  if (flag) marked.add(definition);
  else marked.delete(definition);
  return definition;
}

/** True when `definition` itself (not a copy of it) was marked with {@link isolated}. */
export function wantsIsolation(definition: AgentDefinition): boolean {
  return marked.has(definition);
}
