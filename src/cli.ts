import { parseArgs } from 'node:util';
import { systemClock } from './core/clock.js';
import { ROLES, type Role } from './access/roles.js';
import { isScope, SCOPES } from './access/scopes.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { withCommandDatabase } from './db/command-database.js';
import { createDatabase, type Db } from './db/database.js';
import { createApiToken, listApiTokens, revokeApiToken } from './users/api-token-queries.js';
import { createUser, findUserByEmail } from './users/user-queries.js';
import { Keyring } from './core/keyring.js';
import { loadServiceSecret } from './core/secret.js';
import { rotateIntegrationSecrets } from './integrations/secrets.js';
import { rotateEventSigningSecrets } from './integrations/events/signing-secrets.js';
import { rotateSiteSecrets } from './sites/secrets.js';
import { rotateIdTokenHints } from './accounts/id-token-hints.js';
import { writeConfigurationReference } from './ops/config-reference.js';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  users create --email <email> --name <name> [--org <organizationId> --role <role>]
      Creates a user; with --org, also makes them a member of that organization.
      The operator sets the address, so it counts as verified.
  users verify --email <email>
      Marks a user's e-mail address as verified (the operator vouches for it): it then opens
      joining organizations by e-mail domain, and their listing by domain.
  tokens create --email <email> [--scopes <a,b>] [--label <label>] [--expires-in-days <n>]
      Creates an API token for a user and prints it, alone, on the last line.
  tokens list --email <email>
      Lists a user's tokens (never their secrets).
  tokens revoke (--id <tokenId> | --token <token>)
      Revokes a token.
  secrets rotate
      Re-encrypts every secret at rest (integration secrets, sites' visitor keys, share-link
      keys, the ID tokens kept for signing out) under ENCRYPTION_KEY: run it after setting a new ENCRYPTION_KEY with the old one as
      ENCRYPTION_KEY_PREVIOUS (or after setting ENCRYPTION_KEY for the first time), then drop
      the previous key.
  config-reference
      Writes the configuration reference (docs/configuration.md) from the configuration schema.

