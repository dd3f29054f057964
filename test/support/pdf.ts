import { extractText, getDocumentProxy } from 'unpdf';
import type { TestApi } from './harness.ts';

/** The text of a PDF as a real PDF reader (pdf.js) finds it, and its page count. */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  return { pages: totalPages, text };
}

/** Fetches a signed link the API answered (its origin is PUBLIC_URL) from the test server. */
export async function fetchLink(api: TestApi, url: string): Promise<Response> {
  const { pathname, search } = new URL(url);
  return fetch(`${api.baseUrl}${pathname}${search}`);
}

/** The PDF behind a link, once it is ready (the link answers 503 while it renders). */
export async function downloadPdf(api: TestApi, url: string, timeoutMs = 20_000): Promise<Buffer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetchLink(api, url);
    if (res.status === 200) return Buffer.from(await res.arrayBuffer());
    if (res.status !== 503 || Date.now() > deadline) throw new Error(`download answered ${res.status}: ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
