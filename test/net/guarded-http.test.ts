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
    // IPv4-compatible (::/96), as the URL parser writes it: [::a9fe:a9fe]
    expect(await refusal(client().fetch('http://[::169.254.169.254]/latest/meta-data/', { timeoutMs: 500 }))).toBe('REFUSED');
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
    for (const refused of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', 'fe80::1', 'fd00:ec2::254', 'ff02::1', '::ffff:10.0.0.1', '::', '::169.254.169.254', '::a9fe:a9fe', '::7f00:1', '::127.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '64:ff9b::7f00:1', '2002:a9fe:a9fe::1', '2002:7f00:1::', '2002:a00:1::']) {
      expect(addressAllowed(refused, none), refused).toBe(false);
    }
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '64:ff9b::808:808', '2002:808:808::1']) expect(addressAllowed(ok, none), ok).toBe(true);
    expect(addressAllowed('10.1.2.3', parseAllowlist('10.0.0.0/8'))).toBe(true);
  });
});

describe('credentials on redirects', () => {
  let other: Server;
  let otherPort: number;
  const got: Array<{ url: string; authorization?: string; cookie?: string; proxy?: string }> = [];
  let origin: Server;
  let originPort: number;

  beforeAll(async () => {
    other = createServer((req, res) => {
      got.push({ url: req.url!, authorization: req.headers.authorization, cookie: req.headers.cookie, proxy: req.headers['proxy-authorization'] as string | undefined });
      res.end('there');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherPort = (other.address() as AddressInfo).port;
    origin = createServer((req, res) => {
      got.push({ url: req.url!, authorization: req.headers.authorization, cookie: req.headers.cookie });
      if (req.url?.startsWith('/same')) return res.writeHead(302, { location: '/landed' }).end();
      if (req.url?.startsWith('/away-')) return res.writeHead(Number(req.url.slice(6)), { location: `http://127.0.0.1:${otherPort}/stolen` }).end();
      res.end('here');
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => other.close(() => r()));
    await new Promise<void>((r) => origin.close(() => r()));
  });

  it('strips Authorization, Cookie and Proxy-Authorization on a cross-origin hop (302 and 307), keeps them on the same origin', async () => {
    const headers = { Authorization: 'Bearer secret', Cookie: 'sid=1', 'Proxy-Authorization': 'Basic x' };
    for (const status of [302, 307]) {
      got.length = 0;
      const res = await client('127.0.0.1').fetch(`http://user:pass@127.0.0.1:${originPort}/away-${status}`, { headers });
      expect(res.body.toString()).toBe('there');
      expect(got[0]!.authorization).toBe('Bearer secret');
      expect(got[1]).toEqual({ url: '/stolen', authorization: undefined, cookie: undefined, proxy: undefined });
      got.length = 0;
      await client('127.0.0.1').fetch(`http://user:pass@127.0.0.1:${originPort}/away-${status}`);
      expect(got[0]!.authorization).toBe(`Basic ${Buffer.from('user:pass').toString('base64')}`);
      expect(got[1]!.authorization).toBeUndefined();
    }
    got.length = 0;
    await client('127.0.0.1').fetch(`http://user:pass@127.0.0.1:${originPort}/same`);
    expect(got.map((g) => g.authorization)).toEqual([`Basic ${Buffer.from('user:pass').toString('base64')}`, `Basic ${Buffer.from('user:pass').toString('base64')}`]);
  });

  it('never quotes a URL’s credentials or tokens in its errors', async () => {
    const err = (await client().fetch('http://user:hunter2@127.0.0.1/x?token=abc&page=2').catch((e: unknown) => e)) as OutboundError;
    const err2 = (await client().fetch('ftp://user:hunter2@host/x').catch((e: unknown) => e)) as OutboundError;
    const err3 = (await client('127.0.0.1', { maxRedirects: 0 }).fetch(`http://u:hunter2@127.0.0.1:${originPort}/same?access_token=abc`).catch((e: unknown) => e)) as OutboundError;
    for (const e of [err, err2, err3]) {
      expect(e).toBeInstanceOf(OutboundError);
      expect(e.message).not.toMatch(/hunter2|abc/);
    }
  });
});
