import { Migration } from '@mikro-orm/migrations';

/**
 * Each organization's clustering state: the encoded cluster model workers place new issues
 * with, and the counters and flags that decide the next full re-clustering.
 */
export class Migration20261123150000_conversation_clusterings extends Migration {

  override name = 'Migration20261123150000_conversation_clusterings';

  override up(): void | Promise<void> {
    this.addSql(`create table "conversation_clusterings" ("organization_id" varchar(20) not null, "version" int not null default 0, "model" bytea null, "cluster_ids" jsonb not null, "issues" int not null default 0, "new_issues" int not null default 0, "requested_at" timestamptz null, "started_at" timestamptz null, "clustered_at" timestamptz null, "duration_ms" int null, primary key ("organization_id"));`);
    this.addSql(`alter table "conversation_clusterings" add constraint "conversation_clusterings_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    // Issues extracted before this table existed are new to clustering: the schedule takes them up.
    this.addSql(`insert into "conversation_clusterings" ("organization_id", "cluster_ids", "new_issues")
      select "organization_id", '[]'::jsonb, count(*)::int from "conversation_issues" group by "organization_id";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "conversation_clusterings" cascade;`);
  }

}
