import { Migration } from '@mikro-orm/migrations';

/**
 * Change requests: the change request itself (numbered per space by the space's
 * `change_request_seq`), who contributed to it, its reviews and requested reviewers; and
 * on revisions, which change request's chain a revision belongs to and what a merge
 * revision merged.
 */
export class Migration20261125100000_change_requests extends Migration {

  override name = 'Migration20261125100000_change_requests';

  override up(): void | Promise<void> {
    this.addSql(`create table "change_requests" ("id" varchar(20) not null, "space_id" varchar(20) not null, "number" int not null, "status" varchar(16) not null default 'draft', "subject" varchar(100) not null default '', "description" jsonb null, "created_by_id" varchar(20) not null, "revision" varchar(20) not null, "revision_initial" varchar(20) not null, "revision_merged_ancestor" varchar(20) not null, "revision_merged" varchar(20) null, "merged_by_id" varchar(20) null, "merged_at" timestamptz null, "cluster_id" varchar(20) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "change_requests_space_id_status_updated_at_id_index" on "change_requests" ("space_id", "status", "updated_at", "id");`);
    this.addSql(`create index "change_requests_cluster_id_status_index" on "change_requests" ("cluster_id", "status");`);
    this.addSql(`alter table "change_requests" add constraint "change_requests_space_id_number_unique" unique ("space_id", "number");`);
    this.addSql(`create table "change_request_requested_reviewers" ("change_request_id" varchar(20) not null, "user_id" varchar(20) not null, "requested_by_id" varchar(20) not null, "requested_at" timestamptz not null, primary key ("change_request_id", "user_id"));`);
    this.addSql(`create index "change_request_requested_reviewers_user_id_index" on "change_request_requested_reviewers" ("user_id");`);
    this.addSql(`create table "change_request_reviews" ("id" varchar(20) not null, "change_request_id" varchar(20) not null, "reviewer_id" varchar(20) not null, "requested_by_id" varchar(20) null, "status" varchar(24) not null, "comment" jsonb null, "revision" varchar(20) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "change_request_reviews_change_request_id_created_at_id_index" on "change_request_reviews" ("change_request_id", "created_at", "id");`);
    this.addSql(`create table "change_request_contributors" ("change_request_id" varchar(20) not null, "user_id" varchar(20) not null, "first_contributed_at" timestamptz not null, primary key ("change_request_id", "user_id"));`);
    this.addSql(`create index "change_request_contributors_user_id_index" on "change_request_contributors" ("user_id");`);
    this.addSql(`alter table "spaces" add "change_request_seq" int not null default 0;`);
    this.addSql(`alter table "revisions" add "change_request" varchar(20) null, add "merged_from" varchar(20) null;`);
    this.addSql(`alter table "change_requests" add constraint "change_requests_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);
    this.addSql(`alter table "change_requests" add constraint "change_requests_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id");`);
    this.addSql(`alter table "change_requests" add constraint "change_requests_merged_by_id_foreign" foreign key ("merged_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "change_requests" add constraint "change_requests_cluster_id_foreign" foreign key ("cluster_id") references "conversation_issue_clusters" ("id") on delete set null;`);
    this.addSql(`alter table "change_request_requested_reviewers" add constraint "change_request_requested_reviewers_change_request_id_foreign" foreign key ("change_request_id") references "change_requests" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "change_request_requested_reviewers" add constraint "change_request_requested_reviewers_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "change_request_requested_reviewers" add constraint "change_request_requested_reviewers_requested_by_id_foreign" foreign key ("requested_by_id") references "users" ("id");`);
    this.addSql(`alter table "change_request_reviews" add constraint "change_request_reviews_change_request_id_foreign" foreign key ("change_request_id") references "change_requests" ("id") on delete cascade;`);
    this.addSql(`alter table "change_request_reviews" add constraint "change_request_reviews_reviewer_id_foreign" foreign key ("reviewer_id") references "users" ("id");`);
    this.addSql(`alter table "change_request_reviews" add constraint "change_request_reviews_requested_by_id_foreign" foreign key ("requested_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "change_request_contributors" add constraint "change_request_contributors_change_request_id_foreign" foreign key ("change_request_id") references "change_requests" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "change_request_contributors" add constraint "change_request_contributors_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "change_request_contributors" cascade;`);
    this.addSql(`drop table if exists "change_request_reviews" cascade;`);
    this.addSql(`drop table if exists "change_request_requested_reviewers" cascade;`);
    this.addSql(`drop table if exists "change_requests" cascade;`);
    this.addSql(`alter table "spaces" drop column "change_request_seq";`);
    this.addSql(`alter table "revisions" drop column "change_request", drop column "merged_from";`);
  }

}
