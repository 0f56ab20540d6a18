/**
 * The small vocabulary that per-command read-only rules are written in: which shell expansions a command
 * tolerates in its arguments, a getopt-style option scanner, and a factory for the common rule shape
 * "these options are writes, at most N operands".
 *
 * Two safety properties drive the details. Over-reading an option's value would hide the word after it
 * (`uniq -c in out` read as `-c in` would look like one operand), so an option only takes a value when
 * its letter or name is listed — an unknown option is read as a flag, which can only deny more. And GNU
 * `getopt_long` accepts any unambiguous prefix of a long option (`sort --out=f` is `--output=f`), so a
 * forbidden long option matches every prefix of its name.
 *
 * @module
 */
import type { ShellWord } from './shell-words.js';

/**
 * Which arguments the shell may still expand before the command sees them.
 * - `any`: the command has no option or operand that writes, so whatever the expansion yields is harmless.
 * - `anchored`: globs and braces whose first character is literal and not `-` (they can only yield
 *   operands, never options), or any glob after `--`; no parameter expansions (`$X` may split into
 *   `-delete` or `--output=f`).
 * - `none`: nothing may expand, because the number of operands matters (`uniq in out` writes `out`).
 */
export type ExpansionPolicy = 'any' | 'anchored' | 'none';

/** True when every argument is acceptable under the policy. */
export function expansionsAllowed(args: readonly ShellWord[], policy: ExpansionPolicy): boolean {
  if (policy === 'any') return true;
  let afterDoubleDash = false;
  for (const word of args) {
    if (!word.expands) {
      if (word.text === '--') afterDoubleDash = true;
      continue;
    }
    if (policy === 'none' || word.hasParameter) return false;
    if (!afterDoubleDash && !(word.literalStart && !word.text.startsWith('-'))) return false;
  }
  return true;
}

/** How a command's options take values. */
export interface OptionSyntax {
  /** Short letters whose value is the rest of the cluster or else the next word (`-k2`, `-k 2`). */
  readonly valueLetters?: string;
  /** Short letters whose optional value is only ever attached (`-I[FMT]`, `-n5`). */
  readonly attachedValueLetters?: string;
  /** Long names whose value follows `=` or else is the next word (`--key=2`, `--key 2`). */
  readonly valueNames?: readonly string[];
}

/** One option as the command would see it. */
export interface ParsedOption {
  /** The letter of a short option, or the name of a long one without dashes. */
  readonly name: string;
  readonly long: boolean;
  readonly value: string | undefined;
}

/** Options and operands, split the way GNU getopt does (options anywhere before `--`). */
export interface ParsedArguments {
  readonly options: readonly ParsedOption[];
  readonly positionals: readonly ShellWord[];
}

/** Scans arguments GNU-style: options may follow operands, `--` ends them, `-` alone is an operand. */
export function parseArguments(args: readonly ShellWord[], syntax: OptionSyntax = {}): ParsedArguments {
  const options: ParsedOption[] = [];
  const positionals: ShellWord[] = [];
  const valueLetters = syntax.valueLetters ?? '';
  const attachedValueLetters = syntax.attachedValueLetters ?? '';
  const valueNames = syntax.valueNames ?? [];
  let endOfOptions = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as ShellWord;
    const text = word.text;
    if (endOfOptions || word.expands || text === '-' || !text.startsWith('-')) {
      positionals.push(word);
    } else if (text === '--') {
      endOfOptions = true;
    } else if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      const name = equals < 0 ? text.slice(2) : text.slice(2, equals);
      let value = equals < 0 ? undefined : text.slice(equals + 1);
      if (value === undefined && valueNames.includes(name) && index + 1 < args.length) {
        index += 1;
        value = (args[index] as ShellWord).text;
      }
      options.push({ name, long: true, value });
    } else {
      for (let position = 1; position < text.length; position++) {
        const letter = text[position] as string;
        const rest = text.slice(position + 1);
        if (valueLetters.includes(letter)) {
          let value: string | undefined = rest;
          if (rest === '') {
            value = index + 1 < args.length ? (args[index + 1] as ShellWord).text : undefined;
            if (value !== undefined) index += 1;
          }
          options.push({ name: letter, long: false, value });
          break;
        }
        if (attachedValueLetters.includes(letter)) {
          options.push({ name: letter, long: false, value: rest });
          break;
        }
        options.push({ name: letter, long: false, value: undefined });
      }
    }
  }
  return { options, positionals };
}

/** Short letters and long names, for matching options. */
export interface OptionSet {
  readonly letters?: string;
  readonly names?: readonly string[];
}

/** True when any option is one of the set; long names match any prefix (GNU abbreviations). */
export function usesAnyOption(parsed: ParsedArguments, set: OptionSet): boolean {
  const letters = set.letters ?? '';
  const names = set.names ?? [];
  return parsed.options.some((option) =>
    option.long ? names.some((name) => name.startsWith(option.name)) : letters.includes(option.name),
  );
}

/** True when every option is in the set, long names matched exactly (an allowlist; abbreviations deny). */
export function usesOnlyOptions(parsed: ParsedArguments, set: OptionSet): boolean {
  const letters = set.letters ?? '';
  const names = set.names ?? [];
  return parsed.options.every((option) =>
    option.long ? names.includes(option.name) : letters.includes(option.name),
  );
}

/** A verb's read-only rule: which expansions it tolerates, and what it accepts. */
export interface CommandRule {
  readonly expansions: ExpansionPolicy;
  /** Decides on the arguments after the verb; absent means every argument is harmless. */
  readonly accepts?: (args: readonly ShellWord[]) => boolean;
}

/** The common rule shape for getopt-style commands. */
export interface OptionRuleSpec {
  readonly expansions?: ExpansionPolicy;
  readonly syntax?: OptionSyntax;
  /** Options that write, execute or never terminate. */
  readonly forbidden?: OptionSet;
  readonly maxPositionals?: number;
  /** A further check on the parsed arguments. */
  readonly check?: (parsed: ParsedArguments) => boolean;
}

/** Builds a {@link CommandRule} from an {@link OptionRuleSpec}; expansions default to `anchored`. */
export function optionRule(spec: OptionRuleSpec): CommandRule {
  return {
    expansions: spec.expansions ?? 'anchored',
    accepts: (args) => {
      const parsed = parseArguments(args, spec.syntax);
      if (spec.forbidden && usesAnyOption(parsed, spec.forbidden)) return false;
      if (spec.maxPositionals !== undefined && parsed.positionals.length > spec.maxPositionals) return false;
      return spec.check ? spec.check(parsed) : true;
    },
  };
}

/** A command whose every option and operand is a read: anything the shell expands is fine. */
export const INERT: CommandRule = { expansions: 'any' };
