import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { guardRunSignals } from './interrupt-keys.js';
import type { SignalTarget } from './signals.js';

function fakeProcess(): SignalTarget & EventEmitter & { calls: string[] } {
  const emitter = new EventEmitter() as EventEmitter & SignalTarget & { calls: string[] };
  Object.assign(emitter, {
    pid: 42,
    platform: 'linux',
    calls: [] as string[],
    kill: (pid: number, signal: string) => emitter.calls.push(`kill ${pid} ${signal}`),
    exit: (code: number) => emitter.calls.push(`exit ${code}`),
  });
  return emitter;
}

describe('guardRunSignals', () => {
  test('with a live line, SIGINT is only the first stage: no rescue, no exit', () => {
    const target = fakeProcess();
    const calls: string[] = [];
    const signals = guardRunSignals({
      rescue: () => calls.push('rescue'),
      target,
      onInterrupt: () => calls.push('interrupt'),
    });
    target.emit('SIGINT');
    target.emit('SIGINT');
    expect(calls).toEqual(['interrupt', 'interrupt']);
    expect(target.calls).toEqual([]);
    expect(signals.exitCode).toBeNull();
  });

  test('quit rescues, removes every handler and exits 130, once', () => {
    const target = fakeProcess();
    const order: string[] = [];
    const signals = guardRunSignals({
      rescue: () => order.push('rescue'),
      target,
      onInterrupt: () => undefined,
    });
    signals.quit();
    signals.quit();
    expect([...order, ...target.calls]).toEqual(['rescue', 'exit 130']);
    expect(target.eventNames()).toEqual([]);
    expect(signals.exitCode).toBe(130);
  });

  test('without a live line the first SIGINT rescues and exits 130', () => {
    const target = fakeProcess();
    let rescued = 0;
    const signals = guardRunSignals({ rescue: () => rescued++, target, onInterrupt: null });
    target.emit('SIGINT');
    expect(rescued).toBe(1);
    expect(target.calls).toEqual(['exit 130']);
    expect(signals.exitCode).toBe(130);
  });

  test('SIGTERM and SIGHUP rescue and re-raise either way; dispose removes everything', () => {
    for (const onInterrupt of [null, () => undefined]) {
      const target = fakeProcess();
      let rescued = 0;
      const signals = guardRunSignals({ rescue: () => rescued++, target, onInterrupt });
      target.emit('SIGTERM');
      expect(rescued).toBe(1);
      expect(target.calls).toEqual(['kill 42 SIGTERM']);
      expect(signals.exitCode).toBe(143);
      signals.dispose();
      expect(target.eventNames()).toEqual([]);
    }
  });
});
