/**
 * Ctrl-C read as a key, for commands without a live input line (`once`, `demo`) on a terminal. In the
 * terminal's ordinary mode Ctrl-C is a SIGINT to the whole foreground process group — the Claude Code child
 * included, whose turn it breaks off (a retry then follows) — so a first press that only warns would already
 * have cost the agent its turn. In character mode the key arrives as the byte 0x03 and only flower sees it.
 * Other keys are read and dropped: nothing typed there goes anywhere.
 *
 * @module
 */

/** A terminal's input: a stream that can switch to character mode. */
export type KeyInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** A running watch; `close()` restores the terminal's mode (idempotent). */
export interface KeyWatch {
  close(): void;
}

const CTRL_C = 0x03;

/** Calls `onPress` for each Ctrl-C typed on `input`; null when `input` is not a terminal. */
export function watchInterruptKey(input: KeyInput | undefined, onPress: () => void): KeyWatch | null {
  if (input === undefined || input.isTTY !== true || typeof input.setRawMode !== 'function') return null;
  const setRaw = (mode: boolean): void => {
    try {
      input.setRawMode?.(mode);
    } catch {
      // A terminal that went away cannot be restored; there is nothing left to protect.
    }
  };
  const onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const byte of bytes) if (byte === CTRL_C) onPress();
  };
  const restore = (): void => setRaw(false);
  setRaw(true);
  process.on('exit', restore);
  input.on('data', onData);
  input.resume();
  let open = true;
  return {
    close(): void {
      if (!open) return;
      open = false;
      input.off('data', onData);
      restore();
      process.off('exit', restore);
      input.pause();
    },
  };
}
