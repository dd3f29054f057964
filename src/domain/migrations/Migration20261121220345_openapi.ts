import { Migration } from '@mikro-orm/migrations';

export class Migration20261121220345_openapi extends Migration {

  override name = 'Migration20261121220345_openapi';

  override up(): void | Promise<void> {
    this.addSql(`create table "openapi_specs" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "slug" varchar(100) not null, "source_url" varchar(2048) null, "source_text" text null, "visibility" varchar(8) not null default 'private', "processing_state" varchar(16) not null default 'pending', "last_version" varchar(20) null, "last_processed_at" timestamptz null, "last_process_error_code" varchar(32) null, "last_processed_errors" jsonb not null, "fetch_state" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "openapi_specs_organization_id_created_at_id_index" on "openapi_specs" ("organization_id", "created_at", "id");`);
    this.addSql(`alter table "openapi_specs" add constraint "openapi_specs_organization_id_slug_unique" unique ("organization_id", "slug");`);

    this.addSql(`create table "openapi_spec_versions" ("id" varchar(20) not null, "spec_id" varchar(20) not null, "content_hash" varchar(43) not null, "entry" varchar(2048) not null, "filesystem" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "openapi_spec_versions_spec_id_created_at_id_index" on "openapi_spec_versions" ("spec_id", "created_at", "id");`);

    this.addSql(`alter table "openapi_specs" add constraint "openapi_specs_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);

    this.addSql(`alter table "openapi_spec_versions" add constraint "openapi_spec_versions_spec_id_foreign" foreign key ("spec_id") references "openapi_specs" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "openapi_spec_versions" drop constraint "openapi_spec_versions_spec_id_foreign";`);

    this.addSql(`drop table if exists "openapi_specs" cascade;`);
    this.addSql(`drop table if exists "openapi_spec_versions" cascade;`);
  }

}
