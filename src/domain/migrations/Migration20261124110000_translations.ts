import { Migration } from '@mikro-orm/migrations';

/**
 * Translations: the translation itself (with its stats and last run), its run history (at
 * most one run queued or running per translation), the per-page translations kept between
 * runs (incremental re-runs and checkpoints), and the organization's glossary.
 */
export class Migration20261124110000_translations extends Migration {

  override name = 'Migration20261124110000_translations';

  override up(): void | Promise<void> {
    this.addSql(`create table "translation_glossary_entries" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "translations" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "translation_glossary_entries_organization_id_creat_a38e4_index" on "translation_glossary_entries" ("organization_id", "created_at", "id");`);
    this.addSql(`create table "translations" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "source_space_id" varchar(20) not null, "source_language" varchar(8) not null, "language" varchar(8) not null, "instructions" jsonb not null, "status" varchar(16) not null default 'pending', "result_space_id" varchar(20) null, "result_revision" varchar(20) null, "runs" int not null default 0, "total_words" int not null default 0, "total_pages" int not null default 0, "total_duration" int not null default 0, "latest_run_duration" int not null default 0, "latest_pages" int not null default 0, "latest_words" int not null default 0, "last_run" jsonb null, "follow_up" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "translations_organization_id_created_at_id_index" on "translations" ("organization_id", "created_at", "id");`);
    this.addSql(`create table "translation_pages" ("translation_id" varchar(20) not null, "source_page" varchar(20) not null, "source_hash" varchar(64) not null, "result_page" varchar(20) not null, "title" text not null, "description" text null, "markdown" text null, "words" int not null default 0, "run" varchar(20) not null, "updated_at" timestamptz not null, primary key ("translation_id", "source_page"));`);
    this.addSql(`create table "translation_runs" ("id" varchar(20) not null, "translation_id" varchar(20) not null, "status" varchar(16) not null default 'queued', "provider" varchar(32) null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, "pages" int not null default 0, "words" int not null default 0, "duration_ms" int null, "rejected" jsonb not null, "error_code" varchar(32) null, "error_message" varchar(2000) null, primary key ("id"));`);
    this.addSql(`create index "translation_runs_translation_id_created_at_id_index" on "translation_runs" ("translation_id", "created_at", "id");`);
    this.addSql(`create unique index "translation_runs_one_live" on "translation_runs" ("translation_id") where "status" in ('queued', 'running');`);
    this.addSql(`alter table "translation_glossary_entries" add constraint "translation_glossary_entries_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "translations" add constraint "translations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "translations" add constraint "translations_source_space_id_foreign" foreign key ("source_space_id") references "spaces" ("id") on delete cascade;`);
    this.addSql(`alter table "translations" add constraint "translations_result_space_id_foreign" foreign key ("result_space_id") references "spaces" ("id") on delete set null;`);
    this.addSql(`alter table "translation_pages" add constraint "translation_pages_translation_id_foreign" foreign key ("translation_id") references "translations" ("id") on delete cascade;`);
    this.addSql(`alter table "translation_runs" add constraint "translation_runs_translation_id_foreign" foreign key ("translation_id") references "translations" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "translation_pages" cascade;`);
    this.addSql(`drop table if exists "translation_runs" cascade;`);
    this.addSql(`drop table if exists "translations" cascade;`);
    this.addSql(`drop table if exists "translation_glossary_entries" cascade;`);
  }

}
