import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../shared/ids.ts';
import type { PdfExportStatus } from '../entities/pdf-export.entity.ts';
import { scopeKey, type ExportScope } from './export-scope.ts';

export type ExportState = { id: string; status: PdfExportStatus; errorCode: string | null; errorMessage: string | null };
export type ExportRun = { exportId: string; runId: string };
/** Records the job of a new run in the transaction that made it (the jobs layer supplies it). */
export type ScheduleExport = (tx: EntityManager, run: ExportRun) => void;

/** Failures no retry can mend: asking again answers the same error without rendering. */
export const PERMANENT_FAILURES = new Set(['TOO_LARGE']);

/**
 * The export of `scope` of a revision, recorded in `tx` if there is none yet, with its job.
 * The unique (revision, scope) makes concurrent asks meet on one row: the insert that wins
 * schedules the one render, the others wait for its commit and find the row. A row that
 * failed for a reason a retry could mend is handed a new run, once however many ask.
 */
export async function requestExport(tx: EntityManager, target: { spaceId: string; revisionId: string; scope: ExportScope }, schedule: ScheduleExport): Promise<ExportState> {
  const scope = scopeKey(target.scope);
  const runId = newId();
  const inserted = await tx.execute<{ id: string }[]>(
    `insert into pdf_exports (id, space_id, revision_id, scope, status, run_id, attempts, created_at)
     values (?, ?, ?, ?, 'pending', ?, 0, now()) on conflict (revision_id, scope) do nothing returning id`,
    [newId(), target.spaceId, target.revisionId, scope, runId],
  );
  const retried = inserted.length
    ? inserted
    : await tx.execute<{ id: string }[]>(
        `update pdf_exports set status = 'pending', run_id = ?, attempts = 0, error_code = null, error_message = null,
           started_at = null, finished_at = null, created_at = now()
         where revision_id = ? and scope = ? and status = 'failed' and error_code not in (?) returning id`,
        [runId, target.revisionId, scope, [...PERMANENT_FAILURES]],
      );
  if (retried[0]) {
    schedule(tx, { exportId: retried[0].id, runId });
    return { id: retried[0].id, status: 'pending', errorCode: null, errorMessage: null };
  }
  const [row] = await tx.execute<StateRow[]>(`select ${STATE} from pdf_exports where revision_id = ? and scope = ?`, [target.revisionId, scope]);
  return fromRow(row!);
}

export async function readExport(em: EntityManager, exportId: string): Promise<(ExportState & { blobKey: string | null }) | null> {
  const [row] = await em.execute<Array<StateRow & { blob_key: string | null }>>(`select ${STATE}, blob_key from pdf_exports where id = ?`, [exportId]);
  return row ? { ...fromRow(row), blobKey: row.blob_key } : null;
}

/**
 * Waits up to `timeoutMs` for a pending export to end (ready or failed), reading its row:
 * the worker that renders it may be on any machine. Null when the row is gone.
 */
export async function awaitExport(em: EntityManager, exportId: string, timeoutMs: number): Promise<(ExportState & { blobKey: string | null }) | null> {
  const deadline = Date.now() + timeoutMs;
  let pause = 25;
  for (;;) {
    const state = await readExport(em, exportId);
    if (!state || state.status !== 'pending' || Date.now() >= deadline) return state;
    await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(0, deadline - Date.now()))));
    pause = Math.min(pause * 2, 250);
  }
}

type StateRow = { id: string; status: PdfExportStatus; error_code: string | null; error_message: string | null };
const STATE = 'id, status, error_code, error_message';

function fromRow(row: StateRow): ExportState {
  return { id: row.id, status: row.status, errorCode: row.error_code, errorMessage: row.error_message };
}
