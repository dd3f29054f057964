/**
 * Bounds of one export. The PDF is built in memory and stored whole (the blob store takes
 * whole buffers), so what a render may hold is bounded instead of streamed: a request past
 * `maxPages` is refused at once (400); past the byte bounds the render fails as
 * `TOO_LARGE`. Exporting a page (`page`, `only`) stays possible for any space.
 */
export type ExportLimits = {
  /** Pages (documents, groups, links) in one PDF. */
  maxPages: number;
  /** Markdown of all pages together, in UTF-16 code units. */
  maxTextChars: number;
  /** Bytes of one image; a larger one is named instead of drawn. */
  maxImageBytes: number;
  /** Bytes of all images together; images past it are named instead of drawn. */
  maxImagesBytes: number;
  /** Bytes of the PDF itself. */
  maxPdfBytes: number;
};

export const EXPORT_LIMITS: ExportLimits = {
  maxPages: 2000,
  maxTextChars: 20 * 1024 * 1024,
  maxImageBytes: 10 * 1024 * 1024,
  maxImagesBytes: 100 * 1024 * 1024,
  maxPdfBytes: 256 * 1024 * 1024,
};
