import { openOrm } from './orm.ts';

/** Creates the database when it does not exist yet, then applies pending migrations in one transaction. */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  const orm = await openOrm({ databaseUrl, poolMax: 2 });
  try {
    await orm.schema.ensureDatabase({ create: true });
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } finally {
    await orm.close(true);
  }
}

/**
 * Writes a migration for the difference between the entities and the database once every
 * existing migration is applied to it (development).
 */
export async function createMigration(databaseUrl: string, name?: string): Promise<string | null> {
  const orm = await openOrm({ databaseUrl, poolMax: 2 });
  try {
    await orm.schema.ensureDatabase({ create: true });
    await orm.migrator.up();
    const result = await orm.migrator.create(undefined, false, false, name);
    return result.diff.up.length > 0 ? result.fileName : null;
  } finally {
    await orm.close(true);
  }
}
