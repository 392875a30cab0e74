// src/limits stays pure (DESIGN.md section 7): no node:* imports, no system clock, no randomness,
// and nothing but types from the policy side.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../src/limits/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));
const code = (name: string) =>
  readFileSync(new URL(name, dir), 'utf8')
    // Comments may mention what callers do (`Date.now()` in an example); only code counts.
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');

describe('src/limits boundaries', () => {
  it('has files to check', () => expect(files.length).toBeGreaterThan(10));

  it.each(files)('%s imports no node:* module, reads no clock, draws no random number', (name) => {
    const text = code(name);
    expect(text).not.toMatch(/from ['"]node:/);
    expect(text).not.toMatch(/\bDate\.now\b|\bperformance\.now\b|new Date\(\)/);
    expect(text).not.toMatch(/Math\.random/);
  });

  it.each(files)('%s imports only types from src/policy', (name) => {
    for (const line of code(name)
      .split('\n')
      .filter((l) => /from ['"]\.\.\/policy\//.test(l))) {
      expect(line).toMatch(/^import type /);
    }
  });
});
