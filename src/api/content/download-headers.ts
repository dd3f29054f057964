/**
 * How a downloaded file is served. File bytes come from imports and uploads, and the
 * download route shares the API's origin: HTML, SVG, XML and anything else a browser could
 * run would execute with that origin. Only passive types on this list are shown inline;
 * everything is served with nosniff and a CSP that forbids every fetch and sandboxes the
 * document, so even a mislabelled file cannot run script or reach the API.
 */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/ogg',
  'video/webm',
  'text/plain',
  'application/pdf',
]);

export const DOWNLOAD_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The media type without parameters, lower case (`Text/HTML; charset=x` → `text/html`). */
function essence(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

export function downloadHeaders(name: string, contentType: string): Record<string, string> {
  const type = essence(contentType);
  const inline = INLINE_TYPES.has(type);
  return {
    'Content-Type': contentType,
    // Attachment: a browser saves active content instead of rendering it on our origin.
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': DOWNLOAD_CSP,
  };
}
