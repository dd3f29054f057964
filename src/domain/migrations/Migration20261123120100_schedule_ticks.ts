import { Migration } from '@mikro-orm/migrations';

export class Migration20261123120100_schedule_ticks extends Migration {

  override name = 'Migration20261123120100_schedule_ticks';

  override up(): void | Promise<void> {
    this.addSql(`create table "schedule_ticks" ("schedule" varchar(100) not null, "last_tick_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("schedule"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "schedule_ticks" cascade;`);
  }

}
