import { Migration } from '@mikro-orm/migrations';

export class Migration20261121213344_content_model extends Migration {

  override name = 'Migration20261121213344_content_model';

  override up(): void | Promise<void> {
    this.addSql(`create table "file_entries" ("hash" varchar(43) not null, "file_id" varchar(20) not null, "name" varchar(255) not null, "content_type" varchar(255) not null, "size" bigint not null, "blob_key" varchar(64) not null, "width" int null, "height" int null, "git_path" varchar(1024) null, "created_at" timestamptz not null, primary key ("hash"));`);

    this.addSql(`create table "instance_settings" ("key" varchar(64) not null, "value" text not null, "created_at" timestamptz not null, primary key ("key"));`);

    this.addSql(`create table "page_bodies" ("hash" varchar(43) not null, "markdown" text not null, "links" jsonb not null, "created_at" timestamptz not null, primary key ("hash"));`);

    this.addSql(`create table "page_nodes" ("hash" varchar(43) not null, "page_id" varchar(20) not null, "kind" varchar(16) not null, "title" varchar(255) not null, "slug" varchar(255) not null, "description" varchar(1000) null, "emoji" varchar(50) null, "hidden" boolean not null default false, "body_hash" varchar(43) null, "link_target" jsonb null, "git_path" varchar(1024) null, "variables" jsonb null, "children" text[] not null default '{}', "created_at" timestamptz not null, primary key ("hash"));`);

    this.addSql(`alter table "revisions" add "pages" text[] not null default '{}', add "files" text[] not null default '{}', add "variables" jsonb not null default '{}', add "git" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "file_entries" cascade;`);
    this.addSql(`drop table if exists "instance_settings" cascade;`);
    this.addSql(`drop table if exists "page_bodies" cascade;`);
    this.addSql(`drop table if exists "page_nodes" cascade;`);

    this.addSql(`alter table "revisions" drop column "pages", drop column "files", drop column "variables", drop column "git";`);
  }

}