Roles: ${ROLES.join(', ')}
Scopes: ${SCOPES.join(', ')}`;

class UsageError extends Error {}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

async function userIdByEmail(db: Db, email: string): Promise<string> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error(`No user with email ${email}`);
  return user.id;
}

async function run(
  db: Db,
  config: Config,
  command: string,
  values: Record<string, string | undefined>,
  out: (line: string) => void,
) {
  const clock = systemClock;
  switch (command) {
    case 'users create': {
      const email = required(values, 'email');
      const name = required(values, 'name');
      if (!EMAIL.test(email) || email.length > 254) throw new UsageError('--email is not an email address');
      if (name.trim().length === 0 || name.length > 255) throw new UsageError('--name must have 1 to 255 characters');
      const role = values.role as Role | undefined;
      if (role !== undefined && !ROLES.includes(role))
        throw new UsageError(`--role must be one of: ${ROLES.join(', ')}`);
      if (role && !values.org) throw new UsageError('--role goes with --org');
      const user = await db.transaction().execute(async (tx) => {
        const created = await createUser(tx, clock, { email, displayName: name, emailVerified: true });
        if (values.org) {
          const organization = await tx
            .selectFrom('organizations')
            .select('id')
            .where('id', '=', values.org)
            .executeTakeFirst();
          if (!organization) throw new Error(`No organization with id ${values.org}`);
          await tx
            .insertInto('organization_members')
            .values({
              organization_id: organization.id,
              user_id: created.id,
              role: role ?? 'read',
              joined_at: clock.now(),
            })
            .execute();
        }
        return created;
      });
      out(
        `Created user ${user.id} <${user.email}>${values.org ? ` in organization ${values.org} as ${role ?? 'read'}` : ''}`,
      );
      return;
    }
    case 'users verify': {
      const userId = await userIdByEmail(db, required(values, 'email'));
      await db
        .updateTable('users')
        .set({ email_verified_at: clock.now() })
        .where('id', '=', userId)
        .where('email_verified_at', 'is', null)
        .execute();
      out(`Verified the e-mail address of user ${userId}`);
      return;
    }
    case 'tokens create': {
      const userId = await userIdByEmail(db, required(values, 'email'));
      const scopes = values.scopes
        ? values.scopes
            .split(',')
            .map((scope) => scope.trim())
            .filter(Boolean)
        : null;
      const unknown = scopes?.filter((scope) => !isScope(scope)) ?? [];
      if (unknown.length > 0) throw new UsageError(`Unknown scope(s): ${unknown.join(', ')}`);
      const label = values.label ?? '';
      if (label.length > 50) throw new UsageError('--label must have at most 50 characters');
      let expiresAt: Date | null = null;
      if (values['expires-in-days']) {
        const days = Number(values['expires-in-days']);
        if (!Number.isInteger(days) || days < 1 || days > 3650)
          throw new UsageError('--expires-in-days must be a whole number from 1 to 3650');
        expiresAt = new Date(clock.now().getTime() + days * 86_400_000);
      }
      const { id, token } = await createApiToken(db, clock, { userId, label, scopes, expiresAt });
      out(
        `Created token ${id}${scopes ? ` with scopes ${scopes.join(', ')}` : ' with full rights'}${expiresAt ? `, expiring ${expiresAt.toISOString()}` : ''}.`,
      );
      out('It is shown only this once:');
      out(token);
      return;
    }
    case 'tokens list': {
      const tokens = await listApiTokens(db, await userIdByEmail(db, required(values, 'email')));
      for (const token of tokens) {
        const state = token.revoked_at
          ? 'revoked'
          : token.expires_at && token.expires_at <= clock.now()
            ? 'expired'
            : 'active';
        out(
          `${token.id}  ${state}  created ${token.created_at.toISOString()}  scopes ${token.scopes?.join(',') ?? 'all'}  ${token.label}`,
        );
      }
      if (tokens.length === 0) out('No tokens.');
      return;
    }
    case 'tokens revoke': {
      const target = values.id ?? values.token;
      if (!target) throw new UsageError('--id or --token is required');
      const revoked = await revokeApiToken(db, clock, target);
      if (!revoked) throw new Error('No active token matches');
      out(`Revoked token ${revoked}.`);
      return;
    }
    case 'secrets rotate': {
      const serviceSecret = await loadServiceSecret(db, config.secretKey);
      const keyring = Keyring.fromConfig(config.encryption, serviceSecret);
      const { rotated, failed } = await rotateIntegrationSecrets(db, keyring, { batchSize: 500 });
      out(`Re-encrypted ${rotated} integration secret(s) under key ${keyring.currentKeyId}.`);
      for (const secret of failed)
        out(`Could not open ${secret.name} of integration ${secret.integrationId}: ${secret.reason}`);
      const sites = await rotateSiteSecrets(db, { keyring, serviceSecret }, { batchSize: 500 });
      out(`Re-encrypted ${sites.rotated} site visitor and share-link key(s) under key ${keyring.currentKeyId}.`);
      for (const secret of sites.failed) out(`Could not open ${secret.what}: ${secret.reason}`);
      const signing = await rotateEventSigningSecrets(db, keyring, { batchSize: 500 });
      out(`Re-encrypted ${signing.rotated} event signing secret(s) under key ${keyring.currentKeyId}.`);
      for (const secret of signing.failed) out(`Could not open the signing secret of ${secret.what}: ${secret.reason}`);
      const hints = await rotateIdTokenHints(db, keyring, { batchSize: 500 });
      out(
        `Re-encrypted ${hints.rotated} kept ID token(s) of signed-in sessions under key ${keyring.currentKeyId}` +
          (hints.dropped > 0 ? `; dropped ${hints.dropped} no key opens (their sign-out goes on without).` : '.'),
      );
      const failures = failed.length + sites.failed.length + signing.failed.length;
      if (failures > 0) throw new Error(`${failures} secret(s) could not be re-encrypted`);
      return;
    }
    default:
      throw new UsageError(`Unknown command: ${command || '(none)'}`);
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        org: { type: 'string' },
        role: { type: 'string' },
        scopes: { type: 'string' },
        label: { type: 'string' },
        'expires-in-days': { type: 'string' },
        id: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return parsed.values.help ? 0 : 2;
  }
  const command = parsed.positionals.join(' ');
  const { help: _help, ...values } = parsed.values;
  if (command === 'config-reference') {
    await writeConfigurationReference();
    return 0;
  }
  try {
    const config = loadConfig();
    await withCommandDatabase(config, async (databaseUrl) => {
      const db = createDatabase({ url: databaseUrl, poolSize: 2 });
      try {
        await run(db, config, command, values, (line) => process.stdout.write(`${line}\n`));
      } finally {
        await db.destroy();
      }
    });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    const message = error instanceof ConfigError ? error.message : (error as Error).message;
    process.stderr.write(
      `${/23505/.test(String((error as { code?: string }).code)) ? 'A user with this email already exists' : message}\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
