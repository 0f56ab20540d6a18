/**
 * The stream a run's renderer writes to. It forwards every write to a target that can change while the
 * renderer lives: the terminal at first (credential lines, the wake banner), then the live input line's
 * output while the run is on — so each event lands above the prompt instead of through it — and the terminal
 * again once the line is closed. The renderer is created before the line exists (setup may have to run
 * first), and it must stay one renderer for the whole run (decisions.md D203), hence a relay rather than
 * a second renderer.
 *
 * @module
 */
import { Writable } from 'node:stream';

/** Where the relay writes: a stream, or anything with the same `write`. */
export interface RelayTarget {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** A writable stream with the terminal facts of its base target, and a switchable destination. */
export type OutputRelay = NodeJS.WritableStream & {
  readonly isTTY?: boolean;
  readonly columns?: number;
  /** Sends later writes to `target`; `null` sends them to the base target again. */
  redirect(target: RelayTarget | null): void;
};

/**
 * A relay that writes to `base` until redirected. Writes are forwarded synchronously and in order (the
 * write callback is called at once), so a line written just before a redirect never lands after it.
 * `isTTY` and `columns` always describe `base`: that is the terminal the lines end up on.
 */
export function createOutputRelay(base: RelayTarget): OutputRelay {
  let target: RelayTarget = base;
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      target.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  Object.defineProperty(stream, 'isTTY', { get: () => base.isTTY, enumerable: true });
  Object.defineProperty(stream, 'columns', { get: () => base.columns, enumerable: true });
  Object.defineProperty(stream, 'redirect', {
    value: (next: RelayTarget | null): void => {
      target = next ?? base;
    },
  });
  return stream as unknown as OutputRelay;
}
