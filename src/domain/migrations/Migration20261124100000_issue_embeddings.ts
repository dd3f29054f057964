import { Migration } from '@mikro-orm/migrations';

/**
 * Each issue's vector from the configured embeddings endpoint (float32 little-endian) and
 * the model that made it: re-clustering uses stored vectors only when all are of the
 * configured model, so a change of model re-embeds rather than mixes vector spaces.
 */
export class Migration20261124100000_issue_embeddings extends Migration {

  override name = 'Migration20261124100000_issue_embeddings';

  override up(): void | Promise<void> {
    this.addSql(`alter table "conversation_issues" add column "embedding" bytea null, add column "embedding_model" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "conversation_issues" drop column "embedding", drop column "embedding_model";`);
  }

}
