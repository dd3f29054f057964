import ipaddr from 'ipaddr.js';
import { redactText, redactUrl } from './redact.ts';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';

/**
 * The one way Vellum reaches other hosts (imports, spec fetching, webhooks). It refuses
 * addresses inside private networks — loopback, private, link-local (cloud metadata),
 * CGNAT, multicast, reserved, IPv4-mapped IPv6 of those — whether given literally or
 * reached through DNS, and again on every redirect. The socket connects to the address
 * that was checked (pinned), so a DNS answer cannot change between check and use.
 * Time and size limits always apply; no cookies are kept or sent.
 */

export type OutboundErrorCode = 'REFUSED' | 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'TOO_LARGE' | 'BAD_URL';

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string) {
    // Messages end up in job records and responses: never with a URL's secrets.
    super(redactText(message));
    this.code = code;
  }
}

export type OutboundPolicy = {
  /** Hosts (exact names) and CIDR ranges allowed although refused by default. */
  allow: { hosts: Set<string>; ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> };
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
};

export type OutboundRequest = {
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: Buffer;
  /** Overrides of the policy's limits for this request (never wider than asked). */
  timeoutMs?: number;
  maxBytes?: number;
  /** The caller giving up (a cancelled job): the request stops and the signal's reason is thrown. */
  signal?: AbortSignal | undefined;
};

export type OutboundResponse = { url: string; status: number; headers: Record<string, string>; body: Buffer };

/** Parses VELLUM_OUTBOUND_ALLOWLIST: comma-separated host names and CIDR ranges (a bare IP is a /32 or /128). */
export function parseAllowlist(value: string | undefined): OutboundPolicy['allow'] {
  const hosts = new Set<string>();
  const ranges: OutboundPolicy['allow']['ranges'] = [];
  for (const entry of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    if (entry.includes('/')) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const ip = ipaddr.parse(entry);
      ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(entry.toLowerCase());
  }
  return { hosts, ranges };
}

