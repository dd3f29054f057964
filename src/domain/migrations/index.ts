import type { MigrationObject } from '@mikro-orm/core';

/**
 * Every migration, in order. Listed explicitly so that runs do not depend on
 * scanning a folder (and so the list is the same under tsc, vitest and node).
 * `bin/vellum migration:create` writes a new file; add it here.
 */
export const migrationsList: MigrationObject[] = [];
