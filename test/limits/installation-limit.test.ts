// seed 000, "Scaling of installation limits": 5,000 + 50 per repository and per user beyond 20, at most 12,500.
import { describe, expect, it } from 'vitest';
import { installationLimit } from '../../src/limits/installation-limit.js';
import { config } from './support.js';

const rule = config.primary.callers.installation;

describe('installationLimit', () => {
  it('gives 7,000 to an installation on 50 repositories with 30 users', () => {
    expect(installationLimit({ repositoriesCount: 50, usersCount: 30 }, rule)).toBe(7000);
  });
  it('caps at 12,500 for 300 repositories and 300 users', () => {
    expect(installationLimit({ repositoriesCount: 300, usersCount: 300 }, rule)).toBe(12500);
  });
  it('gives the minimum 5,000 up to 20 repositories and 20 users', () => {
    expect(installationLimit({ repositoriesCount: 20, usersCount: 20 }, rule)).toBe(5000);
    expect(installationLimit({}, rule)).toBe(5000);
  });
  it('adds 50 for the 21st repository and 50 for the 21st user', () => {
    expect(installationLimit({ repositoriesCount: 21 }, rule)).toBe(5050);
    expect(installationLimit({ usersCount: 21 }, rule)).toBe(5050);
  });
  it('reaches the ceiling exactly at 150 repositories beyond 20 (5,000 + 7,500)', () => {
    expect(installationLimit({ repositoriesCount: 169 }, rule)).toBe(12450);
    expect(installationLimit({ repositoriesCount: 170 }, rule)).toBe(12500);
    expect(installationLimit({ repositoriesCount: 171 }, rule)).toBe(12500);
  });
  it('gives 15,000 on an enterprise-cloud organization, whatever the counts', () => {
    expect(installationLimit({ enterpriseCloud: true }, rule)).toBe(15000);
    expect(installationLimit({ enterpriseCloud: true, repositoriesCount: 300, usersCount: 300 }, rule)).toBe(
      15000,
    );
  });

  it('throws TOLLGATE_INVALID_TOKEN naming a count that is not a non-negative integer', () => {
    const bad: [string, unknown][] = [
      ['repositoriesCount', Number.NaN],
      ['repositoriesCount', Number.POSITIVE_INFINITY],
      ['repositoriesCount', -1],
      ['repositoriesCount', 2.5],
      ['repositoriesCount', '50'],
      ['usersCount', Number.NaN],
      ['usersCount', '30'],
    ];
    for (const [name, value] of bad) {
      const shown = typeof value === 'string' ? `"${value}"` : String(value);
      expect(() => installationLimit({ [name]: value } as never, rule)).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_TOKEN',
          message: expect.stringContaining(`\`${shown}\``),
        }),
      );
    }
  });
});
