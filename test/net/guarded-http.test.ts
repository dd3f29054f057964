import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, GuardedHttp, OutboundError, parseAllowlist } from '../../src/domain/net/guarded-http.ts';

let server: Server;
let port: number;
const seen: Array<{ url: string; cookie?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url!, ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}) });
    if (req.url === '/ok') return res.end('hello');
    if (req.url === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (req.url === '/set-cookie') return res.writeHead(302, { location: '/ok', 'set-cookie': 'session=abc' }).end();
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
    if (req.url === '/big') return res.end(Buffer.alloc(200_000, 'x'));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(allowlist = '', overrides: Partial<ConstructorParameters<typeof GuardedHttp>[0]> = {}) {
  return new GuardedHttp({ allow: parseAllowlist(allowlist), timeoutMs: 5000, maxBytes: 100_000, maxRedirects: 3, userAgent: 'test', ...overrides });
}

async function refusal(call: Promise<unknown>): Promise<string> {
  const err = await call.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(OutboundError);
  return (err as OutboundError).code;
}

describe('guarded outbound HTTP', () => {
  it('refuses loopback by default and allows it when configured', async () => {
    expect(await refusal(client().fetch(`http://127.0.0.1:${port}/ok`))).toBe('REFUSED');
    const res = await client('127.0.0.1').fetch(`http://127.0.0.1:${port}/ok`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello');
  });

  it('refuses a DNS name that resolves to a private address', async () => {
    expect(await refusal(client().fetch(`http://localhost:${port}/ok`))).toBe('REFUSED');
  });

  it('refuses IPv4-mapped IPv6 forms of refused addresses', async () => {
    expect(await refusal(client().fetch(`http://[::ffff:127.0.0.1]:${port}/ok`))).toBe('REFUSED');
  });

  it('checks every redirect hop: a redirect to the metadata address is refused', async () => {
    expect(await refusal(client('127.0.0.1').fetch(`http://127.0.0.1:${port}/to-metadata`))).toBe('REFUSED');
  });

  it('keeps no cookies across redirects', async () => {
    seen.length = 0;
    const res = await client('127.0.0.1').fetch(`http://127.0.0.1:${port}/set-cookie`);
    expect(res.status).toBe(200);
    expect(seen.map((s) => s.cookie)).toEqual([undefined, undefined]);
  });

  it('enforces the time and size limits', async () => {
    expect(await refusal(client('127.0.0.1', { timeoutMs: 300 }).fetch(`http://127.0.0.1:${port}/slow`))).toBe('FETCH_TIMEOUT');
    expect(await refusal(client('127.0.0.1').fetch(`http://127.0.0.1:${port}/big`))).toBe('TOO_LARGE');
  });

  it('fetches only http and https', async () => {
    expect(await refusal(client().fetch('file:///etc/passwd'))).toBe('BAD_URL');
    expect(await refusal(client().fetch('gopher://example.test/'))).toBe('BAD_URL');
    expect(await refusal(client().fetch('not a url'))).toBe('BAD_URL');
  });

  it('classifies addresses: only public unicast passes by default', () => {
    const none = parseAllowlist('');
    for (const refused of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', 'fe80::1', 'fd00:ec2::254', 'ff02::1', '::ffff:10.0.0.1', '::']) {
      expect(addressAllowed(refused, none), refused).toBe(false);
    }
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(addressAllowed(ok, none), ok).toBe(true);
    expect(addressAllowed('10.1.2.3', parseAllowlist('10.0.0.0/8'))).toBe(true);
  });
});
