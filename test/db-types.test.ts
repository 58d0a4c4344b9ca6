import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { generatedTableTypes, TABLE_TYPES_PATH } from './support/table-types.js';

/**
 * src/db/tables.generated.ts is what kysely-codegen writes for the migrated
 * schema: a migration that adds, drops or changes a column fails here until
 * `npm run db:types` writes the file again. The column types given by hand
 * (kysely-codegen.json's overrides, from column-types.ts) are written as they
 * are; they are held to the schema here.
 */

interface DbColumn {
  nullable: boolean;
  /** Whether an insert may leave it out. */
  hasDefault: boolean;
  /** GENERATED ALWAYS AS (…) STORED: an insert may not set it. */
  generated: boolean;
}

async function migratedColumns(url: string): Promise<Map<string, DbColumn>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      name: string;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
      is_generated: 'ALWAYS' | 'NEVER';
      is_identity: 'YES' | 'NO';
    }>(
      `SELECT c.table_name || '.' || c.column_name AS name, c.is_nullable, c.column_default, c.is_generated, c.is_identity
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> 'pgmigrations'`,
    );
    return new Map(
      rows.map((row) => [
        row.name,
        {
          nullable: row.is_nullable === 'YES',
          hasDefault: row.column_default !== null || row.is_identity === 'YES',
          generated: row.is_generated === 'ALWAYS',
        },
      ]),
    );
  } finally {
    await client.end();
  }
}

const TYPES_DIR = path.dirname(TABLE_TYPES_PATH);
const PROBE_PATH = path.join(TYPES_DIR, 'column-probe.ts');
/** For each column of `Database` as the code reads it: whether a read may be null, and whether an insert may leave it out. */
const PROBE = `
import type { Insertable, Selectable } from 'kysely';
import type { Database } from './types.js';
export type Probe = {
  [T in keyof Database]: {
    [C in keyof Selectable<Database[T]>]-?: {
      // unknown (JSON read as anything) says nothing either way.
      nullable: unknown extends Selectable<Database[T]>[C]
        ? 'unknown'
        : null extends Selectable<Database[T]>[C] ? 'yes' : 'no';
      optional: C extends keyof Insertable<Database[T]>
        ? {} extends Pick<Insertable<Database[T]>, C> ? 'yes' : 'no'
        : 'never';
    };
  };
};
`;

/** Each column of `Database` with what the TypeScript compiler makes of its type. */
function typedColumns(): Map<string, { nullable: string; optional: string }> {
  const options: ts.CompilerOptions = {
    strict: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.fileExists = (file) => file === PROBE_PATH || fileExists(file);
  host.getSourceFile = (file, language, ...rest) =>
    file === PROBE_PATH ? ts.createSourceFile(file, PROBE, language) : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([PROBE_PATH], options, host);
  const checker = program.getTypeChecker();
  const probe = program.getSourceFile(PROBE_PATH)!;
  const alias = probe.statements.find(ts.isTypeAliasDeclaration)!;
  const literal = (type: ts.Type, name: string) =>
    checker.typeToString(checker.getTypeOfSymbol(type.getProperty(name)!)).replaceAll('"', '');
  const columns = new Map<string, { nullable: string; optional: string }>();
  for (const table of checker.getTypeAtLocation(alias.name).getProperties()) {
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const facts = checker.getTypeOfSymbol(column);
      columns.set(`${table.name}.${column.name}`, {
        nullable: literal(facts, 'nullable'),
        optional: literal(facts, 'optional'),
      });
    }
  }
  return columns;
}

describe('the table types', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('are what kysely-codegen writes for the migrated schema now', async () => {
    const generated = await generatedTableTypes(database.url);
    expect(generated, 'src/db/tables.generated.ts is out of date: run npm run db:types').toBe(
      await readFile(TABLE_TYPES_PATH, 'utf8'),
    );
  }, 60_000);

  it('say null where a column takes it, leave out on insert only what has a default, and never set a computed column', async () => {
    const columns = await migratedColumns(database.url);
    const typed = typedColumns();
    expect([...typed.keys()].sort()).toEqual([...columns.keys()].sort());
    const wrong: string[] = [];
    for (const [name, column] of columns) {
      const { nullable, optional } = typed.get(name)!;
      if (nullable !== 'unknown' && (nullable === 'yes') !== column.nullable)
        wrong.push(`${name}: nullable ${nullable}`);
      if (optional === 'yes' && !column.hasDefault && !column.nullable)
        wrong.push(`${name}: optional without a default`);
      if ((optional === 'never') !== column.generated) wrong.push(`${name}: insertable ${optional}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
