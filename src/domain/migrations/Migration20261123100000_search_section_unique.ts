import { Migration } from '@mikro-orm/migrations';

export class Migration20261123100000_search_section_unique extends Migration {

  override name = 'Migration20261123100000_search_section_unique';

  override up(): void | Promise<void> {
    // Concurrent index runs could store a page's sections twice: keep the first copy of each.
    this.addSql(`delete from "search_sections" s using "search_sections" d where d."space_id" = s."space_id" and d."index_key" = s."index_key" and d."anchor" is not distinct from s."anchor" and d."title" = s."title" and d."body" = s."body" and d."id" < s."id";`);

    this.addSql(`alter table "search_sections" add column "ordinal" int null;`);
    // Sections were inserted in page order, so their ids give each one its place.
    this.addSql(`update "search_sections" s set "ordinal" = o."ordinal" from (select "id", row_number() over (partition by "space_id", "index_key" order by "id") - 1 as "ordinal" from "search_sections") o where o."id" = s."id";`);
    this.addSql(`alter table "search_sections" alter column "ordinal" set not null;`);

    this.addSql(`drop index "search_sections_space_id_index_key_index";`);
    this.addSql(`alter table "search_sections" add constraint "search_sections_space_id_index_key_ordinal_unique" unique ("space_id", "index_key", "ordinal");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "search_sections" drop constraint "search_sections_space_id_index_key_ordinal_unique";`);
    this.addSql(`create index "search_sections_space_id_index_key_index" on "search_sections" ("space_id", "index_key");`);
    this.addSql(`alter table "search_sections" drop column "ordinal";`);
  }

}
