import { Migration } from '@mikro-orm/migrations';

export class Migration20261121212137_collections_spaces extends Migration {

  override name = 'Migration20261121212137_collections_spaces';

  override up(): void | Promise<void> {
    this.addSql(`create table "collections" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "parent_id" varchar(20) null, "title" varchar(50) not null, "description" varchar(100) null, "default_level" varchar(16) null default 'inherit', "position" varchar(128) collate "C" not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "collections_organization_id_parent_id_position_id_index" on "collections" ("organization_id", "parent_id", "position", "id");`);
    this.addSql(`create index "collections_organization_id_position_id_index" on "collections" ("organization_id", "position", "id");`);

    this.addSql(`create table "spaces" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "parent_id" varchar(20) null, "title" varchar(50) not null, "emoji" varchar(50) null, "icon_url" varchar(2048) null, "visibility" varchar(16) not null default 'private', "edit_mode" varchar(8) not null default 'live', "default_level" varchar(16) null default 'inherit', "merge_rules" jsonb not null, "language" varchar(8) null, "position" varchar(128) collate "C" not null, "revision" varchar(20) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "spaces_organization_id_parent_id_position_id_index" on "spaces" ("organization_id", "parent_id", "position", "id");`);
    this.addSql(`create index "spaces_organization_id_position_id_index" on "spaces" ("organization_id", "position", "id");`);
    this.addSql(`create index "spaces_deleted_at_index" on "spaces" ("deleted_at");`);

    this.addSql(`create table "revisions" ("id" varchar(20) not null, "space_id" varchar(20) not null, "parents" text[] not null default '{}', "type" varchar(16) not null default 'edits', "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "revisions_space_id_created_at_index" on "revisions" ("space_id", "created_at");`);

    this.addSql(`create table "content_permissions" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "space_id" varchar(20) null, "collection_id" varchar(20) null, "user_id" varchar(20) null, "team_id" varchar(20) null, "role" varchar(16) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "content_permissions_organization_id_user_id_index" on "content_permissions" ("organization_id", "user_id");`);
    this.addSql(`create index "content_permissions_organization_id_team_id_index" on "content_permissions" ("organization_id", "team_id");`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_space_id_user_id_unique" unique ("space_id", "user_id");`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_space_id_team_id_unique" unique ("space_id", "team_id");`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_collection_id_user_id_unique" unique ("collection_id", "user_id");`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_collection_id_team_id_unique" unique ("collection_id", "team_id");`);

    this.addSql(`alter table "collections" add constraint "collections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "collections" add constraint "collections_parent_id_foreign" foreign key ("parent_id") references "collections" ("id") on delete cascade;`);

    this.addSql(`alter table "spaces" add constraint "spaces_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "spaces" add constraint "spaces_parent_id_foreign" foreign key ("parent_id") references "collections" ("id") on delete set null;`);

    this.addSql(`alter table "revisions" add constraint "revisions_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);

    this.addSql(`alter table "content_permissions" add constraint "content_permissions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_collection_id_foreign" foreign key ("collection_id") references "collections" ("id") on delete cascade;`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_one_target" check ((space_id is null) <> (collection_id is null));`);
    this.addSql(`alter table "content_permissions" add constraint "content_permissions_one_grantee" check ((user_id is null) <> (team_id is null));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "collections" drop constraint "collections_parent_id_foreign";`);
    this.addSql(`alter table "spaces" drop constraint "spaces_parent_id_foreign";`);
    this.addSql(`alter table "content_permissions" drop constraint "content_permissions_collection_id_foreign";`);
    this.addSql(`alter table "revisions" drop constraint "revisions_space_id_foreign";`);
    this.addSql(`alter table "content_permissions" drop constraint "content_permissions_space_id_foreign";`);

    this.addSql(`drop table if exists "collections" cascade;`);
    this.addSql(`drop table if exists "spaces" cascade;`);
    this.addSql(`drop table if exists "revisions" cascade;`);
    this.addSql(`drop table if exists "content_permissions" cascade;`);
  }

}
