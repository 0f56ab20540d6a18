/**
 * Value parsers for command-line options. Each throws commander's `InvalidArgumentError`, which the CLI
 * turns into a one-line usage error with exit code 2 (decisions.md D205: no silent fall-backs).
 *
 * @module
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

/** A dollar amount greater than zero (`-b/--budget`). */
export function parseBudget(value: string): number {
  const number = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError('Give a positive number of dollars, e.g. 2.5.');
  }
  return number;
}

/**
 * A comma-separated tool list (`-t/--tools`): each item trimmed, empty items dropped. A list with no name
 * left (`-t ',,,'`) is a usage error: running an agent with no tools at all is never what such a typo meant.
 */
export function parseToolList(value: string): string[] {
  const tools = value
    .split(',')
    .map((tool) => tool.trim())
    .filter((tool) => tool !== '');
  if (tools.length === 0) throw new InvalidArgumentError('Name at least one tool, e.g. -t Read,Grep.');
  return tools;
}

/** A whole number of at least `minimum`. */
export function wholeNumberAtLeast(minimum: number, hint: string): (value: string) => number {
  return (value) => {
    const text = value.trim();
    const number = Number(text);
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(number) || number < minimum)
      throw new InvalidArgumentError(hint);
    return number;
  };
}

/** `--timeout`: seconds (0 or more, fractions allowed) or `never` (wait forever, returned as null). */
export function parseTimeout(value: string): number | null {
  const text = value.trim().toLowerCase();
  if (text === 'never') return null;
  const number = Number(text);
  if (text === '' || !Number.isFinite(number) || number < 0) {
    throw new InvalidArgumentError('Give seconds (0 = decide without asking) or "never".');
  }
  return number;
}

/** A TCP port for `--port`: 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const text = value.trim();
  const number = Number(text);
  if (!/^\d+$/.test(text) || number > 65_535) {
    throw new InvalidArgumentError('Give a port number from 1 to 65535, or 0 for any free port.');
  }
  return number;
}
