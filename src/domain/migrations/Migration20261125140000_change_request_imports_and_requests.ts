import { Migration } from '@mikro-orm/migrations';

/**
 * Import runs may target a change request (and record who started them, its contributor);
 * a requested reviewer records the change request's revision when the review was asked for
 * (GitBook's ChangeRequestRequestedReviewer.revision). Rows requested before this migration
 * take their change request's current revision.
 */
export class Migration20261125140000_change_request_imports_and_requests extends Migration {

  override name = 'Migration20261125140000_change_request_imports_and_requests';

  override up(): void | Promise<void> {
    this.addSql(`alter table "change_request_requested_reviewers" add "revision" varchar(20) null;`);
    this.addSql(`update "change_request_requested_reviewers" r set "revision" = c."revision" from "change_requests" c where c."id" = r."change_request_id";`);
    this.addSql(`alter table "change_request_requested_reviewers" alter column "revision" set not null;`);
    this.addSql(`alter table "import_runs" add "change_request_id" varchar(20) null, add "created_by_id" varchar(20) null;`);
    this.addSql(`alter table "import_runs" add constraint "import_runs_change_request_id_foreign" foreign key ("change_request_id") references "change_requests" ("id") on delete cascade;`);
    this.addSql(`alter table "import_runs" add constraint "import_runs_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "import_runs" drop constraint "import_runs_change_request_id_foreign";`);
    this.addSql(`alter table "import_runs" drop constraint "import_runs_created_by_id_foreign";`);
    this.addSql(`alter table "import_runs" drop column "change_request_id", drop column "created_by_id";`);
    this.addSql(`alter table "change_request_requested_reviewers" drop column "revision";`);
  }

}
