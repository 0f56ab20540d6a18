/**
 * A push-to-pull bridge for `Runtime.runStream`: the runtime pushes events synchronously (sinks must not
 * block), a reader pulls them with `for await`. Unbounded on purpose: a slow reader must never slow a step.
 *
 * @module
 */
import type { FlowerEvent } from '../events/flower-event.js';

/** The pushing side and the iterable side of one stream. `push` and `end` need no `this`: pass them as sinks. */
export interface EventStream {
  push: (event: FlowerEvent) => void;
  end: () => void;
  events: AsyncIterable<FlowerEvent>;
}

/** A new, open stream. Events pushed after `end()` are dropped. */
export function eventStream(): EventStream {
  const queue: FlowerEvent[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const signal = (): void => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  return {
    push(event) {
      if (ended) return;
      queue.push(event);
      signal();
    },
    end() {
      ended = true;
      signal();
    },
    events: {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const next = queue.shift();
          if (next !== undefined) {
            yield next;
            continue;
          }
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    },
  };
}
