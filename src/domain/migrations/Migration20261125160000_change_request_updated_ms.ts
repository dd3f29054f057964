import { Migration } from '@mikro-orm/migrations';

/**
 * Change requests' `updated_at` to the millisecond: the lists page by (updated_at, id) with
 * tokens carrying milliseconds, and a row stamped by SQL `now()` (microseconds) would sort
 * apart from its own token, skipping rows that share its millisecond.
 */
export class Migration20261125160000_change_request_updated_ms extends Migration {

  override name = 'Migration20261125160000_change_request_updated_ms';

  override up(): void | Promise<void> {
    this.addSql(`alter table "change_requests" alter column "updated_at" type timestamptz(3) using ("updated_at"::timestamptz(3));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "change_requests" alter column "updated_at" type timestamptz using ("updated_at"::timestamptz);`);
  }

}
