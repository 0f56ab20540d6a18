/**
 * `isOverflow`: does an error say the conversation no longer fits the model's context window
 * (docs/handoff.md)? An overflow is not retried like a network fault: the runtime goes straight
 * to a degraded handoff and records the context size in the window calibration (`rememberOverflow`).
 *
 * @module
 */

// The wordings seen from the Anthropic API, the Claude Code CLI and gateways in front of other providers:
// "prompt is too long: 201234 tokens > 200000 maximum", "input length and `max_tokens` exceed context
// limit", "maximum context length is 128000 tokens", "context_length_exceeded", "exceeds the context
// window", "too many total text bytes". Matched without regard to case.
const OVERFLOW =
  /prompt is too long|context[ _]length[ _]exceeded|maximum context length|exceeds? the context (?:window|limit)|too many total text bytes|input length and `?max_tokens`? exceed/i;

/**
 * True when any of `texts` reports a context overflow. The runtime passes only the current attempt's errors:
 * counting all of a step's errors latched one transient "prompt is too long" onto 86 later, unrelated
 * failures at 41K–56K of context (the reference's measurement).
 */
export function isOverflow(...texts: Array<string | null | undefined>): boolean {
  return texts.some((text) => typeof text === 'string' && OVERFLOW.test(text));
}
