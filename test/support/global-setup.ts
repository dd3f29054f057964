import { MikroORM } from '@mikro-orm/postgresql';
import { migrateDatabase } from '../../src/domain/migrate.ts';
import { testDatabaseUrl } from './test-env.ts';

/** Once per run: a fresh test database built by the committed migrations, so they are tested too. */
export default async function setup() {
  const url = testDatabaseUrl();
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const orm = await MikroORM.init({ clientUrl: admin.toString(), entities: [], discovery: { warnWhenNoEntities: false } });
  await orm.em.getConnection().execute(`drop database if exists "${name}" with (force)`);
  await orm.close(true);
  await migrateDatabase(url);
}
