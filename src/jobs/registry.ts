import type { JobDefinition } from './define-job.ts';
import { extractIssuesJob } from './extract-issues.job.ts';
import { gitImportJob } from './git-import.job.ts';
import { indexSpaceJob } from './index-space.job.ts';
import { websiteImportJob } from './website-import.job.ts';
import { openapiProcessJob } from './openapi-process.job.ts';
import { openapiRefreshJob } from './openapi-refresh.job.ts';
import { pdfExportJob } from './pdf-export.job.ts';
import { purgeSpacesJob } from './purge-spaces.job.ts';
import { reclusterDueJob } from './recluster-due.job.ts';
import { reclusterJob } from './recluster.job.ts';
import { translationRunJob } from './translation-run.job.ts';

/**
 * Every job, listed explicitly (no folder scanning). A job is added here when its
 * family is built; the worker runs exactly these.
 */
export const jobs: JobDefinition[] = [purgeSpacesJob, indexSpaceJob, gitImportJob, websiteImportJob, openapiProcessJob, openapiRefreshJob, extractIssuesJob, reclusterJob, reclusterDueJob, translationRunJob, pdfExportJob] as JobDefinition[];
