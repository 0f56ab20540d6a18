// Fails any unit test whose code under test prints to the console: library code never prints, it emits
// events to renderers. Tests that check a renderer pass their own output stream.
import { afterEach, beforeEach } from 'vitest';

const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let printed: string[] = [];
const originals = new Map<(typeof methods)[number], (...args: unknown[]) => void>();

beforeEach(() => {
  printed = [];
  for (const method of methods) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- Node binds console's methods; restoring needs the very same function
    originals.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      printed.push(`console.${method}: ${args.map(String).join(' ')}`);
    };
  }
});

afterEach(() => {
  for (const method of methods) {
    const original = originals.get(method);
    if (original) console[method] = original;
  }
  if (printed.length > 0) {
    throw new Error(`code under test printed to the console:\n${printed.join('\n')}`);
  }
});
