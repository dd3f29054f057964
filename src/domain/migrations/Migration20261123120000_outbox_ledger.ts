import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox becomes the ledger of accepted work: a row stays until its job has finished
 * (`enqueued_at` says it reached its queue), a row that cannot be enqueued is parked with
 * its reason, and relays and reconcilers claim rows for a short lease instead of holding
 * row locks across Redis calls.
 */
export class Migration20261123120000_outbox_ledger extends Migration {

  override name = 'Migration20261123120000_outbox_ledger';

  override up(): void | Promise<void> {
    this.addSql(`alter table "job_outbox" add column "enqueued_at" timestamptz null, add column "claimed_until" timestamptz null, add column "parked_at" timestamptz null, add column "park_code" varchar(32) null, add column "park_reason" varchar(2000) null;`);
    this.addSql(`drop index "job_outbox_created_at_index";`);
    // Each scan reads only its own rows: the relay the ones not yet enqueued, the
    // reconciler the enqueued ones, operators the parked ones.
    this.addSql(`create index "job_outbox_relay_index" on "job_outbox" ("created_at") where "enqueued_at" is null and "parked_at" is null;`);
    this.addSql(`create index "job_outbox_reconcile_index" on "job_outbox" ("enqueued_at") where "enqueued_at" is not null and "parked_at" is null;`);
    this.addSql(`create index "job_outbox_parked_index" on "job_outbox" ("parked_at") where "parked_at" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "job_outbox_parked_index";`);
    this.addSql(`drop index "job_outbox_reconcile_index";`);
    this.addSql(`drop index "job_outbox_relay_index";`);
    this.addSql(`create index "job_outbox_created_at_index" on "job_outbox" ("created_at");`);
    this.addSql(`alter table "job_outbox" drop column "enqueued_at", drop column "claimed_until", drop column "parked_at", drop column "park_code", drop column "park_reason";`);
  }

}
