import type { Rules } from '../policy/authorize.ts';
import { roleAtLeast, type RoleOrGuest } from '../shared/roles.ts';

/** An item of content as seen by a caller: their effective role on it. */
export type ContentView = { role: RoleOrGuest; locked?: boolean; deleted?: boolean };

const atLeast = (needed: Parameters<typeof roleAtLeast>[1]) => (v: ContentView) => v.role !== null && roleAtLeast(v.role, needed);
const isAdmin = atLeast('admin');

export const spaceRules = {
  view: atLeast('read'),
  access: atLeast('read'),
  admin: isAdmin,
  viewInviteLinks: isAdmin,
  // A locked space takes no edits; only its admins can unlock it.
  edit: (v) => atLeast('edit')(v) && !v.locked,
  triggerGitSync: atLeast('edit'),
  comment: atLeast('comment'),
  merge: (v) => atLeast('edit')(v) && !v.locked,
  review: atLeast('review'),
  installIntegration: isAdmin,

  update: atLeast('edit'),
  delete: isAdmin,
  move: isAdmin,
  duplicate: atLeast('create'),
  share: isAdmin,
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

export const collectionRules = {
  view: atLeast('read'),
  admin: isAdmin,
  viewInviteLinks: isAdmin,
  create: atLeast('create'),

  update: isAdmin,
  delete: isAdmin,
  move: isAdmin,
  share: isAdmin,
} satisfies Rules<ContentView>;

export const COLLECTION_PERMISSION_KEYS = ['view', 'admin', 'viewInviteLinks', 'create'] as const;
