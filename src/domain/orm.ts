import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig, type OrmOptions } from '../../config/mikro-orm.config.ts';

export type Orm = Awaited<ReturnType<typeof openOrm>>;

export async function openOrm(opts: OrmOptions) {
  return MikroORM.init(ormConfig(opts));
}

export { EntityManager } from '@mikro-orm/postgresql';
