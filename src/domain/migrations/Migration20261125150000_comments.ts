import { Migration } from '@mikro-orm/migrations';

/**
 * Comments: threads and their replies in one table (a reply names its thread in
 * `parent_id`), on a space or one of its change requests, and per-user emoji reactions.
 * Deleting a thread, a change request or a space takes its comments, replies and
 * reactions with it (cascades), so nothing is left orphaned.
 */
export class Migration20261125150000_comments extends Migration {

  override name = 'Migration20261125150000_comments';

  override up(): void | Promise<void> {
    this.addSql(`create table "comments" ("id" varchar(20) not null, "space_id" varchar(20) not null, "change_request_id" varchar(20) null, "parent_id" varchar(20) null, "author_id" varchar(20) not null, "markdown" text null, "document" jsonb null, "revision" varchar(20) null, "page_id" varchar(20) null, "node_id" varchar(100) null, "table_cell" jsonb null, "status" varchar(8) not null default 'open', "resolved_at" timestamptz null, "resolved_by_id" varchar(20) null, "posted_at" timestamptz not null, "edited_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "comments_space_id_posted_at_id_index" on "comments" ("space_id", "posted_at", "id");`);
    this.addSql(`create index "comments_change_request_id_posted_at_id_index" on "comments" ("change_request_id", "posted_at", "id");`);
    this.addSql(`create index "comments_parent_id_posted_at_id_index" on "comments" ("parent_id", "posted_at", "id");`);
    this.addSql(`create table "comment_reactions" ("comment_id" varchar(20) not null, "user_id" varchar(20) not null, "emoji" varchar(50) not null, "reacted_at" timestamptz not null, primary key ("comment_id", "user_id", "emoji"));`);
    this.addSql(`alter table "comments" add constraint "comments_space_id_foreign" foreign key ("space_id") references "spaces" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_change_request_id_foreign" foreign key ("change_request_id") references "change_requests" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_parent_id_foreign" foreign key ("parent_id") references "comments" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_author_id_foreign" foreign key ("author_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_resolved_by_id_foreign" foreign key ("resolved_by_id") references "users" ("id") on delete set null;`);
    this.addSql(`alter table "comment_reactions" add constraint "comment_reactions_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on delete cascade;`);
    this.addSql(`alter table "comment_reactions" add constraint "comment_reactions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "comment_reactions" cascade;`);
    this.addSql(`drop table if exists "comments" cascade;`);
  }

}
