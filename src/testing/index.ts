/**
 * `flower-agent/testing`: a scripted fake Anthropic Messages API and helpers, so workflows can be tested
 * offline against the real SDK and its real Claude Code binary.
 *
 * @module
 */
export {};
