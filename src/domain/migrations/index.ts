import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121210920_initial } from './Migration20261121210920_initial.ts';
import { Migration20261121211453_job_outbox } from './Migration20261121211453_job_outbox.ts';
import { Migration20261121212137_collections_spaces } from './Migration20261121212137_collections_spaces.ts';
import { Migration20261121213344_content_model } from './Migration20261121213344_content_model.ts';
import { Migration20261121213510_search } from './Migration20261121213510_search.ts';
import { Migration20261121213932_git_imports } from './Migration20261121213932_git_imports.ts';
import { Migration20261121214129_import_runs } from './Migration20261121214129_import_runs.ts';
import { Migration20261121215949_search_page_index } from './Migration20261121215949_search_page_index.ts';
import { Migration20261121220345_openapi } from './Migration20261121220345_openapi.ts';
import { Migration20261121220956_content_sweep } from './Migration20261121220956_content_sweep.ts';
import { Migration20261123100000_search_section_unique } from './Migration20261123100000_search_section_unique.ts';
import { Migration20261123120000_outbox_ledger } from './Migration20261123120000_outbox_ledger.ts';
import { Migration20261123120100_schedule_ticks } from './Migration20261123120100_schedule_ticks.ts';
import { Migration20261123130000_saml_requests } from './Migration20261123130000_saml_requests.ts';
import { Migration20261123140000_conversations } from './Migration20261123140000_conversations.ts';
import { Migration20261123150000_conversation_clusterings } from './Migration20261123150000_conversation_clusterings.ts';
import { Migration20261124100000_issue_embeddings } from './Migration20261124100000_issue_embeddings.ts';
import { Migration20261124110000_translations } from './Migration20261124110000_translations.ts';
import { Migration20261125100000_change_requests } from './Migration20261125100000_change_requests.ts';
import { Migration20261125140000_change_request_imports_and_requests } from './Migration20261125140000_change_request_imports_and_requests.ts';
import { Migration20261125160000_change_request_updated_ms } from './Migration20261125160000_change_request_updated_ms.ts';
import { Migration20261125150000_comments } from './Migration20261125150000_comments.ts';
import { Migration20261125170000_pdf_exports } from './Migration20261125170000_pdf_exports.ts';
import { Migration20261125180000_review_comments } from './Migration20261125180000_review_comments.ts';

/**
 * Every migration, in order. Listed explicitly so that runs do not depend on
 * scanning a folder (and so the list is the same under tsc, vitest and node).
 * `bin/vellum migration:create` writes a new file; add it here.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121210920_initial', class: Migration20261121210920_initial },
  { name: 'Migration20261121211453_job_outbox', class: Migration20261121211453_job_outbox },
  { name: 'Migration20261121212137_collections_spaces', class: Migration20261121212137_collections_spaces },
  { name: 'Migration20261121213344_content_model', class: Migration20261121213344_content_model },
  { name: 'Migration20261121213510_search', class: Migration20261121213510_search },
  { name: 'Migration20261121213932_git_imports', class: Migration20261121213932_git_imports },
  { name: 'Migration20261121214129_import_runs', class: Migration20261121214129_import_runs },
  { name: 'Migration20261121215949_search_page_index', class: Migration20261121215949_search_page_index },
  { name: 'Migration20261121220345_openapi', class: Migration20261121220345_openapi },
  { name: 'Migration20261121220956_content_sweep', class: Migration20261121220956_content_sweep },
  { name: 'Migration20261123100000_search_section_unique', class: Migration20261123100000_search_section_unique },
  { name: 'Migration20261123120000_outbox_ledger', class: Migration20261123120000_outbox_ledger },
  { name: 'Migration20261123120100_schedule_ticks', class: Migration20261123120100_schedule_ticks },
  { name: 'Migration20261123130000_saml_requests', class: Migration20261123130000_saml_requests },
  { name: 'Migration20261123140000_conversations', class: Migration20261123140000_conversations },
  { name: 'Migration20261123150000_conversation_clusterings', class: Migration20261123150000_conversation_clusterings },
  { name: 'Migration20261124100000_issue_embeddings', class: Migration20261124100000_issue_embeddings },
  { name: 'Migration20261124110000_translations', class: Migration20261124110000_translations },
  { name: 'Migration20261125100000_change_requests', class: Migration20261125100000_change_requests },
  { name: 'Migration20261125140000_change_request_imports_and_requests', class: Migration20261125140000_change_request_imports_and_requests },
  { name: 'Migration20261125150000_comments', class: Migration20261125150000_comments },
  { name: 'Migration20261125160000_change_request_updated_ms', class: Migration20261125160000_change_request_updated_ms },
  { name: 'Migration20261125170000_pdf_exports', class: Migration20261125170000_pdf_exports },
  { name: 'Migration20261125180000_review_comments', class: Migration20261125180000_review_comments },
];
