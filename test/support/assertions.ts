import { expect } from 'vitest';
import type { RawResponse } from './harness.ts';

/** Every failure has the wire shape `{"error":{"code","message"}}` with code = HTTP status. */
export function expectError(res: RawResponse, status: number, messagePart?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (messagePart) expect(res.body.error.message).toMatch(messagePart);
}

/** The published client throws GitBookAPIError whose `code` is the HTTP status. */
export async function expectClientError(call: Promise<unknown>, status: number) {
  const err = await call.then(
    () => null,
    (e: unknown) => e as { code?: number; errorMessage?: string },
  );
  expect(err, `expected HTTP ${status}`).not.toBeNull();
  expect(err!.code).toBe(status);
  expect(typeof err!.errorMessage).toBe('string');
}
