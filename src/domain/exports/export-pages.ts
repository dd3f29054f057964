import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import { indexFiles, linkedFile } from '../content/links.ts';
import { loadBodies, loadFiles, type TreePage } from '../content/revision-reader.ts';
import { evaluate } from '../content/variables.ts';
import type { Revision } from '../entities/revision.entity.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { ExportLimits } from './export-limits.ts';
import type { SelectedPage } from './export-scope.ts';
import { ExportTooLargeError, type ExportPage } from './render-pdf.ts';
import type { ImageBytes } from './render-image.ts';

/** Bodies read per query: enough to keep round trips few, few enough to keep memory flat. */
const BODY_CHUNK = 50;
/** What pdfkit can embed; other image types are named in the text instead. */
const DRAWABLE = new Set(['image/png', 'image/jpeg', 'image/jpg']);

/**
 * The selected pages of a revision as the renderer takes them, one at a time: bodies read
 * in chunks, variables evaluated, and the PNG and JPEG files of the revision each page
 * shows read from the blob store within the limits.
 */
export async function* exportPages(em: EntityManager, blobs: BlobStore, revision: Revision, selected: SelectedPage[], limits: ExportLimits, signal?: AbortSignal): AsyncGenerator<ExportPage> {
  const files = indexFiles(await loadFiles(em, revision.files));
  let textChars = 0;
  let imageBytes = 0;
  for (let i = 0; i < selected.length; i += BODY_CHUNK) {
    // A worker that is stopping hands the job back: stop at a page boundary.
    signal?.throwIfAborted();
    const chunk = selected.slice(i, i + BODY_CHUNK);
    const bodies = await loadBodies(em, chunk.flatMap(({ page }) => (page.node.bodyHash ? [page.node.bodyHash] : [])));
    for (const { page, depth } of chunk) {
      const body = page.node.bodyHash ? bodies.get(page.node.bodyHash) : undefined;
      const markdown = body ? evaluate(body.markdown, { space: revision.variables, page: page.node.variables ?? {} }, 'deterministic-only') : null;
      textChars += markdown?.length ?? 0;
      if (textChars > limits.maxTextChars) throw new ExportTooLargeError(`The pages hold more than ${limits.maxTextChars} characters of text: export fewer pages (page, only)`);
      const images = new Map<string, ImageBytes | null>();
      for (const url of body?.links ?? []) {
        const file = linkedFile(files, page, url);
        if (!file || !DRAWABLE.has(file.contentType.toLowerCase()) || images.has(url)) continue;
        const fits = file.size <= limits.maxImageBytes && imageBytes + file.size <= limits.maxImagesBytes;
        const bytes = fits ? await readBlob(blobs, file.blobKey, limits.maxImageBytes) : null;
        imageBytes += bytes?.length ?? 0;
        images.set(url, bytes ? { key: file.blobKey, bytes } : null);
      }
      yield toExportPage(page, depth, markdown, images);
    }
  }
}

function toExportPage(page: TreePage, depth: number, markdown: string | null, images: ExportPage['images']): ExportPage {
  const { node } = page;
  // A link page to a URL shows it; one to a page or file of the space has nothing to print.
  const linkTarget = node.linkTarget?.kind === 'url' ? node.linkTarget.url : null;
  return { kind: node.kind === 'group' ? 'group' : node.kind === 'link' ? 'link' : 'document', title: node.title, description: node.description ?? null, depth, markdown, linkTarget, images };
}

/** A blob's bytes, or null when it is missing or larger than `max`. */
async function readBlob(blobs: BlobStore, key: string, max: number): Promise<Buffer | null> {
  const stream: Readable | null = await blobs.get(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
