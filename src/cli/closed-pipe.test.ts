import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { CLOSED_PIPE_EXIT_CODE, exitQuietlyOnClosedPipe } from './closed-pipe.js';
import { guardSignals, type SignalTarget } from './signals.js';

function pipeError(code: string): Error {
  return Object.assign(new Error(`write ${code}`), { code });
}

const idleTarget: SignalTarget = {
  pid: 1,
  platform: 'linux',
  on: () => undefined,
  off: () => undefined,
  kill: () => undefined,
  exit: () => undefined,
};

describe('exitQuietlyOnClosedPipe', () => {
  test('ends with 0 on EPIPE when no run is going, once for both streams', () => {
    const stdout = new EventEmitter();
    const stderr = new EventEmitter();
    const codes: number[] = [];
    exitQuietlyOnClosedPipe([stdout, stderr], (code) => codes.push(code));
    stdout.emit('error', pipeError('EPIPE'));
    stderr.emit('error', pipeError('EPIPE'));
    expect(codes).toEqual([0]);
  });

  test('rescues a run in progress and ends with 141', () => {
    const stream = new EventEmitter();
    const codes: number[] = [];
    let rescued = 0;
    const guard = guardSignals(() => rescued++, idleTarget);
    exitQuietlyOnClosedPipe([stream], (code) => codes.push(code));
    stream.emit('error', pipeError('EPIPE'));
    guard.dispose();
    expect(rescued).toBe(1);
    expect(codes).toEqual([CLOSED_PIPE_EXIT_CODE]);
  });

  test('a disposed guard no longer counts as a run in progress', () => {
    const stream = new EventEmitter();
    const codes: number[] = [];
    guardSignals(() => undefined, idleTarget).dispose();
    exitQuietlyOnClosedPipe([stream], (code) => codes.push(code));
    stream.emit('error', pipeError('EPIPE'));
    expect(codes).toEqual([0]);
  });

  test('throws any other stream error again', () => {
    const stream = new EventEmitter();
    exitQuietlyOnClosedPipe([stream], () => undefined);
    expect(() => stream.emit('error', pipeError('EIO'))).toThrow('write EIO');
  });
});
