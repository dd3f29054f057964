import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities/user.entity.ts';
import { newId } from '../shared/ids.ts';
import { BadRequestError, ConflictError, notFound } from '../shared/errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized) || normalized.length > 320) throw new BadRequestError(`email: "${email}" is not an e-mail address`);
  return normalized;
}

/** A display name for users created from just an address (the part before `@`). */
function nameFromEmail(email: string): string {
  return email.slice(0, email.indexOf('@'));
}

export async function createUser(em: EntityManager, input: { email: string; displayName?: string }): Promise<User> {
  const email = normalizeEmail(input.email);
  if (await em.count(User, { email })) throw new ConflictError(`a user with e-mail ${email} already exists`);
  const user = em.create(User, { email, displayName: input.displayName?.trim() || nameFromEmail(email) });
  await em.flush();
  return user;
}

/** Finds the user for an e-mail address, creating an account for it when there is none (invitations). */
export async function findOrCreateUserByEmail(em: EntityManager, rawEmail: string): Promise<{ user: User; created: boolean }> {
  const email = normalizeEmail(rawEmail);
  const existing = await em.findOne(User, { email });
  if (existing) return { user: existing, created: false };
  // The id is set now, not at flush, because callers use it before flushing.
  return { user: em.create(User, { id: newId(), email, displayName: nameFromEmail(email) }), created: true };
}

/** Accepts a user id or an e-mail address, as the admin CLI does. */
export async function findUserByIdOrEmail(em: EntityManager, idOrEmail: string): Promise<User> {
  const user = idOrEmail.includes('@')
    ? await em.findOne(User, { email: idOrEmail.trim().toLowerCase() })
    : await em.findOne(User, { id: idOrEmail });
  if (!user) throw notFound(`User ${idOrEmail}`);
  return user;
}
