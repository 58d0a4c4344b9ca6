import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/core/clock.js';
import { BadRequestError } from '../src/core/errors.js';
import { declaredClaims, type DeclaredClaims } from '../src/sites/adaptive/claims.js';
import {
  checkCondition,
  conditionProblem,
  MAX_CONDITION_LENGTH,
  MAX_CONDITION_NESTING,
} from '../src/sites/adaptive/conditions.js';
import { templateConditions } from '../src/sites/adaptive/templates.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectSpecResponse } from './support/spec.js';

let now = new Date('2025-03-01T10:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };
const t = useTestApp({ clock });

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;

beforeAll(async () => {
  team = await t.factory.team(['read', 'edit', null]);
});

const UNSIGNED = 'Unsigned claims of the site visitor.';
const claim = (description: string) => ({ type: 'boolean', description });

/** A schema with two signed claims and one unsigned one, as Part B describes it. */
function betaSchema() {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      isBetaUser: claim('Whether the visitor joined the beta program'),
      isEnterprise: claim(''),
      unsigned: {
        type: 'object',
        description: UNSIGNED,
        properties: { prefersDarkMode: claim('The visitor chose the dark theme') },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

const schemaUrl = (siteId: string, organizationId = team.organization.id) =>
  `/v1/orgs/${organizationId}/sites/${siteId}/adaptive-schema`;

const call = (account: Account, method: 'GET' | 'PUT', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: account.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const storedSchema = async (siteId: string) =>
  t.db
    .selectFrom('sites')
    .select(['adaptive_schema', 'adaptive_schema_updated_at', 'created_at'])
    .where('id', '=', siteId)
    .executeTakeFirstOrThrow();

describe('the adaptive schema', () => {
  it('is the empty schema, dated from the site’s creation, until an admin sets one', async () => {
    const site = await insertSite(t.db, team.organization.id);
    const res = await call(team.member('read'), 'GET', schemaUrl(site.id));
    expect(res.statusCode).toBe(200);
    expectSpecResponse('getSiteAdaptiveSchema', 200, res.json());
    const { created_at } = await storedSchema(site.id);
    expect(res.json()).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
      updatedAt: created_at.toISOString(),
    });

    const templates = await call(team.member('read'), 'GET', `${schemaUrl(site.id)}/template-conditions`);
    expect(templates.statusCode).toBe(200);
    expectSpecResponse('listSiteAdaptiveTemplateConditions', 200, templates.json());
    expect(templates.json()).toEqual({ items: [] });
  });

  it('is replaced by an admin with PUT, stored with the time of the change, and read back by members', async () => {
    const site = await insertSite(t.db, team.organization.id);
    now = new Date('2025-03-02T08:30:00.123Z');
    const res = await call(team.admin, 'PUT', schemaUrl(site.id), { jsonSchema: betaSchema() });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('updateSiteAdaptiveSchema', 200, res.json());
    const expected = {
      object: 'site-adaptive-schema',
      jsonSchema: betaSchema(),
      updatedAt: '2025-03-02T08:30:00.123Z',
    };
    expect(res.json()).toEqual(expected);

    const stored = await storedSchema(site.id);
    expect(stored.adaptive_schema).toEqual(betaSchema());
    expect(stored.adaptive_schema_updated_at?.toISOString()).toBe('2025-03-02T08:30:00.123Z');

    const read = await call(team.member('read'), 'GET', schemaUrl(site.id));
    expect(read.statusCode).toBe(200);
    expectSpecResponse('getSiteAdaptiveSchema', 200, read.json());
    expect(read.json()).toEqual(expected);

    // A later PUT replaces the whole schema, down to no claims at all.
    now = new Date('2025-03-03T00:00:00.000Z');
    const empty = { type: 'object', properties: {}, additionalProperties: false };
    const cleared = await call(team.admin, 'PUT', schemaUrl(site.id), { jsonSchema: empty });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ ...expected, jsonSchema: empty, updatedAt: '2025-03-03T00:00:00.000Z' });
    expect((await storedSchema(site.id)).adaptive_schema).toEqual(empty);
  });

  it('gives template conditions for each claim, which are valid conditions for the site', async () => {
    const site = await insertSite(t.db, team.organization.id);
    await call(team.admin, 'PUT', schemaUrl(site.id), { jsonSchema: betaSchema() });
    const res = await call(team.member('read'), 'GET', `${schemaUrl(site.id)}/template-conditions`);
    expect(res.statusCode).toBe(200);
    expectSpecResponse('listSiteAdaptiveTemplateConditions', 200, res.json());
    const unverified = ' Unsigned claims are set by the visitor and not verified.';
    expect(res.json().items).toEqual([
      {
        condition: 'visitor.claims.isBetaUser === true',
        description: 'Show to visitors whose isBetaUser claim (“Whether the visitor joined the beta program”) is true.',
      },
      {
        condition: 'visitor.claims.isBetaUser !== true',
        description:
          'Show to visitors whose isBetaUser claim (“Whether the visitor joined the beta program”) is false or not set.',
      },
      {
        condition: 'visitor.claims.isEnterprise === true',
        description: 'Show to visitors whose isEnterprise claim is true.',
      },
      {
        condition: 'visitor.claims.isEnterprise !== true',
        description: 'Show to visitors whose isEnterprise claim is false or not set.',
      },
      {
        condition: 'visitor.claims.unsigned.prefersDarkMode === true',
        description: `Show to visitors whose unsigned prefersDarkMode claim (“The visitor chose the dark theme”) is true.${unverified}`,
      },
      {
        condition: 'visitor.claims.unsigned.prefersDarkMode !== true',
        description: `Show to visitors whose unsigned prefersDarkMode claim (“The visitor chose the dark theme”) is false or not set.${unverified}`,
      },
    ]);

    const { adaptive_schema } = await storedSchema(site.id);
    for (const item of res.json().items as Array<{ condition: string }>) {
      await expect(
        checkCondition(t.app.context, item.condition, adaptive_schema, 'body/condition'),
      ).resolves.toBeUndefined();
    }
  });

  it('refuses a schema of the wrong shape with a 400 naming the part and the rule, storing nothing', async () => {
    const site = await insertSite(t.db, team.organization.id);
    const base = betaSchema();
    const unsigned = base.properties.unsigned;
    const withProperties = (properties: Record<string, unknown>) => ({ ...base, properties });
    const manyClaims = (count: number, prefix = 'c') =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, claim('')]));
    const cases: Array<[string, unknown, RegExp]> = [
      ['no jsonSchema', {}, /^body\/jsonSchema is required$/],
      ['a null jsonSchema', { jsonSchema: null }, /^body\/jsonSchema must be object$/],
      ['another field', { jsonSchema: base, extra: 1 }, /^body\/extra is not an accepted field$/],
      ['another type', { jsonSchema: { ...base, type: 'array' } }, /^body\/jsonSchema\/type must be one of: "object"$/],
      [
        'another draft',
        { jsonSchema: { ...base, $schema: 'https://json-schema.org/draft/2020-12/schema' } },
        /^body\/jsonSchema\/\$schema must be one of: "http:\/\/json-schema.org\/draft-07\/schema#"$/,
      ],
      [
        'open claims',
        { jsonSchema: { ...base, additionalProperties: true } },
        /^body\/jsonSchema\/additionalProperties must be one of: false$/,
      ],
      [
        'no additionalProperties',
        { jsonSchema: { type: 'object', properties: {} } },
        /^body\/jsonSchema\/additionalProperties is required$/,
      ],
      [
        'another schema keyword',
        { jsonSchema: { ...base, required: ['isBetaUser'] } },
        /^body\/jsonSchema\/required is not an accepted field$/,
      ],
      [
        'a string claim',
        { jsonSchema: withProperties({ plan: { type: 'string', description: 'Plan' } }) },
        /^body\/jsonSchema\/properties\/plan\/type must be one of: "boolean"$/,
      ],
      [
        'a claim without description',
        { jsonSchema: withProperties({ isBetaUser: { type: 'boolean' } }) },
        /^body\/jsonSchema\/properties\/isBetaUser\/description is required$/,
      ],
      [
        'a claim with a long description',
        { jsonSchema: withProperties({ isBetaUser: claim('x'.repeat(257)) }) },
        /^body\/jsonSchema\/properties\/isBetaUser\/description must NOT have more than 256 characters$/,
      ],
      [
        'a claim with a default',
        { jsonSchema: withProperties({ isBetaUser: { ...claim('Beta'), default: false } }) },
        /^body\/jsonSchema\/properties\/isBetaUser\/default is not an accepted field$/,
      ],
      [
        'a claim name that is not an identifier',
        { jsonSchema: withProperties({ 'is-beta': claim('Beta') }) },
        /^body\/jsonSchema\/properties must match pattern "\^\[A-Za-z_\]\[A-Za-z0-9_\]\{0,63\}\$"$/,
      ],
      [
        // `unsigned` is always the object of unsigned claims, never a claim of its own.
        'unsigned as a boolean claim',
        { jsonSchema: withProperties({ unsigned: claim('Signed?') }) },
        /^body\/jsonSchema\/properties\/unsigned\/properties is required$/,
      ],
      [
        'unsigned claims with another description',
        { jsonSchema: withProperties({ unsigned: { ...unsigned, description: 'Mine' } }) },
        /^body\/jsonSchema\/properties\/unsigned\/description must be one of: "Unsigned claims of the site visitor."$/,
      ],
      [
        'open unsigned claims',
        { jsonSchema: withProperties({ unsigned: { ...unsigned, additionalProperties: true } }) },
        /^body\/jsonSchema\/properties\/unsigned\/additionalProperties must be one of: false$/,
      ],
      [
        'a number unsigned claim',
        {
          jsonSchema: withProperties({
            unsigned: { ...unsigned, properties: { age: { type: 'number', description: 'Age' } } },
          }),
        },
        /^body\/jsonSchema\/properties\/unsigned\/properties\/age\/type must be one of: "boolean"$/,
      ],
      [
        'more than 100 signed claims',
        { jsonSchema: withProperties(manyClaims(102)) },
        /^body\/jsonSchema\/properties must NOT have more than 101 properties$/,
      ],
      [
        'more than 100 claims in all',
        {
          jsonSchema: withProperties({
            ...manyClaims(60),
            unsigned: { ...unsigned, properties: manyClaims(41, 'u') },
          }),
        },
        /^body\/jsonSchema declares 101 claims, signed and unsigned together; at most 100 are allowed$/,
      ],
    ];
    for (const [name, payload, message] of cases) {
      const res = await call(team.admin, 'PUT', schemaUrl(site.id), payload);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.message, name).toMatch(message);
    }
    expect(await storedSchema(site.id)).toMatchObject({ adaptive_schema: null, adaptive_schema_updated_at: null });

    // 100 claims in all are fine.
    const full = await call(team.admin, 'PUT', schemaUrl(site.id), {
      jsonSchema: withProperties({ ...manyClaims(60), unsigned: { ...unsigned, properties: manyClaims(40, 'u') } }),
    });
    expect(full.statusCode).toBe(200);
  });

  it('is changed by admins only: other members get 403 and nothing changes', async () => {
    const site = await insertSite(t.db, team.organization.id);
    for (const role of ['read', 'edit'] as const) {
      const res = await call(team.member(role), 'PUT', schemaUrl(site.id), { jsonSchema: betaSchema() });
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error.message).toBe(
        'Changing the adaptive schema of a site needs the admin role in the organization',
      );
    }
    expect(await storedSchema(site.id)).toMatchObject({ adaptive_schema: null, adaptive_schema_updated_at: null });
  });

  it('is not found for guests, non-members, unknown sites and sites of another organization', async () => {
    const site = await insertSite(t.db, team.organization.id);
    const stranger = await t.factory.account();
    const other = await t.factory.team();
    const otherSite = await insertSite(t.db, other.organization.id);
    const attempts: Array<[Account, string]> = [
      [team.member(null), schemaUrl(site.id)],
      [stranger, schemaUrl(site.id)],
      [team.admin, schemaUrl('unknownSite0000000000')],
      [team.admin, schemaUrl(otherSite.id)],
      [team.admin, schemaUrl(otherSite.id, other.organization.id)],
    ];
    for (const [account, url] of attempts) {
      for (const [method, path] of [
        ['GET', ''],
        ['PUT', ''],
        ['GET', '/template-conditions'],
      ] as const) {
        const res = await call(
          account,
          method,
          `${url}${path}`,
          method === 'PUT' ? { jsonSchema: betaSchema() } : undefined,
        );
        expect(res.statusCode, `${method} ${url}${path}`).toBe(404);
        expect(res.json().error.message).toBe('No site with this id is visible to you');
      }
    }
    expect((await storedSchema(site.id)).adaptive_schema).toBeNull();
  });

  it('needs site:write for PUT and site:read for reading', async () => {
    const site = await insertSite(t.db, team.organization.id);
    const reader = await t.factory.token(team.admin.user.id, { scopes: ['site:read'] });
    expect((await call(reader, 'GET', schemaUrl(site.id))).statusCode).toBe(200);
    expect((await call(reader, 'PUT', schemaUrl(site.id), { jsonSchema: betaSchema() })).statusCode).toBe(403);
    const other = await t.factory.token(team.admin.user.id, { scopes: ['space:read'] });
    expect((await call(other, 'GET', `${schemaUrl(site.id)}/template-conditions`)).statusCode).toBe(403);
    expect((await storedSchema(site.id)).adaptive_schema).toBeNull();
  });
});

