import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/harness.ts';
import { testDatabaseUrl, testRedisUrl } from '../support/test-env.ts';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/vellum', import.meta.url));

async function vellum(...args: string[]) {
  try {
    const { stdout, stderr } = await run(bin, args, {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function json(...args: string[]) {
  const res = await vellum(...args, '--json');
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(res.stdout);
}

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('bin/vellum admin commands', () => {
  it('creates a user, an organization, a member, tokens and an installation', async () => {
    const email = `cli-${Date.now()}@example.test`;
    const user = await json('users', 'create', '--email', email, '--name', 'Cli Person');
    expect(user).toEqual({ id: expect.any(String), email, token: expect.stringMatching(/^gb_api_/) });
    const me = await api.request('GET', '/v1/user', { token: user.token });
    expect(me.body).toMatchObject({ id: user.id, displayName: 'Cli Person' });

    const org = await json('orgs', 'create', '--title', 'CLI org', '--owner', email);
    expect(org).toEqual({ id: expect.any(String), title: 'CLI org' });
    const owner = await api.request('GET', `/v1/orgs/${org.id}/members/${user.id}`, { token: user.token });
    expect(owner.body.role).toBe('admin');

    const other = await json('users', 'create', '--email', `cli2-${Date.now()}@example.test`);
    const added = await json('members', 'add', '--org', org.id, '--user', other.id, '--role', 'edit');
    expect(added).toEqual({ organization: org.id, user: other.id, role: 'edit' });

    const { token } = await json('tokens', 'create', '--user', other.id);
    expect((await api.request('GET', `/v1/orgs/${org.id}`, { token })).status).toBe(200);

    const installation = await json('integrations', 'install', '--org', org.id, '--name', 'zendesk');
    expect(installation).toEqual({ installationId: expect.any(String), token: expect.stringMatching(/^gb_inst_/) });
    const seen = await api.request('GET', `/v1/orgs/${org.id}`, { token: installation.token });
    expect(seen.body.permissions.ingestConversations).toBe(true);
  }, 60_000); // six process starts in a row, each depending on the one before

  it('exits non-zero with a one-line reason on bad arguments', async () => {
    const cases: string[][] = [
      ['users', 'create', '--json'],
      ['users', 'create', '--email', 'not-an-email'],
      ['orgs', 'create', '--title', 'X', '--owner', 'nobody@example.test'],
      ['orgs', 'create', '--title', 'X'],
      ['members', 'add', '--org', 'nope', '--user', 'x', '--role', 'read'],
      ['tokens', 'create', '--user', 'nobody'],
      ['frobnicate'],
      ['users', 'create', '--bogus-flag'],
    ];
    // At once: each is a process start (1.5–2.5 s on a loaded 2-core machine), eight in a row neared the test timeout.
    const results = await Promise.all(cases.map((args) => vellum(...args)));
    results.forEach((res, i) => {
      const args = cases[i]!.join(' ');
      expect(res.code, args).not.toBe(0);
      expect(res.stderr.trim().split('\n'), args).toHaveLength(1);
      expect(res.stderr, args).toMatch(/^vellum: /);
    });
  }, 60_000);

  it('refuses an e-mail address that is already taken', async () => {
    const email = `dup-${Date.now()}@example.test`;
    await json('users', 'create', '--email', email);
    const res = await vellum('users', 'create', '--email', email.toUpperCase());
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reports an invalid environment variable by name', async () => {
    const { code, stderr } = await run(bin, ['migrate'], { env: { ...process.env, PORT: 'eighty' } }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/PORT/);
  });
});
