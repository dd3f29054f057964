import { Migrator } from '@mikro-orm/migrations';
import { defineConfig } from '@mikro-orm/postgresql';
import { fileURLToPath } from 'node:url';
import { DATABASE_CONNECT_TIMEOUT_MS, watchConnectivity } from '../src/domain/database-connectivity.ts';
import { entities } from '../src/domain/entities/index.ts';
import { migrationsList } from '../src/domain/migrations/index.ts';

const migrationsPath = fileURLToPath(new URL('../src/domain/migrations', import.meta.url));

export type OrmOptions = { databaseUrl: string; debug?: boolean; poolMax?: number };

/** The one MikroORM configuration shared by the API, workers, CLI and tests. */
export function ormConfig(opts: OrmOptions) {
  return defineConfig({
    clientUrl: opts.databaseUrl,
    entities,
    extensions: [Migrator],
    // Entities are declared with defineEntity: nothing to discover from TypeScript metadata.
    discovery: { warnWhenNoEntities: true },
    // The global EntityManager is never used: each request and job forks its own, so no
    // identity map is shared between them.
    allowGlobalContext: false,
    debug: opts.debug ?? false,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    // An unreachable database fails requests in seconds, as errors the API can tell apart (503).
    driverOptions: { connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS, onPoolCreated: watchConnectivity },
    migrations: {
      path: migrationsPath,
      pathTs: migrationsPath,
      migrationsList,
      emit: 'ts',
      // No snapshot: migrations are often written by hand, which leaves a snapshot stale, so
      // `migration:create` diffs the entities against the migrated database itself.
      snapshot: false,
      transactional: true,
      // Progress goes through our own output; the migrator's console lines would corrupt --json.
      silent: true,
      allOrNothing: true,
    },
  });
}
