/**
 * A command line as a person would type it into a POSIX shell: each word as is when it holds only characters
 * no shell treats specially, else in single quotes. For lines flower prints to be copied and run again.
 *
 * @module
 */

/** Characters that never need quoting in sh, bash or zsh. */
const PLAIN = /^[\w@%+=:,./-]+$/;

/** `words` joined into one line a shell reads back as the same words. */
export function shellWords(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

/** One word, quoted when it must be: `'it'\''s'` for `it's`, `''` for the empty word. */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
