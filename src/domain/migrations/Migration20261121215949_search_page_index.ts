import { Migration } from '@mikro-orm/migrations';

export class Migration20261121215949_search_page_index extends Migration {

  override name = 'Migration20261121215949_search_page_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "search_sections_space_id_page_id_index" on "search_sections" ("space_id", "page_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "search_sections_space_id_page_id_index";`);
  }

}
