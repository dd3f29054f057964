import { Migration } from '@mikro-orm/migrations';

export class Migration20261121213932_git_imports extends Migration {

  override name = 'Migration20261121213932_git_imports';

  override up(): void | Promise<void> {
    this.addSql(`create table "git_imports" ("id" varchar(20) not null, "space_id" varchar(20) not null, "url" varchar(2048) not null, "ref" varchar(255) not null, "project_directory" varchar(1024) null, "standalone" boolean not null default false, "status" varchar(16) not null default 'pending', "error" varchar(2000) null, "revision" varchar(20) null, "created_at" timestamptz not null, "finished_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "git_imports_space_id_created_at_index" on "git_imports" ("space_id", "created_at");`);

    this.addSql(`alter table "git_imports" add constraint "git_imports_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "git_imports" cascade;`);
  }

}
