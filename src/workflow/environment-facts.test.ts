import { describe, expect, test } from 'vitest';
import { environmentFacts, type VersionReader } from './environment-facts.js';

describe('environmentFacts', () => {
  test('lists OS, architecture and the first version found for each toolchain', () => {
    const asked: string[] = [];
    const readVersion: VersionReader = (command) => {
      asked.push(command);
      return (
        { node: 'v20.1.0', git: 'git version 2.40.0', python: 'Python 2.7.18', clang: 'clang 15' }[command] ??
        null
      );
    };
    const facts = environmentFacts({ readVersion });
    expect(facts).toMatch(/^## Where this runs/);
    expect(facts).toMatch(/\n- Operating system: \S+/);
    expect(facts).toMatch(/\n- Architecture: \S+/);
    expect(facts).toContain('\n- node: v20.1.0');
    expect(facts).toContain('\n- git: git version 2.40.0');
    expect(facts).toContain('\n- python: Python 2.7.18');
    expect(facts).toContain('\n- cc: clang 15');
    expect(asked).toEqual(['node', 'git', 'python3', 'python', 'cc', 'gcc', 'clang']);
  });

  test('says what is missing and never throws, whatever the programs do', () => {
    const facts = environmentFacts({
      readVersion: (command) => {
        if (command === 'git') throw new Error('spawn failed');
        return null;
      },
    });
    expect(facts).toContain('\n- git: not found on PATH');
    expect(facts).toContain('\n- cc: not found on PATH');
  });

  test('reads real versions from PATH, the running node among them', () => {
    const facts = environmentFacts();
    expect(facts).toMatch(/\n- node: v\d+\.\d+\.\d+/);
    expect(environmentFacts()).toBe(facts);
  });
});
