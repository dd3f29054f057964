import { Id, Role } from './common.schema.ts';
import { z } from './zod.ts';

export const LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export const Language = z.enum(LANGUAGES).meta({ id: 'TranslationLanguage' });

/** Content default level: a role, null (grants only) or `inherit` (from the container). */
export const DefaultLevel = z.union([Role, z.literal('inherit'), z.null()]);

const ItemPointer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('space'), space: Id }),
  z.object({ type: z.literal('collection'), collection: Id }),
]);

export const MoveBody = z
  .object({
    parent: Id.nullable().optional(),
    position: z.object({ before: ItemPointer.optional(), after: ItemPointer.optional() }).optional(),
  })
  .refine((b) => b.parent !== undefined || b.position !== undefined, { message: 'give parent or position' });

export const TransferBody = z.object({ organization: Id, parent: Id.nullable().optional() });

export function toPosition(position: z.infer<typeof MoveBody>['position']) {
  if (!position) return undefined;
  const ref = (p: z.infer<typeof ItemPointer> | undefined) =>
    p === undefined ? undefined : p.type === 'space' ? { type: 'space' as const, id: p.space } : { type: 'collection' as const, id: p.collection };
  return { before: ref(position.before), after: ref(position.after) };
}

/** Grants on a space or collection: a role (null removes) for users and/or teams of the organization. */
export const GrantBody = z
  .object({
    role: Role.nullable(),
    users: z.array(Id).min(1).max(500).optional(),
    teams: z.array(Id).min(1).max(500).optional(),
  })
  .refine((b) => b.users || b.teams, { message: 'give users or teams' });
