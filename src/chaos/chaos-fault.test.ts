import { describe, expect, test } from 'vitest';
import { CHAOS_FAULTS, unrecordedReason } from './chaos-fault.js';

describe('unrecordedReason', () => {
  test('only a SIGKILL and a full disk may leave a served answer in no record', () => {
    const setAside = CHAOS_FAULTS.filter((fault) => unrecordedReason(fault) !== null);
    expect(setAside).toEqual(['sigkill', 'disk-full']);
    expect(unrecordedReason('disk-full')).toBe('in no record: served while the run directory was full');
    expect(unrecordedReason('sigkill')).toBe('in no record when the process group was killed');
  });
});
