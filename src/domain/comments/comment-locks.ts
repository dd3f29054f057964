import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Comment } from '../entities/comment.entity.ts';
import { notFound } from '../shared/errors.ts';

/*
 * Comments change under concurrent requests: a thread deleted while someone replies or
 * reacts, resolved and reopened at once. Each writer first locks the row it builds on,
 * inside its transaction; a row deleted meanwhile is then gone (a 404), never a foreign-key
 * failure or a write to a thread that no longer exists.
 */

/**
 * Holds a comment while rows that point at it (replies, reactions) are added: `FOR KEY SHARE`
 * lets any number of such writers in at once and keeps a delete waiting until they commit,
 * when it takes their rows with it.
 */
export async function holdComment(em: EntityManager, commentId: string, what: string): Promise<void> {
  const rows = await em.execute<Array<{ id: string }>>('select id from comments where id = ? for key share', [commentId]);
  if (rows.length === 0) throw notFound(what);
}

/** The comment, re-read under a row lock, for changes to the row itself (body, status). */
export async function lockComment(em: EntityManager, commentId: string, what: string): Promise<Comment> {
  const comment = await em.findOne(Comment, { id: commentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!comment) throw notFound(what);
  return comment;
}
