import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../shared/ids.ts';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().length(20).primary().onCreate(() => newId()),
    /** Stored lower-cased so look-ups and the unique index ignore case. */
    email: p.string().length(320).unique(),
    displayName: p.string().length(255),
    photoURL: p.string().length(2048).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class User extends UserSchema.class {}

/** The part after `@`, used to match an organization's allowed e-mail domains. */
export function emailDomainOf(user: User): string {
  return user.email.slice(user.email.lastIndexOf('@') + 1);
}
UserSchema.setClass(User);
