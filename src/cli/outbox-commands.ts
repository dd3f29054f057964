import type { Config } from '../../config/env.ts';
import { openOrm } from '../domain/orm.ts';
import { notFound } from '../domain/shared/errors.ts';
import { dropParked, listParked, retryParked } from '../jobs/outbox-parked.ts';
import { UsageError } from './cli-error.ts';

type Flags = Record<string, string | boolean | undefined>;
type OutboxCommand = (em: Parameters<typeof listParked>[0], flags: Flags, args: string[]) => Promise<Record<string, unknown>>;

/**
 * Parked outbox rows: jobs the relay could not enqueue (a job name this release does not
 * declare, a payload that no longer parses). Operators list them, hand them back to the
 * relay once a fix is deployed, or give one up.
 */
const commands: Record<string, OutboxCommand> = {
  async 'outbox:parked'(em) {
    return { parked: await listParked(em) };
  },
  async 'outbox:retry'(em, flags, args) {
    if (flags.all) return { retried: await retryParked(em, 'all') };
    const id = oneId(args, 'outbox:retry <id> | --all');
    if ((await retryParked(em, { id })) === 0) throw notFound(`Parked outbox row ${id}`);
    return { retried: 1 };
  },
  async 'outbox:drop'(em, _flags, args) {
    const id = oneId(args, 'outbox:drop <id>');
    if (!(await dropParked(em, id))) throw notFound(`Parked outbox row ${id}`);
    return { dropped: 1 };
  },
};

export function isOutboxCommand(name: string | undefined): boolean {
  return name !== undefined && name in commands;
}

export async function runOutboxCommand(config: Config, name: string, flags: Flags, args: string[]): Promise<number> {
  const orm = await openOrm({ databaseUrl: config.databaseUrl, poolMax: 1 });
  try {
    const result = await commands[name]!(orm.em.fork(), flags, args);
    if (flags.json) console.log(JSON.stringify(result));
    else if (Array.isArray(result.parked)) console.table(result.parked.map((r) => ({ ...r, payload: JSON.stringify(r.payload) })));
    else console.log(Object.entries(result).map(([k, v]) => `${k}: ${String(v)}`).join('\n'));
    return 0;
  } finally {
    await orm.close(true);
  }
}

function oneId(args: string[], usage: string): string {
  if (args.length !== 1 || !args[0]!.trim()) throw new UsageError(`usage: bin/vellum ${usage}`);
  return args[0]!.trim();
}
