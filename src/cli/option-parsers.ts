/**
 * Value parsers for command-line options. Each throws commander's `InvalidArgumentError`, which the CLI
 * turns into a one-line usage error with exit code 2 (decisions.md D205: no silent fall-backs).
 *
 * @module
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { CHAOS_FAULTS, isChaosFault, type ChaosFault } from '../chaos/chaos-fault.js';

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

/** `--faults sigkill,429`: known fault names, at least one. */
export function parseFaultList(value: string): ChaosFault[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isChaosFault(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(`Name faults from ${CHAOS_FAULTS.join(', ')}, e.g. --faults sigkill,429.`);
  }
  return [...new Set(names)] as ChaosFault[];
}

/** `--boundaries 1,5,9`: message boundaries, whole numbers from 1. */
export function parseBoundaryList(value: string): number[] {
  const numbers = value.split(',').map((part) => Number(part.trim()));
  if (numbers.length === 0 || numbers.some((number) => !Number.isInteger(number) || number < 1)) {
    throw new InvalidArgumentError('Give boundary numbers from 1, comma-separated, e.g. --boundaries 1,5,9.');
  }
  return [...new Set(numbers)];
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
