import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm, type Orm } from '../../src/domain/orm.ts';
import { testDatabaseUrl } from '../support/test-env.ts';

/**
 * Migrations are written by hand as often as generated: the database they build must be
 * the one the entities describe, or the ORM writes columns that are not there.
 */
let orm: Orm;
beforeAll(async () => {
  orm = await openOrm({ databaseUrl: testDatabaseUrl(), poolMax: 1 });
});
afterAll(() => orm.close(true));

describe('migrations', () => {
  it('build exactly the schema the entities describe', async () => {
    const drift = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: false });
    expect(drift.trim()).toBe('');
  });
});
