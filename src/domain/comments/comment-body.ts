import { markdownToDocument } from '../content/markdown/document.ts';
import { documentToMarkdown } from '../content/markdown/to-markdown.ts';
import type { Comment, CommentDocument } from '../entities/comment.entity.ts';

/** The three forms a body is written in: Markdown, a JSON document, or nothing (`{}`). */
export type CommentBodyInput = { markdown: string; document?: never } | { document: CommentDocument; markdown?: never } | { markdown?: never; document?: never };
export type BodyFormat = 'markdown' | 'document';
export type CommentBodyOutput = { markdown: string } | { document: CommentDocument } | Record<string, never>;

type StoredBody = Pick<Comment, 'markdown' | 'document'>;

/** The columns a body is kept in: exactly what was sent, in the form it was sent. */
export function storedBody(body: CommentBodyInput): StoredBody {
  return { markdown: body.markdown ?? null, document: body.document ?? null };
}

/**
 * A stored body in the asked format: as stored when the formats match, converted otherwise.
 * Converting never renders HTML: Markdown becomes the document model, and a document
 * becomes escaped Markdown.
 */
export function bodyIn(stored: StoredBody, format: BodyFormat): CommentBodyOutput {
  if (stored.markdown != null) {
    return format === 'markdown' ? { markdown: stored.markdown } : { document: markdownToDocument(stored.markdown) };
  }
  if (stored.document != null) {
    return format === 'document' ? { document: stored.document } : { markdown: documentToMarkdown(stored.document) };
  }
  return {};
}
