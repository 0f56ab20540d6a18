/**
 * The character-mode line editor of the live input line (docs/human-channel.md), as a pure state machine:
 * bytes from a raw-mode terminal in, editing actions out. It never touches a terminal, so every key is a
 * table row in its test.
 *
 * In raw mode the terminal does no line editing and sends Ctrl-C as the byte 0x03 rather than a signal
 * (docs/human-channel.md), so both are handled here. Input is decoded as UTF-8 incrementally: a character
 * split across two reads is held until it is complete, never inserted as two broken halves. The cursor moves
 * by user-perceived characters (grapheme clusters), so Backspace removes a whole accented letter or emoji.
 * Up and Down walk the lines submitted before; Ctrl-K and Ctrl-U cut text that Ctrl-Y puts back.
 *
 * @module
 */
import { StringDecoder } from 'node:string_decoder';

/**
 * What the caller does after a {@link LineEditor.feed}, in order. `redraw`: the buffer or cursor changed —
 * show {@link LineEditor.text} and {@link LineEditor.cursor} as they are once all actions are handled.
 */
export type EditorAction =
  { kind: 'submit'; line: string } | { kind: 'eof' } | { kind: 'interrupt' } | { kind: 'redraw' };

/** An escape sequence longer than this many bytes (ESC included) is abandoned. */
const MAX_ESCAPE = 8;

/** Submitted lines kept for Up/Down; the oldest go first. */
const MAX_HISTORY = 100;

const ESC = '\x1b';
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** A line being typed: buffer, cursor and the escape-sequence and decoder state between reads. */
export class LineEditor {
  #buffer = '';
  /** UTF-16 offset into the buffer, always on a grapheme boundary. */
  #cursor = 0;
  readonly #decoder = new StringDecoder('utf8');
  /** Characters of an escape sequence after its ESC; null outside one. */
  #escape: string | null = null;
  /** The previous character was CR, so an LF right after it ends the same line (pasted CRLF text). */
  #afterCr = false;
  /** Non-empty submitted lines, oldest first. */
  readonly #history: string[] = [];
  /** Index into the history of the line shown; `history.length` is the line being typed. */
  #historyIndex = 0;
  /** The line being typed, kept while Up shows older lines so Down can bring it back. */
  #draft = '';
  /** The text Ctrl-K or Ctrl-U cut last, for Ctrl-Y. */
  #killed = '';

  /** The line typed so far. */
  get text(): string {
    return this.#buffer;
  }

  /** The cursor as a UTF-16 offset into {@link text}. */
  get cursor(): number {
    return this.#cursor;
  }

  /** The text before the cursor. */
  get beforeCursor(): string {
    return this.#buffer.slice(0, this.#cursor);
  }

  /** The text after the cursor. */
  get afterCursor(): string {
    return this.#buffer.slice(this.#cursor);
  }

  /** Processes input (raw bytes, or text already decoded) and returns what happened, in order. */
  feed(input: Uint8Array | string): EditorAction[] {
    const text = typeof input === 'string' ? input : this.#decoder.write(Buffer.from(input));
    const actions: EditorAction[] = [];
    for (const character of text) this.#take(character, actions);
    return actions;
  }