describe('the adaptive schema through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('reads, replaces and lists template conditions', async () => {
    const site = await insertSite(t.db, team.organization.id);
    const client = officialClient(endpoint, team.admin.token);
    const organizationId = team.organization.id;

    const initial = await client.orgs.getSiteAdaptiveSchema(organizationId, site.id);
    expectSpecResponse('getSiteAdaptiveSchema', 200, initial.data);
    expect(initial.data.jsonSchema.properties).toEqual({});

    now = new Date('2025-04-01T12:00:00.000Z');
    const updated = await client.orgs.updateSiteAdaptiveSchema(organizationId, site.id, {
      jsonSchema: {
        type: 'object',
        properties: { isBetaUser: { type: 'boolean', description: 'Beta' } },
        additionalProperties: false,
      },
    });
    expectSpecResponse('updateSiteAdaptiveSchema', 200, updated.data);
    expect(updated.data.updatedAt).toBe('2025-04-01T12:00:00.000Z');

    const templates = await client.orgs.listSiteAdaptiveTemplateConditions(organizationId, site.id);
    expectSpecResponse('listSiteAdaptiveTemplateConditions', 200, templates.data);
    expect(templates.data.items.map((item) => item.condition)).toEqual([
      'visitor.claims.isBetaUser === true',
      'visitor.claims.isBetaUser !== true',
    ]);
  });
});

