import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { guardSignals, type SignalTarget } from './signals.js';

function fakeProcess(platform = 'linux'): SignalTarget & EventEmitter & { calls: string[] } {
  const emitter = new EventEmitter() as EventEmitter & SignalTarget & { calls: string[] };
  Object.assign(emitter, {
    pid: 42,
    platform,
    calls: [] as string[],
    kill: (pid: number, signal: string) => emitter.calls.push(`kill ${pid} ${signal}`),
    exit: (code: number) => emitter.calls.push(`exit ${code}`),
  });
  return emitter;
}

describe('guardSignals', () => {
  test('rescues, removes its handlers and re-raises SIGTERM and SIGHUP', () => {
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      const target = fakeProcess();
      const order: string[] = [];
      guardSignals(() => order.push('rescue'), target);
      target.emit(signal);
      expect([...order, ...target.calls]).toEqual(['rescue', `kill 42 ${signal}`]);
      expect(target.listenerCount(signal)).toBe(0);
      expect(target.listenerCount('SIGINT')).toBe(0);
    }
  });

  test('says the farewell after the rescue and before the process ends', () => {
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
      const target = fakeProcess();
      const order: string[] = [];
      guardSignals(
        () => order.push('rescue'),
        target,
        (said) => order.push(`farewell ${said}`),
      );
      target.emit(signal);
      const end = signal === 'SIGINT' ? 'exit 130' : `kill 42 ${signal}`;
      expect([...order, ...target.calls]).toEqual(['rescue', `farewell ${signal}`, end]);
    }
  });

  test('a farewell that throws does not keep the process alive', () => {
    const target = fakeProcess();
    guardSignals(
      () => undefined,
      target,
      () => {
        throw new Error('terminal gone');
      },
    );
    target.emit('SIGHUP');
    expect(target.calls).toEqual(['kill 42 SIGHUP']);
  });

  test('rescues and exits 130 on SIGINT', () => {
    const target = fakeProcess();
    let rescued = 0;
    guardSignals(() => rescued++, target);
    target.emit('SIGINT');
    expect(rescued).toBe(1);
    expect(target.calls).toEqual(['exit 130']);
  });

  test('removes every handler on dispose and skips SIGHUP on Windows', () => {
    const target = fakeProcess();
    guardSignals(() => undefined, target).dispose();
    expect(target.eventNames()).toEqual([]);
    const windows = fakeProcess('win32');
    guardSignals(() => undefined, windows);
    expect(windows.eventNames().sort()).toEqual(['SIGINT', 'SIGTERM']);
  });
});
