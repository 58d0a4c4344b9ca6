import { readFileSync } from 'node:fs';
import pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';

/**
 * src/db/types.ts is written by hand, after the migrations. These tests read
 * it with the TypeScript compiler and hold it against the migrated schema, so
 * that a migration which adds, drops or changes a column fails here until the
 * types say the same.
 */

const TYPES_PATH = new URL('../src/db/types.ts', import.meta.url);

/** A column as information_schema describes it. */
interface DbColumn {
  table: string;
  column: string;
  nullable: boolean;
  /** information_schema's data_type, e.g. `text`, `ARRAY`, `USER-DEFINED`. */
  dataType: string;
  /** The underlying type's name, e.g. `int4`, `timestamptz`, `_text` for text[]. */
  udtName: string;
  hasDefault: boolean;
  /** GENERATED ALWAYS AS (…) STORED: the database computes it, an insert may not set it. */
  generated: boolean;
}

async function migratedColumns(url: string): Promise<{ tables: string[]; columns: DbColumn[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'pgmigrations'
       ORDER BY table_name`,
    );
    const columns = await client.query<{
      table_name: string;
      column_name: string;
      is_nullable: 'YES' | 'NO';
      data_type: string;
      udt_name: string;
      column_default: string | null;
      is_generated: 'ALWAYS' | 'NEVER';
      is_identity: 'YES' | 'NO';
    }>(
      `SELECT c.table_name, c.column_name, c.is_nullable, c.data_type, c.udt_name, c.column_default,
              c.is_generated, c.is_identity
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'pgmigrations'
       ORDER BY c.table_name, c.ordinal_position`,
    );
    return {
      tables: tables.rows.map((row) => row.table_name),
      columns: columns.rows.map((row) => ({
        table: row.table_name,
        column: row.column_name,
        nullable: row.is_nullable === 'YES',
        dataType: row.data_type,
        udtName: row.udt_name,
        hasDefault: row.column_default !== null || row.is_identity === 'YES',
        generated: row.is_generated === 'ALWAYS',
      })),
    };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------
// Reading src/db/types.ts

/**
 * What a TypeScript type can hold, as a set of kinds: `string`, `number`,
 * `boolean`, `null`, `undefined`, `never`, `Date`, `Buffer`, `object`,
 * `unknown`, and arrays as `<element kinds>[]` (e.g. `string[]`).
 */
type Kinds = Set<string>;

/** A column's type as Kysely sees it: what a select reads, and what an insert may write. */
interface ColumnKinds {
  select: Kinds;
  insert: Kinds;
}

/** A table interface's columns, by name. */
interface TsTable {
  interfaceName: string;
  columns: Map<string, ColumnKinds>;
}

const plain = (kinds: Kinds): ColumnKinds => ({ select: kinds, insert: kinds });
const union = (parts: ColumnKinds[]): ColumnKinds => ({
  select: new Set(parts.flatMap((part) => [...part.select])),
  insert: new Set(parts.flatMap((part) => [...part.insert])),
});

function propertyName(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  throw new Error(`src/db/types.ts: cannot read the property name ${name.getText()}`);
}

/** The tables `Database` names in the given source of src/db/types.ts, each with its columns' kinds. */
function readTypes(source: string): Map<string, TsTable> {
  const file = ts.createSourceFile('types.ts', source, ts.ScriptTarget.Latest, true);
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of file.statements) {
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  }

  const resolve = (node: ts.TypeNode, env: ReadonlyMap<string, ColumnKinds>): ColumnKinds => {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return plain(new Set(['string']));
      case ts.SyntaxKind.NumberKeyword:
        return plain(new Set(['number']));
      case ts.SyntaxKind.BooleanKeyword:
        return plain(new Set(['boolean']));
      case ts.SyntaxKind.UndefinedKeyword:
        return plain(new Set(['undefined']));
      case ts.SyntaxKind.NeverKeyword:
        return plain(new Set(['never']));
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.AnyKeyword:
        return plain(new Set(['unknown']));
      case ts.SyntaxKind.ObjectKeyword:
      case ts.SyntaxKind.TypeLiteral:
        return plain(new Set(['object']));
    }
    if (ts.isParenthesizedTypeNode(node)) return resolve(node.type, env);
    if (ts.isUnionTypeNode(node)) return union(node.types.map((type) => resolve(type, env)));
    if (ts.isLiteralTypeNode(node)) {
      const literal = node.literal;
      if (literal.kind === ts.SyntaxKind.NullKeyword) return plain(new Set(['null']));
      if (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) return plain(new Set(['string']));
      if (ts.isNumericLiteral(literal) || ts.isPrefixUnaryExpression(literal)) return plain(new Set(['number']));
      if (literal.kind === ts.SyntaxKind.TrueKeyword || literal.kind === ts.SyntaxKind.FalseKeyword) {
        return plain(new Set(['boolean']));
      }
    }
    if (ts.isArrayTypeNode(node)) return plain(new Set([arrayKind(resolve(node.elementType, env).select)]));
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText();
      const args = node.typeArguments ?? [];
      const bound = env.get(name);
      if (bound) return bound;
      if (name === 'ColumnType') {
        // Kysely's ColumnType<Select, Insert = Select, Update = Select>: a select reads the first.
        const [select, insert] = args;
        if (!select) throw new Error('src/db/types.ts: ColumnType without its select type');
        return { select: resolve(select, env).select, insert: resolve(insert ?? select, env).select };
      }
      if (name === 'Date') return plain(new Set(['Date']));
      if (name === 'Buffer' || name === 'Uint8Array') return plain(new Set(['Buffer']));
      if (name === 'Record') return plain(new Set(['object']));
      if (name === 'Array' || name === 'ReadonlyArray') {
        return plain(new Set([arrayKind(args[0] ? resolve(args[0], env).select : new Set(['unknown']))]));
      }
      const alias = aliases.get(name);
      if (alias) {
        const params = new Map(env);
        (alias.typeParameters ?? []).forEach((param, index) => {
          const arg = args[index] ?? param.default;
          if (!arg) throw new Error(`src/db/types.ts: ${name} used without its type argument ${param.name.text}`);
          params.set(param.name.text, resolve(arg, env));
        });
        return resolve(alias.type, params);
      }
      if (interfaces.has(name)) return plain(new Set(['object']));
    }
    throw new Error(`src/db/types.ts: cannot tell what the type ${node.getText()} holds; teach test/db-types.test.ts`);
  };

  const membersOf = (declaration: ts.InterfaceDeclaration): ts.PropertySignature[] => {
    const inherited = (declaration.heritageClauses ?? []).flatMap((clause) =>
      clause.types.flatMap((type) => {
        const parent = interfaces.get(type.expression.getText());
        if (!parent) throw new Error(`src/db/types.ts: ${declaration.name.text} extends an unknown ${type.getText()}`);
        return membersOf(parent);
      }),
    );
    return [...inherited, ...declaration.members.filter(ts.isPropertySignature)];
  };

  const database = interfaces.get('Database');
  if (!database) throw new Error('src/db/types.ts declares no interface Database');
  const tables = new Map<string, TsTable>();
  for (const member of membersOf(database)) {
    const table = propertyName(member.name);
    const reference = member.type;
    if (!reference || !ts.isTypeReferenceNode(reference)) {
      throw new Error(`src/db/types.ts: Database.${table} is not the name of a table interface`);
    }
    const interfaceName = reference.typeName.getText();
    const declaration = interfaces.get(interfaceName);
    if (!declaration)
      throw new Error(`src/db/types.ts: Database.${table} names ${interfaceName}, which it does not declare`);
    const columns = new Map<string, ColumnKinds>();
    for (const property of membersOf(declaration)) {
      const column = propertyName(property.name);
      if (!property.type) throw new Error(`src/db/types.ts: ${interfaceName}.${column} has no type`);
      columns.set(column, resolve(property.type, new Map()));
    }
    tables.set(table, { interfaceName, columns });
  }
  return tables;
}

function arrayKind(element: Kinds): string {
  return `${[...element].sort().join('|')}[]`;
}

// ---------------------------------------------------------------------------
// What each PostgreSQL type reads back as, through node-postgres

const SCALARS: Record<string, string[]> = {
  text: ['string'],
  varchar: ['string'],
  bpchar: ['string'],
  char: ['string'],
  name: ['string'],
  citext: ['string'],
  uuid: ['string'],
  inet: ['string'],
  cidr: ['string'],
  int2: ['number'],
  int4: ['number'],
  float4: ['number'],
  float8: ['number'],
  oid: ['number'],
  // node-postgres reads these as strings unless a type parser says otherwise; either may be declared.
  int8: ['string', 'number'],
  numeric: ['string', 'number'],
  bool: ['boolean'],
  timestamptz: ['Date'],
  timestamp: ['Date'],
  date: ['Date'],
  bytea: ['Buffer'],
  // Text search types read back as their text forms.
  regconfig: ['string'],
  tsvector: ['string'],
  // Parsed JSON: whatever object, array or opaque type the service gives it, but no primitive.
  json: ['object', 'unknown'],
  jsonb: ['object', 'unknown'],
};

const isJson = (udtName: string) => udtName === 'json' || udtName === 'jsonb';

/**
 * The kinds a column of this type may be declared as (besides null), or
 * undefined when the test has no mapping for it. A JSON column may also be
 * declared as any array type.
 */
function expectedKinds(column: DbColumn): { label: string; kinds: string[]; anyArray: boolean } | undefined {
  if (column.dataType === 'ARRAY') {
    const element = column.udtName.replace(/^_/, '');
    const kinds = SCALARS[element];
    if (!kinds) return undefined;
    return {
      label: `${element}[]`,
      kinds: kinds.flatMap((kind) => [`${kind}[]`, `${kind}|null[]`]),
      anyArray: isJson(element),
    };
  }
  // An enum type reads back as its labels' strings.
  if (column.dataType === 'USER-DEFINED' && !SCALARS[column.udtName]) {
    return { label: column.udtName, kinds: ['string'], anyArray: false };
  }
  const kinds = SCALARS[column.udtName];
  return kinds && { label: column.udtName, kinds, anyArray: isJson(column.udtName) };
}

const show = (kinds: Iterable<string>) => [...kinds].sort().join(' | ') || 'nothing';

/** Every difference between the migrated schema and the types, by what it is about. */
interface Drift {
  tables: string[];
  columns: string[];
  nullability: string[];
  types: string[];
  inserts: string[];
}

function driftBetween(schema: { tables: string[]; columns: DbColumn[] }, types: Map<string, TsTable>): Drift {
  const drift: Drift = { tables: [], columns: [], nullability: [], types: [], inserts: [] };
  for (const table of schema.tables) {
    if (!types.has(table))
      drift.tables.push(`${table}: a table in the database, missing from Database in src/db/types.ts`);
  }
  for (const table of types.keys()) {
    if (!schema.tables.includes(table))
      drift.tables.push(`${table}: in Database in src/db/types.ts, not a table in the database`);
  }

  for (const [table, { interfaceName, columns }] of types) {
    if (!schema.tables.includes(table)) continue;
    const inDatabase = new Set(
      schema.columns.filter((column) => column.table === table).map((column) => column.column),
    );
    for (const column of columns.keys()) {
      if (!inDatabase.has(column))
        drift.columns.push(`${table}.${column}: in ${interfaceName}, not a column in the database`);
    }
  }

  for (const column of schema.columns) {
    const where = `${column.table}.${column.column}`;
    const table = types.get(column.table);
    if (!table) continue;
    const declared = table.columns.get(column.column);
    if (!declared) {
      const type = column.dataType === 'ARRAY' ? column.udtName : column.dataType;
      const described = `${type}, ${column.nullable ? 'nullable' : 'not null'}`;
      drift.columns.push(`${where}: a column in the database (${described}), missing from ${table.interfaceName}`);
      continue;
    }

    const typedNullable = declared.select.has('null');
    const typedAs = show(declared.select);
    if (column.nullable && !typedNullable) {
      drift.nullability.push(
        `${where}: nullable in the database, but ${table.interfaceName} types it as ${typedAs}, without | null`,
      );
    }
    if (!column.nullable && typedNullable) {
      drift.nullability.push(`${where}: NOT NULL in the database, but ${table.interfaceName} types it as ${typedAs}`);
    }

    const expected = expectedKinds(column);
    const found = [...declared.select].filter((kind) => kind !== 'null');
    if (!expected) {
      drift.types.push(`${where}: the test does not know what ${column.udtName} reads back as; add it to SCALARS`);
    } else {
      const wrong = found.filter(
        (kind) => !expected.kinds.includes(kind) && !(expected.anyArray && kind.endsWith('[]')),
      );
      if (found.length === 0 || wrong.length > 0) {
        drift.types.push(
          `${where}: ${expected.label} reads back as ${show(expected.kinds)}; ` +
            `${table.interfaceName} has ${show(found)}`,
        );
      }
    }

    // Kysely lets an insert leave out a column whose insert type admits undefined (Generated, Timestamp, …),
    // and refuses one whose insert type is never: the database must fill those in.
    const insertOptional = declared.insert.has('undefined');
    const insertRefused = declared.insert.size === 1 && declared.insert.has('never');
    if (column.generated && !insertRefused) {
      drift.inserts.push(
        `${where}: generated by the database, but ${table.interfaceName} lets an insert set it ` +
          '(insert type should be never)',
      );
    }
    if ((insertOptional || insertRefused) && !column.hasDefault && !column.generated && !column.nullable) {
      drift.inserts.push(
        `${where}: ${table.interfaceName} lets an insert leave it out, but the column is NOT NULL with no default`,
      );
    }
  }
  return drift;
}

// ---------------------------------------------------------------------------

describe('src/db/types.ts against the migrated schema', () => {
  let database: TestDatabase;
  let schema: { tables: string[]; columns: DbColumn[] };
  const source = readFileSync(TYPES_PATH, 'utf8');
  let drift: Drift;

  beforeAll(async () => {
    database = await createTestDatabase();
    schema = await migratedColumns(database.url);
    drift = driftBetween(schema, readTypes(source));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('finds the schema and the types to compare', () => {
    expect(schema.tables.length).toBeGreaterThan(10);
    expect(schema.tables).not.toContain('pgmigrations');
    expect(readTypes(source).size).toBeGreaterThan(10);
  });

  it('names every table of the schema in Database, and no other', () => {
    expect(drift.tables).toEqual([]);
  });

  it('declares every column of each table, and no other', () => {
    expect(drift.columns).toEqual([]);
  });

  it('types a column with | null exactly where the database lets it be null', () => {
    expect(drift.nullability).toEqual([]);
  });

  it('types each column as node-postgres reads its PostgreSQL type back', () => {
    expect(drift.types).toEqual([]);
  });

  it('lets an insert leave out only columns the database fills in', () => {
    expect(drift.inserts).toEqual([]);
  });

  // The comparison itself, on copies of types.ts that a migration has outrun.
  describe('reports', () => {
    const edited = (from: string, to: string) => {
      expect(source).toContain(from);
      return driftBetween(schema, readTypes(source.replace(from, to)));
    };

    it('a column a migration added that the types lack', () => {
      const found = edited('  display_name: string;\n', '');
      expect(found.columns).toEqual([
        'users.display_name: a column in the database (text, not null), missing from UsersTable',
      ]);
    });

    it('a column the types keep after a migration dropped it', () => {
      const found = edited('  display_name: string;\n', '  display_name: string;\n  nickname: string;\n');
      expect(found.columns).toEqual(['users.nickname: in UsersTable, not a column in the database']);
    });

    it('a table the types lack', () => {
      const found = edited('  blobs: BlobsTable;\n', '');
      expect(found.tables).toEqual(['blobs: a table in the database, missing from Database in src/db/types.ts']);
    });

    it('a nullable column typed without | null, and the other way round', () => {
      expect(edited('  photo_url: string | null;\n', '  photo_url: string;\n').nullability).toEqual([
        'users.photo_url: nullable in the database, but UsersTable types it as string, without | null',
      ]);
      expect(edited('  display_name: string;\n', '  display_name: string | null;\n').nullability).toEqual([
        'users.display_name: NOT NULL in the database, but UsersTable types it as null | string',
      ]);
    });

    it('a column typed unlike what its PostgreSQL type reads back as', () => {
      const found = edited('  display_name: string;\n', '  display_name: number;\n');
      expect(found.types).toEqual(['users.display_name: text reads back as string; UsersTable has number']);
    });

    it('a column an insert may leave out that the database does not fill, and a generated one it may set', () => {
      expect(edited('  display_name: string;\n', '  display_name: Generated<string>;\n').inserts).toEqual([
        'users.display_name: UsersTable lets an insert leave it out, but the column is NOT NULL with no default',
      ]);
      expect(edited('  thread_key: ColumnType<string, never, never>;\n', '  thread_key: string;\n').inserts).toEqual([
        'comments.thread_key: generated by the database, but CommentsTable lets an insert set it ' +
          '(insert type should be never)',
      ]);
    });
  });
});
