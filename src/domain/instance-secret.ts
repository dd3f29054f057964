import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { InstanceSetting } from './entities/instance-setting.entity.ts';

/**
 * A random secret made the first time it is asked for and shared by every API replica
 * through the database, so signed links work whichever replica serves them. The first
 * writer wins; everyone then reads the same value.
 */
export async function instanceSecret(em: EntityManager, key: string): Promise<string> {
  const fresh = randomBytes(32).toString('base64url');
  await em.getConnection().execute('insert into instance_settings (key, value, created_at) values (?, ?, now()) on conflict (key) do nothing', [key, fresh]);
  const row = await em.fork().findOneOrFail(InstanceSetting, { key });
  return row.value;
}
