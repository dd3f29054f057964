import type { Config } from '../../config/env.ts';
import { startServer } from '../api/server.ts';
import { migrateDatabase, createMigration } from '../domain/migrate.ts';
import { closeRuntime, openRuntime } from '../runtime.ts';
import { onShutdown } from '../shutdown.ts';

type Flags = Record<string, string | boolean | undefined>;
/** Returns an exit code, or -1 for a long-running process that exits on a signal. */
type ProcessCommand = (config: Config, flags: Flags) => Promise<number>;

export const processCommands: Record<string, ProcessCommand> = {
  async serve(config) {
    const rt = await openRuntime('api', config);
    const http = await startServer(rt);
    onShutdown(rt.log, config.shutdownTimeoutMs, [() => http.close(), () => closeRuntime(rt)]);
    return -1;
  },
  async migrate(config, flags) {
    const applied = await migrateDatabase(config.databaseUrl);
    console.log(flags.json ? JSON.stringify({ applied }) : `migrations applied: ${applied.length ? applied.join(', ') : 'none (up to date)'}`);
    return 0;
  },
  async 'migration:create'(config, flags) {
    const name = typeof flags.name === 'string' ? flags.name : undefined;
    const file = await createMigration(config.databaseUrl, name);
    console.log(file ? `written ${file}; add it to src/domain/migrations/index.ts` : 'no schema changes');
    return 0;
  },
};
