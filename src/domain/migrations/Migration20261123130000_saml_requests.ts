import { Migration } from '@mikro-orm/migrations';

export class Migration20261123130000_saml_requests extends Migration {

  override name = 'Migration20261123130000_saml_requests';

  override up(): void | Promise<void> {
    this.addSql(`create table "saml_requests" ("id" varchar(128) not null, "provider_id" varchar(20) not null, "created_at" timestamptz not null, "consumed_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "saml_requests_created_at_index" on "saml_requests" ("created_at");`);
    this.addSql(`alter table "saml_requests" add constraint "saml_requests_provider_id_foreign" foreign key ("provider_id") references "saml_providers" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "saml_requests" cascade;`);
  }

}
