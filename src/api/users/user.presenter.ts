import type { User } from '../../domain/entities/user.entity.ts';
import type { Urls } from '../http/urls.ts';
import { z } from '../http/zod.ts';

export const UserWire = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string().optional(),
    photoURL: z.string().optional(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'User' });

export function presentUser(user: User, urls: Urls): z.infer<typeof UserWire> {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: urls.location(`/users/${user.id}`) },
  };
}