  #take(character: string, actions: EditorAction[]): void {
    if (this.#escape !== null) {
      this.#escapePart(character, actions);
      return;
    }
    const afterCr = this.#afterCr;
    this.#afterCr = false;
    const code = character.codePointAt(0) ?? 0;
    switch (character) {
      case ESC:
        this.#escape = '';
        return;
      case '\r':
        this.#afterCr = true;
        this.#submit(actions);
        return;
      case '\n':
        if (!afterCr) this.#submit(actions);
        return;
      case '\x03':
        actions.push({ kind: 'interrupt' });
        return;
      case '\x04':
        // ^D ends input only on an empty line: with text typed it is an easy slip of the finger.
        if (this.#buffer === '') actions.push({ kind: 'eof' });
        return;
      case '\x7f':
      case '\b':
        this.#edit(actions, () => this.#deleteBack());
        return;
      case '\x01':
        this.#edit(actions, () => this.#moveTo(0));
        return;
      case '\x05':
        this.#edit(actions, () => this.#moveTo(this.#buffer.length));
        return;
      case '\x15':
        this.#edit(actions, () => {
          if (this.#buffer !== '') this.#killed = this.#buffer;
          this.#buffer = '';
          this.#cursor = 0;
        });
        return;
      case '\x0b':
        this.#edit(actions, () => {
          if (this.#cursor === this.#buffer.length) return;
          this.#killed = this.#buffer.slice(this.#cursor);
          this.#buffer = this.#buffer.slice(0, this.#cursor);
        });
        return;
      case '\x19':
        this.#edit(actions, () => this.#insert(this.#killed));
        return;
    }
    // Other C0 controls, DEL and C1 controls: ignored (they would corrupt the screen if echoed).
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return;
    this.#edit(actions, () => this.#insert(character));
  }

  #escapePart(character: string, actions: EditorAction[]): void {
    const sequence = `${this.#escape ?? ''}${character}`;
    if (sequence === ESC) {
      // ESC ESC: the first one was a lone Escape key press.
      this.#escape = '';
      return;
    }
    const code = character.codePointAt(0) ?? 0;
    if (sequence.length === 1) {
      // ESC [ … (CSI) and ESC O … (SS3) go on; ESC + a printable key (Alt+key) is consumed whole; ESC + a
      // control key was a lone Escape press followed by, say, Enter — which must still count.
      this.#escape = sequence === '[' || sequence === 'O' ? sequence : null;
      if (code < 0x20 || code === 0x7f) this.#take(character, actions);
      return;
    }
    const final = sequence.startsWith('O') || (code >= 0x40 && code <= 0x7e);
    if (final) {
      this.#escape = null;
      this.#sequence(sequence, actions);
      return;
    }
    if (code < 0x20 || code > 0x3f) {
      // Not part of a CSI sequence (parameters and intermediates are 0x20–0x3F): drop the sequence and treat
      // the character as typed, so a stray ESC cannot swallow a following Enter.
      this.#escape = null;
      this.#take(character, actions);
      return;
    }
    // Unknown sequences are consumed; one that never ends is given up after MAX_ESCAPE bytes.
    this.#escape = 1 + sequence.length >= MAX_ESCAPE ? null : sequence;
  }

  /** A complete CSI (`[…`) or SS3 (`O…`) sequence, without its ESC. */
  #sequence(sequence: string, actions: EditorAction[]): void {
    const final = sequence.at(-1);
    const parameter = sequence.slice(1, -1).split(';')[0] ?? '';
    switch (final) {
      case 'A':
        this.#edit(actions, () => this.#recall(this.#historyIndex - 1));
        return;
      case 'B':
        this.#edit(actions, () => this.#recall(this.#historyIndex + 1));
        return;
      case 'D':
        this.#edit(actions, () => this.#moveTo(this.#previousBoundary()));
        return;
      case 'C':
        this.#edit(actions, () => this.#moveTo(this.#nextBoundary()));
        return;
      case 'H':
        this.#edit(actions, () => this.#moveTo(0));
        return;
      case 'F':
        this.#edit(actions, () => this.#moveTo(this.#buffer.length));
        return;
      case '~':
        if (parameter === '1' || parameter === '7') this.#edit(actions, () => this.#moveTo(0));
        else if (parameter === '4' || parameter === '8') {
          this.#edit(actions, () => this.#moveTo(this.#buffer.length));
        } else if (parameter === '3') this.#edit(actions, () => this.#deleteForward());
        return;
      default:
        // Function keys, focus reports and the like.
        return;
    }
  }

  /** Runs `change`; asks for one redraw if the buffer or cursor moved (consecutive redraws are merged). */
  #edit(actions: EditorAction[], change: () => void): void {
    const before = `${this.#cursor}\u0000${this.#buffer}`;
    change();
    if (`${this.#cursor}\u0000${this.#buffer}` === before) return;
    if (actions.at(-1)?.kind !== 'redraw') actions.push({ kind: 'redraw' });
  }

  #submit(actions: EditorAction[]): void {
    actions.push({ kind: 'submit', line: this.#buffer });
    // A line recalled and sent again unchanged is not stored twice in a row.
    if (this.#buffer !== '' && this.#history.at(-1) !== this.#buffer) {
      this.#history.push(this.#buffer);
      if (this.#history.length > MAX_HISTORY) this.#history.shift();
    }
    this.#historyIndex = this.#history.length;
    this.#draft = '';
    this.#buffer = '';
    this.#cursor = 0;
  }

  /** Shows history entry `index` (the draft past the newest), cursor at its end; outside the range, nothing. */
  #recall(index: number): void {
    if (index < 0 || index > this.#history.length) return;
    if (this.#historyIndex === this.#history.length) this.#draft = this.#buffer;
    this.#historyIndex = index;
    this.#buffer = this.#history[index] ?? this.#draft;
    this.#cursor = this.#buffer.length;
  }

  #insert(text: string): void {
    this.#buffer = this.#buffer.slice(0, this.#cursor) + text + this.#buffer.slice(this.#cursor);
    this.#cursor += text.length;
  }

  #moveTo(offset: number): void {
    this.#cursor = offset;
  }

  #deleteBack(): void {
    const start = this.#previousBoundary();
    this.#buffer = this.#buffer.slice(0, start) + this.#buffer.slice(this.#cursor);
    this.#cursor = start;
  }

  #deleteForward(): void {
    this.#buffer = this.#buffer.slice(0, this.#cursor) + this.#buffer.slice(this.#nextBoundary());
  }

  #previousBoundary(): number {
    let previous = 0;
    for (const { index } of segmenter.segment(this.#buffer)) {
      if (index >= this.#cursor) break;
      previous = index;
    }
    return previous;
  }

  #nextBoundary(): number {
    for (const { index, segment } of segmenter.segment(this.#buffer)) {
      if (index + segment.length > this.#cursor) return index + segment.length;
    }
    return this.#buffer.length;
  }
}
