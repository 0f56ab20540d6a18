import { describe, expect, test } from 'vitest';
import { sameSpeaker, speakerName, speakerOf } from './speaker.js';

describe('speakerOf', () => {
  test('names the go path roles from the step labels the runtime puts on events', () => {
    expect(speakerOf('work/verdict#2')).toEqual({ role: 'judge', round: 2 });
    expect(speakerOf('干活·判定#3')).toEqual({ role: 'judge', round: 3 });
    expect(speakerOf('work')).toEqual({ role: 'coordinator', round: null });
    expect(speakerOf('work#round2')).toEqual({ role: 'coordinator', round: null });
    expect(speakerOf('clarify')).toEqual({ role: 'clarifier', round: null });
    expect(speakerOf('goal')).toEqual({ role: 'goal', round: null });
    expect(speakerOf('bequest')).toEqual({ role: 'bequest', round: null });
    expect(speakerOf('aside')).toEqual({ role: 'oracle', round: null });
  });

  test('leaves a step of a user workflow to its step header, but names its judge', () => {
    expect(speakerOf('build')).toBeNull();
    expect(speakerOf('ad-hoc')).toBeNull();
    expect(speakerOf(null)).toBeNull();
    expect(speakerOf('build/verdict#1')).toEqual({ role: 'judge', round: 1 });
  });
});

describe('speakerName', () => {
  test('says the judge round in English and Chinese', () => {
    expect(speakerName({ role: 'judge', round: 2 })).toBe('judge · round 2');
    expect(speakerName({ role: 'judge', round: 2 }, 'zh')).toBe('评审 · 第 2 轮');
    expect(speakerName({ role: 'oracle', round: null })).toBe('oracle');
    expect(speakerName({ role: 'coordinator', round: null }, 'zh')).toBe('协调者');
  });

  test('compares role and round', () => {
    expect(sameSpeaker({ role: 'judge', round: 1 }, { role: 'judge', round: 2 })).toBe(false);
    expect(sameSpeaker(speakerOf('work'), speakerOf('work#round2'))).toBe(true);
    expect(sameSpeaker(null, speakerOf('work'))).toBe(false);
  });
});
