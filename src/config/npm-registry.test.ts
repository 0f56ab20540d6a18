import { describe, expect, test } from 'vitest';
import { DEFAULT_NPM_REGISTRY, latestVersionUrl, npmRegistry } from './npm-registry.js';

describe('npmRegistry', () => {
  test('uses npm_config_registry, with or without its trailing slash', () => {
    expect(npmRegistry({ npm_config_registry: 'http://127.0.0.1:4873' })).toBe('http://127.0.0.1:4873/');
    expect(npmRegistry({ npm_config_registry: 'https://mirror.example/npm/' })).toBe(
      'https://mirror.example/npm/',
    );
    expect(npmRegistry({ NPM_CONFIG_REGISTRY: 'http://upper.example' })).toBe('http://upper.example/');
  });

  test('falls back to the public registry when unset or empty', () => {
    expect(npmRegistry({})).toBe(DEFAULT_NPM_REGISTRY);
    expect(npmRegistry({ npm_config_registry: '  ' })).toBe(DEFAULT_NPM_REGISTRY);
  });

  test('asks for the latest dist-tag document, encoding a scope slash', () => {
    expect(latestVersionUrl('http://r.example/', 'flower-agent')).toBe(
      'http://r.example/flower-agent/latest',
    );
    expect(latestVersionUrl('http://r.example/', '@scope/pkg')).toBe('http://r.example/@scope%2fpkg/latest');
  });
});