export function isValidAllowlist(value: string): boolean {
  try {
    parseAllowlist(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4): the v4
 * inside is what a relay or dual-stack host ends up reaching, so it is the one judged.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ip.range();
  const bytes = ip.toByteArray();
  if (range === 'ipv4Mapped') return ip.toIPv4Address();
  if (range === 'rfc6052' || ip.match(ipaddr.IPv6.parse('::'), 96)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}

/** True when the address is a public unicast one, or allowed by configuration. */
export function addressAllowed(address: string, allow: OutboundPolicy['allow']): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') ip = embeddedIPv4(ip as ipaddr.IPv6) ?? ip;
  if (allow.ranges.some(([base, bits]) => base.kind() === ip.kind() && ip.match(base, bits))) return true;
  return ip.range() === 'unicast';
}

/** Headers that carry credentials: never sent on to another origin after a redirect. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function withoutCredentials(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase())));
}

export class GuardedHttp {
  private readonly policy: OutboundPolicy;

  constructor(policy: OutboundPolicy) {
    this.policy = policy;
  }

  /** One request, following redirects (each hop checked again); the body is read within the limits. */
  async fetch(url: string, req: OutboundRequest = {}): Promise<OutboundResponse> {
    const timeoutMs = Math.min(req.timeoutMs ?? this.policy.timeoutMs, this.policy.timeoutMs);
    const maxBytes = Math.min(req.maxBytes ?? this.policy.maxBytes, this.policy.maxBytes);
    const deadline = AbortSignal.timeout(timeoutMs);
    req.signal?.throwIfAborted();
    let current = url;
    let method = req.method ?? 'GET';
    let body = req.body;
    let headers = req.headers;
    for (let hop = 0; hop <= this.policy.maxRedirects; hop++) {
      const target = this.checkUrl(current);
      const address = await this.resolve(target.hostname);
      const response = await this.send(target, address, { method, headers, body }, deadline, maxBytes, req.signal);
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, target);
        // As browsers and curl do: credentials are for the origin they were given to.
        if (next.origin !== target.origin) headers = withoutCredentials(headers);
        current = next.toString();
        // 303 (and, as browsers do, 301/302 after POST) continue as a GET without a body.
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return { ...response, url: current };
    }
    throw new OutboundError('FETCH_ERROR', `More than ${this.policy.maxRedirects} redirects from ${redactUrl(url)}`);
  }

  private checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundError('BAD_URL', `Not a URL: ${redactText(raw.slice(0, 200))}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('BAD_URL', `Only http and https URLs are fetched, not ${url.protocol}`);
    // Credentials in the URL (Git remotes) become an Authorization header in send(), never part of messages.
    return url;
  }

  /** The address to connect to: the literal one, or the first DNS answer — every answer must be allowed. */
  private async resolve(hostname: string): Promise<{ address: string; family: 4 | 6 }> {
    const host = hostname.replace(/^\[|\]$/g, '');
    const byName = this.policy.allow.hosts.has(host.toLowerCase());
    let answers: Array<{ address: string; family: number }>;
    if (ipaddr.isValid(host)) answers = [{ address: host, family: host.includes(':') ? 6 : 4 }];
    else {
      try {
        answers = await dnsLookup(host, { all: true, verbatim: true });
      } catch {
        throw new OutboundError('FETCH_ERROR', `Cannot resolve ${host}`);
      }
    }
    if (answers.length === 0) throw new OutboundError('FETCH_ERROR', `Cannot resolve ${host}`);
    if (!byName) {
      const refused = answers.find((a) => !addressAllowed(a.address, this.policy.allow));
      if (refused) throw new OutboundError('REFUSED', `Refused to connect to ${host}: ${refused.address} is not a public address`);
    }
    const first = answers[0]!;
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  private async send(
    url: URL,
    pinned: { address: string; family: 4 | 6 },
    req: { method: string; headers?: Record<string, string> | undefined; body?: Buffer | undefined },
    deadline: AbortSignal,
    maxBytes: number,
    cancel: AbortSignal | undefined,
  ): Promise<Omit<OutboundResponse, 'url'>> {
    const lookup: LookupFunction = (_host, opts, callback) => {
      if (opts && (opts as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const agent = new Agent({ connect: { lookup }, headersTimeout: 0, bodyTimeout: 0 });
    const headers: Record<string, string> = { 'user-agent': this.policy.userAgent, ...req.headers };
    if (url.username || url.password) {
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    }
    const clean = new URL(url);
    clean.username = '';
    clean.password = '';
    try {
      const res = await request(clean, { method: req.method as 'GET', headers, body: req.body, dispatcher: agent, signal: cancel ? AbortSignal.any([deadline, cancel]) : deadline });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > maxBytes) {
          res.body.destroy();
          throw new OutboundError('TOO_LARGE', `Response from ${clean.host} is larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers: flat, body: Buffer.concat(chunks) };
    } catch (err) {
      if (err instanceof OutboundError) throw err;
      if (cancel?.aborted) throw cancel.reason;
      if (deadline.aborted) throw new OutboundError('FETCH_TIMEOUT', `No complete answer from ${clean.host} in time`);
      throw new OutboundError('FETCH_ERROR', `Request to ${clean.host} failed: ${(err as Error).message}`);
    } finally {
      await agent.close().catch(() => undefined);
    }
  }
}

/** The client as configured for this deployment. */
export function guardedHttpFrom(config: { outbound: { allowlist: string; timeoutMs: number; maxBytes: number } }): GuardedHttp {
  return new GuardedHttp({
    allow: parseAllowlist(config.outbound.allowlist),
    timeoutMs: config.outbound.timeoutMs,
    maxBytes: config.outbound.maxBytes,
    maxRedirects: 5,
    userAgent: 'Vellum/1 (self-hosted documentation platform)',
  });
}