describe('conditions', () => {
  const claims: DeclaredClaims = declaredClaims(betaSchema())!;
  const problem = (condition: string, declared: DeclaredClaims | null = claims) =>
    conditionProblem(condition, declared);

  it('read the claims a stored schema declares, signed and unsigned', () => {
    expect([...claims.signed.keys()]).toEqual(['isBetaUser', 'isEnterprise']);
    expect([...claims.unsigned.keys()]).toEqual(['prefersDarkMode']);
    expect(claims.signed.get('isBetaUser')).toEqual({ description: 'Whether the visitor joined the beta program' });
    expect(claims.signed.get('isEnterprise')).toEqual({ description: undefined });
    expect(declaredClaims(null)).toBeNull();
  });

  it('accept literals, declared claims, comparisons, logic, negation, parentheses and ternaries', () => {
    for (const condition of [
      'true',
      'visitor.claims.isBetaUser',
      'visitor.claims.isBetaUser === true',
      '!visitor.claims.isBetaUser',
      'visitor.claims.isBetaUser && !visitor.claims.unsigned.prefersDarkMode',
      '(visitor.claims.isBetaUser || visitor.claims.isEnterprise) && visitor.claims.unsigned.prefersDarkMode != null',
      'visitor.claims["isBetaUser"] == true',
      "visitor['claims'].unsigned['prefersDarkMode'] !== false",
      'visitor.claims.unsigned?.prefersDarkMode',
      'visitor.claims.isBetaUser ? visitor.claims.isEnterprise : false',
      '-1 < 2 && 2 <= 3 && 4 > 3 && 4 >= 4',
      '"a" !== \'b\'',
      `${'('.repeat(MAX_CONDITION_NESTING)}visitor.claims.isBetaUser${')'.repeat(MAX_CONDITION_NESTING)}`,
      `"${'('.repeat(40)}" === "x"`,
      `visitor.claims.isBetaUser || "${'x'.repeat(MAX_CONDITION_LENGTH - 32)}" == ""`.slice(0, MAX_CONDITION_LENGTH),
    ]) {
      expect(problem(condition), condition).toBeNull();
    }
  });

  it('say where the syntax breaks and what was expected', () => {
    expect(problem('visitor.claims.isBetaUser && ')).toBe(
      'the expression breaks at its end: Expected expression after &&',
    );
    expect(problem('visitor.claims.isBetaUser ) && true')).toBe(
      'the expression breaks at character 27: Unexpected ")"',
    );
    expect(problem('(visitor.claims.isBetaUser')).toBe('the expression breaks at its end: Unclosed (');
    expect(problem('visitor.claims.isBetaUser = true')).toBe('the expression breaks at character 27: Unexpected "="');
    expect(problem('"open')).toBe('the expression breaks at its end: Unclosed quote after "open"');
  });

  it('refuse calls, this, arrays, several expressions and other operators', () => {
    const cases: Array<[string, string]> = [
      ['visitor.claims.isBetaUser()', 'function calls are not allowed in a condition'],
      ['alert(1)', 'function calls are not allowed in a condition'],
      ['visitor.claims.isBetaUser.valueOf()', 'function calls are not allowed in a condition'],
      [
        'this.visitor',
        '"this" is not allowed in a condition; read visitor.claims.<claim> and visitor.claims.unsigned.<claim>',
      ],
      ['[true]', 'array literals are not allowed in a condition'],
      [
        '(true, false)',
        'the condition must be one expression, not 2 side by side (a comma, or a missing operator between two values)',
      ],
      [
        'true, false',
        'the condition must be one expression, not 2 side by side (a comma, or a missing operator between two values)',
      ],
      [
        'visitor.claims.isBetaUser true',
        'the condition must be one expression, not 2 side by side (a comma, or a missing operator between two values)',
      ],
      [
        '"isBetaUser" in visitor.claims',
        'the condition must be one expression, not 3 side by side (a comma, or a missing operator between two values)',
      ],
      [
        '1 + 1',
        'the operator + is not allowed in a condition; use ==, ===, !=, !==, <, <=, >, >=, &&, || and the unary ! and -',
      ],
      [
        'visitor.claims.isBetaUser ?? true',
        'the operator ?? is not allowed in a condition; use ==, ===, !=, !==, <, <=, >, >=, &&, || and the unary ! and -',
      ],
      [
        '~1',
        'the operator ~ is not allowed in a condition; use ==, ===, !=, !==, <, <=, >, >=, &&, || and the unary ! and -',
      ],
      [
        'visitor.claims[0]',
        'computed member access is allowed only with a string literal, as in visitor.claims["name"]',
      ],
      [
        'visitor.claims[visitor.claims.isBetaUser]',
        'computed member access is allowed only with a string literal, as in visitor.claims["name"]',
      ],
      ['"abc".length', 'a condition may only read visitor.claims.<claim> and visitor.claims.unsigned.<claim>'],
    ];
    for (const [condition, message] of cases) expect(problem(condition), condition).toBe(message);
  });

  it('refuse names other than the declared claims under visitor.claims', () => {
    const cases: Array<[string, string]> = [
      [
        'window',
        'the name window is unknown; a condition may only read visitor.claims.<claim> and visitor.claims.unsigned.<claim>',
      ],
      [
        'undefined === visitor.claims.isBetaUser',
        'the name undefined is unknown; a condition may only read visitor.claims.<claim> and visitor.claims.unsigned.<claim>',
      ],
      ['visitor', 'visitor alone cannot be tested; name a claim, as in visitor.claims.<claim>'],
      [
        'visitor.ip',
        'visitor.ip cannot be read; a condition may only read visitor.claims.<claim> and visitor.claims.unsigned.<claim>',
      ],
      ['visitor.claims', 'visitor.claims alone cannot be tested; name a claim, as in visitor.claims.<claim>'],
      [
        'visitor.claims.unsigned',
        'visitor.claims.unsigned alone cannot be tested; name a claim, as in visitor.claims.unsigned.<claim>',
      ],
      ['visitor.claims.isBeta', "visitor.claims.isBeta is not declared in the site's adaptive schema"],
      [
        'visitor.claims.prefersDarkMode',
        "visitor.claims.prefersDarkMode is not declared in the site's adaptive schema",
      ],
      [
        'visitor.claims.unsigned.isBetaUser',
        "visitor.claims.unsigned.isBetaUser is not declared in the site's adaptive schema",
      ],
      ['visitor.claims["is beta"]', 'visitor.claims["is beta"] is not declared in the site\'s adaptive schema'],
      ['visitor.claims.isBetaUser.since', 'visitor.claims.isBetaUser is a boolean claim; it has no member since'],
      ['visitor.claims.__proto__', "visitor.claims.__proto__ is not declared in the site's adaptive schema"],
    ];
    for (const [condition, message] of cases) expect(problem(condition), condition).toBe(message);
  });

  it('refuse any claim on a site without an adaptive schema, saying to set one', () => {
    expect(problem('visitor.claims.isBetaUser', null)).toBe(
      'visitor.claims.isBetaUser names a visitor claim, but the site has no adaptive schema: set one that declares the claim (PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema)',
    );
    expect(problem('true', null)).toBeNull();
  });

  it('refuse empty, over-long and too deeply nested conditions before parsing them', () => {
    expect(problem('')).toBe('the condition is empty; write an expression such as visitor.claims.<claim>');
    expect(problem('   ')).toBe('the condition is empty; write an expression such as visitor.claims.<claim>');
    expect(problem(`"${'x'.repeat(MAX_CONDITION_LENGTH - 1)}"`)).toBe(
      'the condition must NOT have more than 1024 characters',
    );
    // Characters, not UTF-16 units: 512 emoji are 1024 units but 514 characters with the quotes.
    expect(problem(`"${'😀'.repeat(512)}"`)).toBeNull();
    const deep = `${'('.repeat(MAX_CONDITION_NESTING + 1)}true${')'.repeat(MAX_CONDITION_NESTING + 1)}`;
    expect(problem(deep)).toBe(
      'parentheses and brackets nest more than 32 deep (at character 33); at most 32 levels are allowed',
    );
    expect(problem(`visitor.claims${'['.repeat(40)}`)).toMatch(/^parentheses and brackets nest more than 32 deep/);
    // Unary operators and ternaries nest as deep as the length lets them, which the parser and the check take in stride.
    expect(problem(`${'!'.repeat(MAX_CONDITION_LENGTH - 4)}true`)).toBeNull();
    expect(problem(`${'true?'.repeat(145)}1${':0'.repeat(145)}`)).toBeNull();
  });

  it('are checked with a 400 that names the field', async () => {
    const stored = betaSchema();
    await expect(
      checkCondition(t.app.context, 'visitor.claims.isBetaUser', stored, 'body/condition'),
    ).resolves.toBeUndefined();
    const refusal = checkCondition(t.app.context, 'visitor.claims.isBetaUser &&', stored, 'body/condition');
    await expect(refusal).rejects.toBeInstanceOf(BadRequestError);
    await expect(refusal).rejects.toThrow(
      'body/condition: the expression breaks at its end: Expected expression after &&',
    );
    await expect(checkCondition(t.app.context, 'visitor.claims.x', null, 'body/links/0/condition')).rejects.toThrow(
      /^body\/links\/0\/condition: visitor.claims.x names a visitor claim, but the site has no adaptive schema/,
    );
  });

  it('templates are valid conditions for the claims they come from', () => {
    const items = templateConditions(claims);
    expect(items).toHaveLength(6);
    for (const item of items) expect(problem(item.condition), item.condition).toBeNull();
    expect(templateConditions(declaredClaims({ type: 'object', properties: {}, additionalProperties: false }))).toEqual(
      [],
    );
    expect(templateConditions(null)).toEqual([]);
  });
});
