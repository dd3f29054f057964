import { Migration } from '@mikro-orm/migrations';

export class Migration20261121220956_content_sweep extends Migration {

  override name = 'Migration20261121220956_content_sweep';

  override up(): void | Promise<void> {
    this.addSql(`create table "blob_tombstones" ("key" varchar(64) not null, "created_at" timestamptz not null, primary key ("key"));`);

    this.addSql(`create index "file_entries_blob_key_index" on "file_entries" ("blob_key");`);

    this.addSql(`create index "page_nodes_body_hash_index" on "page_nodes" ("body_hash");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "blob_tombstones" cascade;`);

    this.addSql(`drop index "file_entries_blob_key_index";`);

    this.addSql(`drop index "page_nodes_body_hash_index";`);
  }

}
