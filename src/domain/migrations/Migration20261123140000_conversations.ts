import { Migration } from '@mikro-orm/migrations';

/** Support conversations, the issues extracted from them and the clusters that group those issues. */
export class Migration20261123140000_conversations extends Migration {

  override name = 'Migration20261123140000_conversations';

  override up(): void | Promise<void> {
    this.addSql(`create table "conversation_issue_clusters" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "label" varchar(255) not null, "summary" text not null, "icon" varchar(50) not null, "status" varchar(16) not null default 'pending', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "conversation_issue_clusters_organization_id_updated_at_id_index" on "conversation_issue_clusters" ("organization_id", "updated_at", "id");`);
    this.addSql(`create index "conversation_issue_clusters_organization_id_status_index" on "conversation_issue_clusters" ("organization_id", "status");`);

    this.addSql(`create table "conversations" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "source" varchar(255) not null, "external_id" varchar(255) not null, "subject" varchar(512) null, "parts" jsonb not null, "metadata" jsonb not null, "created_at" timestamptz not null, "ingested_at" timestamptz not null, "processed_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "conversations_organization_id_created_at_id_index" on "conversations" ("organization_id", "created_at", "id");`);
    this.addSql(`create index "conversations_organization_id_source_created_at_id_index" on "conversations" ("organization_id", "source", "created_at", "id");`);
    // Extraction finds its work here without scanning what is already processed.
    this.addSql(`create index "conversations_unprocessed_index" on "conversations" ("organization_id", "ingested_at") where "processed_at" is null;`);
    // Ingestion upserts on this key (INSERT … ON CONFLICT): the same conversation never twice.
    this.addSql(`alter table "conversations" add constraint "conversations_organization_id_source_external_id_unique" unique ("organization_id", "source", "external_id");`);

    this.addSql(`create table "conversation_issues" ("id" varchar(20) not null, "organization_id" varchar(20) not null, "conversation_id" varchar(20) not null, "ordinal" smallint not null, "title" varchar(100) not null, "summary" text not null, "created_at" timestamptz not null, "ingested_at" timestamptz not null, "cluster_id" varchar(20) null, primary key ("id"));`);
    this.addSql(`create index "conversation_issues_organization_id_created_at_id_index" on "conversation_issues" ("organization_id", "created_at", "id");`);
    this.addSql(`create index "conversation_issues_cluster_id_created_at_id_index" on "conversation_issues" ("cluster_id", "created_at", "id");`);
    this.addSql(`alter table "conversation_issues" add constraint "conversation_issues_conversation_id_ordinal_unique" unique ("conversation_id", "ordinal");`);

    this.addSql(`alter table "conversation_issue_clusters" add constraint "conversation_issue_clusters_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "conversations" add constraint "conversations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "conversation_issues" add constraint "conversation_issues_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`);
    this.addSql(`alter table "conversation_issues" add constraint "conversation_issues_conversation_id_foreign" foreign key ("conversation_id") references "conversations" ("id") on delete cascade;`);
    this.addSql(`alter table "conversation_issues" add constraint "conversation_issues_cluster_id_foreign" foreign key ("cluster_id") references "conversation_issue_clusters" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "conversation_issues" cascade;`);
    this.addSql(`drop table if exists "conversations" cascade;`);
    this.addSql(`drop table if exists "conversation_issue_clusters" cascade;`);
  }

}
