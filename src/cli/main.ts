import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config/env.ts';
import { openOrm } from '../domain/orm.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { adminCommands } from './admin-commands.ts';
import { runConversationsCommand } from './conversation-commands.ts';
import { UsageError } from './cli-error.ts';
import { isOutboxCommand, runOutboxCommand } from './outbox-commands.ts';
import { processCommands } from './process-commands.ts';

const USAGE = `Usage: bin/vellum <command> [options]

Processes:
  serve                               run the HTTP API
  work [--queues a,b] [--concurrency N]  run background workers
  schedule                            run the scheduler (recurring jobs)
  start                               API, workers and scheduler in one process (development)
  migrate                             create the database if missing and apply migrations
  migration:create [--name N]         write a migration for entity changes (development)
  queues [--json]                     job counts per queue, and parked outbox rows
  outbox:parked [--json]              outbox rows that could not be enqueued, with their reason
  outbox:retry <id> | --all           hand parked rows back to the relay
  outbox:drop <id>                    give up a parked row's job

Administration (each prints one JSON object with --json):
  users create --email E [--name N]
  orgs create --title T --owner EMAIL_OR_USER_ID
  members add --org ORG_ID --user EMAIL_OR_USER_ID --role ROLE
  tokens create --user EMAIL_OR_USER_ID
  integrations install --org ORG_ID --name NAME
  demo                                create (or reuse) a demo organization and print a token

Conversations:
  conversations recluster --org ORG [--json]  re-cluster the organization's issues now (a job on
                                      the conversations queue); waits, prints cluster count and duration`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  email: { type: 'string' },
  name: { type: 'string' },
  title: { type: 'string' },
  owner: { type: 'string' },
  org: { type: 'string' },
  user: { type: 'string' },
  role: { type: 'string' },
  queues: { type: 'string' },
  concurrency: { type: 'string' },
  all: { type: 'boolean' },
} as const;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  const config = loadConfig();
  const two = positionals.slice(0, 2).join(' ');
  const admin = adminCommands[two] ?? adminCommands[positionals[0]!];
  if (admin) {
    const orm = await openOrm({ databaseUrl: config.databaseUrl, poolMax: 2 });
    try {
      const result = await admin(orm.em.fork(), values);
      console.log(values.json ? JSON.stringify(result) : formatHuman(result));
      return 0;
    } finally {
      await orm.close(true);
    }
  }
  if (positionals[0] === 'conversations') return runConversationsCommand(config, positionals[1], values);
  if (isOutboxCommand(positionals[0])) return runOutboxCommand(config, positionals[0]!, values, positionals.slice(1));
  const command = processCommands[positionals[0]!];
  if (!command) throw new UsageError(`unknown command "${positionals.join(' ')}" (see bin/vellum --help)`);
  return command(config, values);
}

function formatHuman(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join('\n');
}

/** One line on stderr for anything the caller can fix; a stack only for real bugs. */
function report(err: unknown): number {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof DomainError) {
    console.error(`vellum: ${err.message}`);
    return err instanceof UsageError ? 2 : 1;
  }
  if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
    console.error(`vellum: ${err.message}`);
    return 2;
  }
  if (err instanceof UniqueConstraintViolationException) {
    console.error('vellum: that would duplicate an existing record');
    return 1;
  }
  // Driver errors can span lines; the contract is one line.
  const message = err instanceof Error ? err.message : String(err);
  console.error(`vellum: ${message.split('\n')[0]}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    // Long-running commands return -1 and keep the process alive until a signal.
    if (code >= 0) process.exit(code);
  },
  (err) => process.exit(report(err)),
);
