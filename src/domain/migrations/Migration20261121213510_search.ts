import { Migration } from '@mikro-orm/migrations';

export class Migration20261121213510_search extends Migration {

  override name = 'Migration20261121213510_search';

  override up(): void | Promise<void> {
    // Trigram matching of partial words; pg_trgm is a trusted extension (the database owner may create it).
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "search_sections" ("id" bigserial primary key, "space_id" varchar(20) not null, "page_id" varchar(20) not null, "index_key" varchar(43) not null, "page_title" varchar(255) not null, "page_path" varchar(2048) not null, "anchor" varchar(255) null, "title" varchar(255) not null, "body" text not null, "tsv" tsvector generated always as (setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("page_title", '')), 'B') || setweight(to_tsvector('english', coalesce("body", '')), 'C')) stored null);`);
    this.addSql(`create index "search_sections_space_id_index_key_index" on "search_sections" ("space_id", "index_key");`);
    this.addSql(`create index "search_sections_tsv_index" on "search_sections" using gin ("tsv");`);
    this.addSql(`create index "search_sections_title_trgm_index" on "search_sections" using gin ("title" gin_trgm_ops);`);

    this.addSql(`alter table "search_sections" add constraint "search_sections_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "search_sections" cascade;`);
  }

}
