import { Migration } from '@mikro-orm/migrations';

/**
 * PDF exports: the cache of rendered PDFs, one row per (revision, scope), with the state
 * of its render (pending, ready with its blob, failed with the reason).
 */
export class Migration20261125170000_pdf_exports extends Migration {

  override name = 'Migration20261125170000_pdf_exports';

  override up(): void | Promise<void> {
    this.addSql(`create table "pdf_exports" ("id" varchar(20) not null, "space_id" varchar(20) not null, "revision_id" varchar(20) not null, "scope" varchar(40) not null, "status" varchar(16) not null default 'pending', "run_id" varchar(20) not null, "attempts" int not null default 0, "blob_key" varchar(64) null, "size" bigint null, "pages" int null, "error_code" varchar(32) null, "error_message" varchar(2000) null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "pdf_exports_status_created_at_index" on "pdf_exports" ("status", "created_at");`);
    this.addSql(`create index "pdf_exports_blob_key_index" on "pdf_exports" ("blob_key");`);
    this.addSql(`alter table "pdf_exports" add constraint "pdf_exports_revision_id_scope_unique" unique ("revision_id", "scope");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "pdf_exports" cascade;`);
  }

}
