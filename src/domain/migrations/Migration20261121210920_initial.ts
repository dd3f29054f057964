import { Migration } from '@mikro-orm/migrations';

export class Migration20261121210920_initial extends Migration {

  override name = 'Migration20261121210920_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "organizations" ("id" varchar(20) not null, "title" varchar(255) not null, "email_domains" text[] not null default '{}', "hostname" varchar(32) null, "type" varchar(16) not null default 'business', "use_case" varchar(32) null, "community_type" varchar(32) null, "default_role" varchar(16) null, "default_content" jsonb null, "sso" boolean not null default false, "ai" boolean not null default false, "invite_links" boolean not null default true, "plan" varchar(32) not null default 'free', "merge_rules" jsonb not null, "logo_url" varchar(2048) null, "custom_hostname" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "organizations" add constraint "organizations_hostname_unique" unique ("hostname");`);
    this.addSql(`create index "organizations_email_domains_index" on "organizations" using gin ("email_domains");`);

    this.addSql(`create table "integration_installations" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "integration" varchar(100) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "integration_installations_organization_id_index" on "integration_installations" ("organization_id");`);

    this.addSql(`create table "agent_instructions" ("organization_id" varchar(20) not null, "instructions" jsonb not null, "updated_by" varchar(20) not null, "updated_at" timestamptz not null, primary key ("organization_id"));`);

    this.addSql(`create table "teams" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "title" varchar(64) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "teams_organization_id_created_at_id_index" on "teams" ("organization_id", "created_at", "id");`);

    this.addSql(`create table "saml_providers" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "label" varchar(30) not null, "sso_url" varchar(2048) not null, "entity_id" varchar(1024) not null, "certificate" text not null, "default_team_id" varchar(20) null, "default_role" varchar(16) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "saml_providers_organization_id_created_at_id_index" on "saml_providers" ("organization_id", "created_at", "id");`);

    this.addSql(`create table "users" ("id" varchar(20) not null, "email" varchar(320) not null, "display_name" varchar(255) not null, "photo_url" varchar(2048) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "members" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "user_id" varchar(20) not null, "role" varchar(16) null, "disabled" boolean not null default false, "sso" boolean not null default false, "joined_at" timestamptz not null, "last_seen_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "members_organization_id_joined_at_id_index" on "members" ("organization_id", "joined_at", "id");`);
    this.addSql(`create index "members_organization_id_last_seen_at_id_index" on "members" ("organization_id", "last_seen_at", "id");`);
    this.addSql(`create index "members_user_id_index" on "members" ("user_id");`);
    this.addSql(`alter table "members" add constraint "members_organization_id_user_id_unique" unique ("organization_id", "user_id");`);

    this.addSql(`create table "team_memberships" ("id" varchar(20) not null, "team_id" varchar(20) not null, "member_id" varchar(20) not null, "role" varchar(8) not null default 'member', "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "team_memberships_member_id_index" on "team_memberships" ("member_id");`);
    this.addSql(`alter table "team_memberships" add constraint "team_memberships_team_id_member_id_unique" unique ("team_id", "member_id");`);

    this.addSql(`create table "invite_links" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "role" varchar(16) null, "created_by_id" varchar(20) null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "invite_links_organization_id_created_at_id_index" on "invite_links" ("organization_id", "created_at", "id");`);

    this.addSql(`create table "api_tokens" ("id" varchar(20) not null, "token_hash" varchar(64) not null, "kind" varchar(16) not null, "user_id" varchar(20) null, "installation_id" varchar(20) null, "label" varchar(50) not null default '', "created_at" timestamptz not null, "last_used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "api_tokens_user_id_index" on "api_tokens" ("user_id");`);
    this.addSql(`create index "api_tokens_installation_id_index" on "api_tokens" ("installation_id");`);

    this.addSql(`alter table "integration_installations" add constraint "integration_installations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);

    this.addSql(`alter table "agent_instructions" add constraint "agent_instructions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "teams" add constraint "teams_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);

    this.addSql(`alter table "saml_providers" add constraint "saml_providers_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "saml_providers" add constraint "saml_providers_default_team_id_foreign" foreign key ("default_team_id") references "teams" ("id") on delete set null;`);

    this.addSql(`alter table "members" add constraint "members_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "members" add constraint "members_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "team_memberships" add constraint "team_memberships_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;`);
    this.addSql(`alter table "team_memberships" add constraint "team_memberships_member_id_foreign" foreign key ("member_id") references "members" ("id") on delete cascade;`);

    this.addSql(`alter table "invite_links" add constraint "invite_links_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "invite_links" add constraint "invite_links_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`);

    this.addSql(`alter table "api_tokens" add constraint "api_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_installation_id_foreign" foreign key ("installation_id") references "integration_installations" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "integration_installations" drop constraint "integration_installations_organization_id_foreign";`);
    this.addSql(`alter table "agent_instructions" drop constraint "agent_instructions_organization_id_foreign";`);
    this.addSql(`alter table "teams" drop constraint "teams_organization_id_foreign";`);
    this.addSql(`alter table "saml_providers" drop constraint "saml_providers_organization_id_foreign";`);
    this.addSql(`alter table "members" drop constraint "members_organization_id_foreign";`);
    this.addSql(`alter table "invite_links" drop constraint "invite_links_organization_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_installation_id_foreign";`);
    this.addSql(`alter table "saml_providers" drop constraint "saml_providers_default_team_id_foreign";`);
    this.addSql(`alter table "team_memberships" drop constraint "team_memberships_team_id_foreign";`);
    this.addSql(`alter table "members" drop constraint "members_user_id_foreign";`);
    this.addSql(`alter table "invite_links" drop constraint "invite_links_created_by_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_user_id_foreign";`);
    this.addSql(`alter table "team_memberships" drop constraint "team_memberships_member_id_foreign";`);

    this.addSql(`drop table if exists "organizations" cascade;`);
    this.addSql(`drop table if exists "integration_installations" cascade;`);
    this.addSql(`drop table if exists "agent_instructions" cascade;`);
    this.addSql(`drop table if exists "teams" cascade;`);
    this.addSql(`drop table if exists "saml_providers" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "members" cascade;`);
    this.addSql(`drop table if exists "team_memberships" cascade;`);
    this.addSql(`drop table if exists "invite_links" cascade;`);
    this.addSql(`drop table if exists "api_tokens" cascade;`);
  }

}
