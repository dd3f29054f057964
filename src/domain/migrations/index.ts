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
];
