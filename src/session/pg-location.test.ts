import { describe, expect, test } from 'vitest';

import { FlowerError } from '../errors.js';
import { isPgLocation, parsePgLocation, redactPgLocation } from './pg-location.js';

describe('PostgreSQL store locations', () => {
  test('recognises postgres:// and postgresql:// only', () => {
    expect(isPgLocation('postgres://h/db')).toBe(true);
    expect(isPgLocation('POSTGRESQL://h/db')).toBe(true);
    expect(isPgLocation('/runs/sessions.db')).toBe(false);
    expect(isPgLocation('mysql://h/db')).toBe(false);
  });

  test('redacts the password and secret parameters, keeps the rest', () => {
    const redacted = redactPgLocation(
      'postgres://ann:hunter2@db.example:5433/runs?sslpassword=pw9&schema=team',
    );
    expect(redacted).not.toContain('hunter2');
    expect(redacted).not.toContain('pw9');
    expect(redacted).toContain('ann:***@db.example:5433/runs');
    expect(redacted).toContain('schema=team');
    expect(redactPgLocation('postgres://ann@db/runs')).toBe('postgres://ann@db/runs');
  });

  test('redacts even a location that does not parse', () => {
    expect(redactPgLocation('postgres://ann:hunter2@[bad/runs')).not.toContain('hunter2');
  });

  test('takes the schema from ?schema= and leaves it out of the connection string', () => {
    const parsed = parsePgLocation('postgres://ann:hunter2@db/runs?schema=team_a&application_name=x');
    expect(parsed.schema).toBe('team_a');
    expect(parsed.connectionString).toBe('postgres://ann:hunter2@db/runs?application_name=x');
    expect(parsed.redacted).not.toContain('hunter2');
    expect(parsePgLocation('postgres://db/runs').schema).toBe('flower');
  });

  test("leaves the run's name (?run=) out of the connection string: the driver must not see it", () => {
    expect(parsePgLocation('postgres://db/runs?run=nightly&application_name=x').connectionString).toBe(
      'postgres://db/runs?application_name=x',
    );
  });

  test('refuses a schema name that would need quoting, without showing the password', () => {
    for (const schema of ['Team', 'a-b', 'x;drop', '1abc', '']) {
      const attempt = () =>
        parsePgLocation(`postgres://ann:hunter2@db/runs?schema=${encodeURIComponent(schema)}`);
      expect(attempt).toThrow(FlowerError);
      expect(attempt).toThrow(/schema/);
      expect(attempt).not.toThrow(/hunter2/);
    }
  });

  test('refuses what is not a PostgreSQL URL, without showing the password', () => {
    const attempt = () => parsePgLocation('mysql://ann:hunter2@db/runs');
    expect(attempt).toThrow(/not a PostgreSQL URL/);
    expect(attempt).not.toThrow(/hunter2/);
  });
});
