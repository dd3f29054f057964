import { rule, type ActionChoice, type Rules } from '../policy/authorize.ts';
import { roleAtLeast, type Role, type RoleOrGuest } from '../shared/roles.ts';

/**
 * An item of content as seen by a caller: their effective role on it, and whether they
 * administer its organization (moving content between organizations is theirs to do).
 */
export type ContentView = { role: RoleOrGuest; locked?: boolean; deleted?: boolean; orgAdmin?: boolean };

const atLeast = (needed: Role) => rule<ContentView>(`role ${needed} or above`, (v) => v.role !== null && roleAtLeast(v.role, needed));
const isAdmin = atLeast('admin');
// A locked space takes no edits; only its admins can unlock it.
const editsUnlocked = rule<ContentView>('role edit or above, space not locked', (v) => atLeast('edit')(v) && !v.locked);
const orgAdmin = rule<ContentView>('admin of the organization', (v) => v.orgAdmin === true);

export const spaceRules = {
  view: atLeast('read'),
  access: atLeast('read'),
  admin: isAdmin,
  viewInviteLinks: isAdmin,
  edit: editsUnlocked,
  triggerGitSync: atLeast('edit'),
  comment: atLeast('comment'),
  merge: editsUnlocked,
  review: atLeast('review'),
  installIntegration: isAdmin,

  update: atLeast('edit'),
  delete: isAdmin,
  move: isAdmin,
  duplicate: atLeast('create'),
  share: isAdmin,
  transfer: orgAdmin,
} satisfies Rules<ContentView>;

export const SPACE_PERMISSION_KEYS = [
  'view',
  'access',
  'admin',
  'viewInviteLinks',
  'edit',
  'triggerGitSync',
  'comment',
  'merge',
  'review',
  'installIntegration',
] as const;

/** Who may see and change the space is an admin's decision; the rest an editor's. */
export const updateSpaceAction: ActionChoice<'update' | 'admin', { body: Record<string, unknown> }> = {
  actions: ['update', 'admin'],
  doc: '`admin` is needed to change defaultLevel, visibility, mergeRules or editMode.',
  choose: ({ body }) =>
    body.defaultLevel !== undefined || body.visibility !== undefined || body.mergeRules !== undefined || body.editMode !== undefined
      ? 'admin'
      : 'update',
};

export const collectionRules = {
  view: atLeast('read'),
  admin: isAdmin,
  viewInviteLinks: isAdmin,
  create: atLeast('create'),

  update: isAdmin,
  delete: isAdmin,
  move: isAdmin,
  share: isAdmin,
  transfer: orgAdmin,
} satisfies Rules<ContentView>;

export const COLLECTION_PERMISSION_KEYS = ['view', 'admin', 'viewInviteLinks', 'create'] as const;

/**
 * Where new content goes: into a collection (the caller needs `create` there) or at the
 * organization's root (the organization's `createContent`).
 */
export type ContentTargetView = { parent: ContentView | null; orgCreate: boolean };

export const contentTargetRules = {
  create: rule<ContentTargetView>(
    'role create or above on the parent collection; at the root, role create or above in the organization',
    (t) => (t.parent ? collectionRules.create(t.parent) : t.orgCreate),
  ),
} satisfies Rules<ContentTargetView>;
