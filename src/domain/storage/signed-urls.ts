import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedFile = { key: string; name: string; contentType: string; expires: number };

/**
 * Download links that need no token: the signature covers the blob, the name it is served
 * under, its type and an expiry, so a link cannot be widened or kept alive.
 */
export class UrlSigner {
  private readonly secret: string;

  constructor(secret: string) {
    this.secret = secret;
  }

  sign(file: SignedFile): string {
    return createHmac('sha256', this.secret).update(`${file.key}\n${file.name}\n${file.contentType}\n${file.expires}`).digest('base64url');
  }

  verify(file: SignedFile, signature: string, now: number): boolean {
    if (file.expires < Math.floor(now / 1000)) return false;
    const expected = Buffer.from(this.sign(file));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
