import { Id } from '../http/common.schema.ts';
import { z } from '../http/zod.ts';

export const ChangeRequestPathParams = z.object({ spaceId: Id, changeRequestId: Id });

/** Beyond GitBook's answers: what clashed, so a client can show it (the clashing lines are not sent). */
export const MergeConflictWire = z
  .object({
    pageId: z.string().optional(),
    fileId: z.string().optional(),
    variable: z.string().optional(),
    kind: z.enum(['content', 'title', 'description', 'field', 'delete-edit', 'add-add', 'move', 'cycle', 'parent-removed', 'order', 'file', 'variable']),
    details: z.string(),
  })
  .meta({ id: 'ChangeRequestMergeConflict' });

export const UpdateChangeRequestResult = z
  .object({
    revision: z.string().meta({ description: 'The change request’s head: new after an update, unchanged when already up to date or on conflicts' }),
    result: z.enum(['update', 'conflicts']),
    conflicts: z.array(MergeConflictWire),
  })
  .meta({ id: 'UpdateChangeRequestResult' });

export const MergeChangeRequestResult = z
  .object({
    revision: z.string().meta({ description: 'The new main revision; on conflicts the change request’s unchanged head' }),
    result: z.enum(['merge', 'conflicts']),
    conflicts: z.array(MergeConflictWire),
  })
  .meta({ id: 'MergeChangeRequestResult' });

export const ChangeRequestMergeability = z
  .object({
    mergeable: z.boolean(),
    outdated: z.boolean(),
    conflicts: z.array(MergeConflictWire),
    unmetRules: z.array(z.object({ rule: z.string(), message: z.string() })),
    bypass: z.boolean().meta({ description: 'The caller may merge despite the unmet rules (allow_bypass)' }),
  })
  .meta({ id: 'ChangeRequestMergeability' });
