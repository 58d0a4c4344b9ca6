import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { CLI_ARGS } from './support/server-process.js';

const t = useTestApp();
const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs the CLI as `npm run cli -- …` does (from dist/: CLI_ARGS), against this file's database. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI_ARGS, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.database.url },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run cli', () => {
  it('creates a user in an organization and a token that works, then revokes it', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);

    const created = await cli(
      'users',
      'create',
      '--email',
      'Writer@Example.com',
      '--name',
      'Writer',
      '--org',
      org.id,
      '--role',
      'edit',
    );
    expect(created.code).toBe(0);
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'writer@example.com')
      .executeTakeFirstOrThrow();
    expect(user.display_name).toBe('Writer');
    // The operator set the address: it counts as verified.
    expect(user.email_verified_at).not.toBeNull();
    const membership = await t.db
      .selectFrom('organization_members')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ organization_id: org.id, role: 'edit' });

    const issued = await cli('tokens', 'create', '--email', 'writer@example.com', '--label', 'ci');
    expect(issued.code).toBe(0);
    const token = issued.stdout.trimEnd().split('\n').at(-1)!;
    expect(token).toMatch(/^quire_[A-Za-z0-9]{40}$/);

    const me = await t.app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
    expect(me.json().id).toBe(user.id);
    const orgView = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${org.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(orgView.json().permissions).toMatchObject({ admin: false, createContent: false, ingestConversations: true });

    const listed = await cli('tokens', 'list', '--email', 'writer@example.com');
    expect(listed.stdout).toMatch(/active .* scopes all {2}ci/);

    const revoked = await cli('tokens', 'revoke', '--token', token);
    expect(revoked.code).toBe(0);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(401);
    expect((await cli('tokens', 'revoke', '--token', token)).code).toBe(1);
  });

  it('verifies the address of an existing user', async () => {
    const user = await t.factory.user({ email: 'unproven@example.com' });
    const verified = await cli('users', 'verify', '--email', 'Unproven@Example.com');
    expect([verified.code, verified.stdout.trim()]).toEqual([0, `Verified the e-mail address of user ${user.id}`]);
    const row = await t.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
    expect((await cli('users', 'verify', '--email', 'nobody@example.com')).code).toBe(1);
  });

  it('makes a token limited to the scopes given', async () => {
    const user = await t.factory.user();
    const issued = await cli(
      'tokens',
      'create',
      '--email',
      user.email,
      '--scopes',
      'organization:read,user:read',
      '--expires-in-days',
      '30',
    );
    expect(issued.code).toBe(0);
    const row = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.scopes).toEqual(['organization:read', 'user:read']);
    expect(row.expires_at!.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  // Nine processes start at once here: on a loaded machine that can take more than the default 30 s.
  it('refuses bad input with a message and a non-zero exit, writing nothing', async () => {
    const before = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const user = await t.factory.user({ email: 'taken@example.com' });

    const cases: Array<[string[], number, RegExp]> = [
      [['users', 'create', '--name', 'No Email'], 2, /--email is required/],
      [['users', 'create', '--email', 'not-an-email', '--name', 'X'], 2, /not an email address/],
      [['users', 'create', '--email', 'taken@example.com', '--name', 'Again'], 1, /already exists/],
      [
        ['users', 'create', '--email', 'new@example.com', '--name', 'X', '--org', 'nope', '--role', 'edit'],
        1,
        /No organization with id nope/,
      ],
      [
        ['users', 'create', '--email', 'new@example.com', '--name', 'X', '--org', 'nope', '--role', 'owner'],
        2,
        /--role must be one of/,
      ],
      [
        ['tokens', 'create', '--email', user.email, '--scopes', 'space:read,everything'],
        2,
        /Unknown scope\(s\): everything/,
      ],
      [['tokens', 'create', '--email', 'nobody@example.com'], 1, /No user with email nobody@example.com/],
      [['tokens', 'create', '--email', user.email, '--expires-in-days', '0'], 2, /--expires-in-days/],
      [['frobnicate'], 2, /Unknown command: frobnicate/],
    ];
    // Each case is a process of its own that writes nothing: they run side by side.
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    for (const [n, [args, code, message]] of cases.entries()) {
      expect(results[n]!.code, args.join(' ')).toBe(code);
      expect(results[n]!.stderr, args.join(' ')).toMatch(message);
    }

    const after = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    expect(await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  }, 90_000);
});
