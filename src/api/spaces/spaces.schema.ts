import { SPACE_VISIBILITIES } from '../../domain/entities/space.entity.ts';
import { Id, Order, PagingQuery, RoleOrGuest } from '../http/common.schema.ts';
import { DefaultLevel, Language } from '../http/content.schema.ts';
import { z } from '../http/zod.ts';
import { MergeRule } from '../orgs/orgs.schema.ts';

const permissionKeys = ['view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync', 'comment', 'merge', 'review', 'installIntegration'] as const;

export const SpaceMergeRules = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inherit') }),
  z.object({ type: z.literal('rules'), rules: z.array(MergeRule).max(50) }),
  z.object({ type: z.literal('none') }),
]);

export const SpaceWire = z
  .object({
    object: z.literal('space'),
    id: z.string(),
    title: z.string(),
    emoji: z.string(),
    visibility: z.enum(SPACE_VISIBILITIES),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: z.string().optional(),
    editMode: z.enum(['live', 'locked']),
    mergeRules: SpaceMergeRules,
    urls: z.object({ location: z.string(), app: z.string(), icon: z.string().optional() }),
    organization: z.string(),
    parent: z.string().optional(),
    language: Language.optional(),
    revision: z.string(),
    defaultLevel: DefaultLevel,
    comments: z.number().int(),
    changeRequests: z.number().int(),
    changeRequestsOpen: z.number().int(),
    changeRequestsDraft: z.number().int(),
    permissions: z.object(Object.fromEntries(permissionKeys.map((k) => [k, z.boolean()]))),
  })
  .meta({ id: 'Space' });

export const SpaceParams = z.object({ spaceId: Id });

const Title = z.string().trim().min(1).max(50);
const Emoji = z.string().min(1).max(50);

export const CreateSpaceBody = z
  .object({
    title: Title.optional(),
    emoji: Emoji.optional(),
    parent: Id.optional(),
    language: Language.optional(),
    editMode: z.enum(['live', 'locked']).optional(),
    empty: z.boolean().optional(),
    template: z.unknown().optional(),
    computedSource: z.unknown().optional(),
  })
  .refine((b) => b.template === undefined && b.computedSource === undefined, {
    message: 'templates and computed sources are not supported yet; create an empty space',
    path: ['template'],
  })
  .optional();

export const UpdateSpaceBody = z
  .object({
    title: Title.optional(),
    emoji: Emoji.nullable().optional(),
    icon: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    editMode: z.enum(['live', 'locked']).optional(),
    defaultLevel: DefaultLevel.optional(),
    language: Language.nullable().optional(),
    mergeRules: SpaceMergeRules.optional(),
    visibility: z.enum(SPACE_VISIBILITIES).optional(),
  })
  .refine((b) => !(b.emoji && b.icon), { message: 'give an emoji or an icon, not both', path: ['icon'] });

export const MemberSpacesQuery = PagingQuery.extend({ order: Order });
export const MemberSpaceItem = z.object({ permission: RoleOrGuest, space: SpaceWire });
