import { Migration } from '@mikro-orm/migrations';

export class Migration20261121214129_import_runs extends Migration {

  override name = 'Migration20261121214129_import_runs';

  override up(): void | Promise<void> {
    this.addSql(`create table "import_runs" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "space_id" varchar(20) not null, "parent_page" varchar(20) null, "source_url" varchar(2048) not null, "status" varchar(16) not null default 'pending', "error" varchar(2000) null, "pages" jsonb not null, "created_at" timestamptz not null, "started_at" timestamptz null, "completed_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "import_runs_organization_id_created_at_index" on "import_runs" ("organization_id", "created_at");`);

    this.addSql(`alter table "import_runs" add constraint "import_runs_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "import_runs" add constraint "import_runs_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "import_runs" cascade;`);
  }

}
