import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { configDir, displayPath, homeDirectory, userEnvFile } from './config-dir.js';

describe('configDir', () => {
  test('uses $XDG_CONFIG_HOME/flower when set and non-empty', () => {
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/flower');
    expect(userEnvFile({ HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/flower/.env');
  });

  test('falls back to ~/.config/flower', () => {
    expect(configDir({ HOME: '/home/u', XDG_CONFIG_HOME: '' })).toBe('/home/u/.config/flower');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/flower');
  });

  test('falls back to the system home directory without HOME', () => {
    expect(homeDirectory({})).toBe(homedir());
    expect(configDir({})).toBe(join(homedir(), '.config', 'flower'));
  });
});

describe('displayPath', () => {
  test('shows the home directory as ~', () => {
    expect(displayPath('/home/u/.config/flower/.env', { HOME: '/home/u' })).toBe('~/.config/flower/.env');
    expect(displayPath('/home/u', { HOME: '/home/u' })).toBe('~');
    expect(displayPath('/home/user2/x', { HOME: '/home/u' })).toBe('/home/user2/x');
  });
});
