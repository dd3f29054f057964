import { Migration } from '@mikro-orm/migrations';

export class Migration20261121211453_job_outbox extends Migration {

  override name = 'Migration20261121211453_job_outbox';

  override up(): void | Promise<void> {
    this.addSql(`create table "job_outbox" ("id" varchar(20) not null, "queue" varchar(64) not null, "name" varchar(128) not null, "payload" jsonb not null, "delay_ms" int not null default 0, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "job_outbox_created_at_index" on "job_outbox" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "job_outbox" cascade;`);
  }

}
