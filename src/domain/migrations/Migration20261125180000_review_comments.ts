import { Migration } from '@mikro-orm/migrations';

/**
 * A review's comment becomes a comment thread of its change request that names the review
 * (`comments.review_id`, at most one thread per review). Comments kept on reviews until now
 * (`change_request_reviews.comment`, never shown) move into such threads, posted by the
 * reviewer on the reviewed revision when the review was given; empty ones (`{}`) had nothing
 * to say and are dropped with the column. Ids are made here like the app's: 20 base62
 * characters.
 */
export class Migration20261125180000_review_comments extends Migration {

  override name = 'Migration20261125180000_review_comments';

  override up(): void | Promise<void> {
    this.addSql(`alter table "comments" add "review_id" varchar(20) null;`);
    this.addSql(`alter table "comments" add constraint "comments_review_id_foreign" foreign key ("review_id") references "change_request_reviews" ("id") on delete set null;`);
    this.addSql(`alter table "comments" add constraint "comments_review_id_unique" unique ("review_id");`);
    this.addSql(`insert into "comments" ("id", "space_id", "change_request_id", "author_id", "markdown", "document", "revision", "posted_at", "review_id")
      select ids.id, c.space_id, r.change_request_id, r.reviewer_id,
             case when jsonb_typeof(r.comment -> 'markdown') = 'string' then r.comment ->> 'markdown' end,
             case when jsonb_typeof(r.comment -> 'markdown') = 'string' then null else r.comment -> 'document' end,
             r.revision, r.created_at, r.id
        from "change_request_reviews" r
        join "change_requests" c on c.id = r.change_request_id
        cross join lateral (
          select string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 62)::int, 1), '') as id
            from generate_series(1, 20 + 0 * length(r.id))
        ) ids
       where jsonb_typeof(r.comment -> 'markdown') = 'string' or jsonb_typeof(r.comment -> 'document') = 'object';`);
    this.addSql(`alter table "change_request_reviews" drop column "comment";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "change_request_reviews" add "comment" jsonb null;`);
    this.addSql(`update "change_request_reviews" r set "comment" = case when t.markdown is not null then jsonb_build_object('markdown', t.markdown) else jsonb_build_object('document', t.document) end
      from "comments" t where t.review_id = r.id and (t.markdown is not null or t.document is not null);`);
    this.addSql(`delete from "comments" where "review_id" is not null;`);
    this.addSql(`alter table "comments" drop constraint "comments_review_id_unique";`);
    this.addSql(`alter table "comments" drop constraint "comments_review_id_foreign";`);
    this.addSql(`alter table "comments" drop column "review_id";`);
  }
}
