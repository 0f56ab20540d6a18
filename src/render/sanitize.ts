/**
 * Control-sequence hygiene for terminal output (docs/cli.md): text from a model or a tool must
 * not move the cursor, retitle the window or hide output, so only colour (SGR) sequences may survive.
 *
 * @module
 */

// One pass, left to right, so a kept colour sequence is consumed whole before its ESC could be taken for a
// control character. Branches: OSC (to BEL or ST); DCS/SOS/PM/APC (to ST); CSI; a two-byte escape or a
// lone ESC; tab; any other C0 control (line breaks included: callers split lines first), DEL or C1.
const ESCAPES =
  // eslint-disable-next-line no-control-regex -- matching control sequences is the point
  /\x1b\][\s\S]*?(?:\x07|\x1b\\|$)|\x1b[PX^_][\s\S]*?(?:\x1b\\|$)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[ -~]?|\t|[\x00-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex -- matching colour sequences is the point
const SGR = /^\x1b\[[0-9;]*m$/;

/**
 * One line made safe to print: OSC, DCS/SOS/PM/APC, non-SGR CSI, two-byte escapes and lone ESC removed;
 * tab → space; other C0, DEL and C1 characters dropped. SGR colour sequences are kept when `keepColor` is
 * true (the renderer's own colours) and removed otherwise (text coming from a model or a tool).
 */
export function sanitizeLine(text: string, options: { keepColor?: boolean } = {}): string {
  const keepColor = options.keepColor ?? false;
  return text.replace(ESCAPES, (match) => {
    if (match === '\t') return ' ';
    return keepColor && SGR.test(match) ? match : '';
  });
}

/** Text from a model or a tool as plain lines: split at every line break, each line sanitised, colour removed. */
export function plainLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((line) => sanitizeLine(line));
}
