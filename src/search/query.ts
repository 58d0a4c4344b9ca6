import { sql, type RawBuilder } from 'kysely';
import { SEARCH_CONFIGURATIONS } from '../document/facts.js';

/** A search as typed, read: what the database's web-search syntax takes, and the prefixes it does not. */
export interface ParsedQuery {
  /** Words, `"quoted phrases"`, `or` and `-excluded` words, for websearch_to_tsquery. */
  text: string;
  /** The words and phrases looked for, without exclusions: where in a page they are is shown by any of them. */
  wanted: string;
  /** Words typed with a trailing `*`: they match every word they begin. */
  prefixes: string[];
}

/** Characters of scripts written without spaces between words; the index holds them one at a time. */
const UNSPACED = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const UNSPACED_RUN = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu;
const PREFIX = /^[\p{L}\p{N}_]+\*$/u;
/** At most this many prefixes count; a query is 512 characters anyway. */
const MAX_PREFIXES = 16;

const spaced = (run: string) => [...run].join(' ');

/**
 * Reads a query in one pass over its (at most 512) characters: quoted
 * phrases are kept whole, `word*` becomes a prefix, and a run of Chinese,
 * Japanese or Thai characters becomes a phrase of its characters, as the
 * index splits them.
 */
export function parseQuery(query: string): ParsedQuery {
  const parts: string[] = [];
  const wanted: string[] = [];
  const prefixes: string[] = [];
  // Odd pieces are inside quotes.
  query.split('"').forEach((piece, index) => {
    if (index % 2 === 1) {
      const phrase = UNSPACED.test(piece) ? piece.replace(UNSPACED_RUN, (run) => ` ${spaced(run)} `) : piece;
      if (phrase.trim()) parts.push(`"${phrase.trim()}"`);
      if (phrase.trim()) wanted.push(`"${phrase.trim()}"`);
      return;
    }
    for (const word of piece.split(/\s+/)) {
      if (!word) continue;
      if (PREFIX.test(word) && prefixes.length < MAX_PREFIXES) prefixes.push(word.slice(0, -1).toLowerCase());
      else {
        const read = UNSPACED.test(word) ? word.replace(UNSPACED_RUN, (run) => ` "${spaced(run)}" `).trim() : word;
        parts.push(read);
        if (!read.startsWith('-') && read.toLowerCase() !== 'or') wanted.push(read);
      }
    }
  });
  return { text: parts.join(' '), wanted: wanted.join(' '), prefixes };
}

/**
 * The query as a tsquery: under each language's configuration the words
 * (stemmed as that language stems them) and the prefixes, all required; any
 * one language's reading may match, since each page is indexed in its own.
 * Every value is a bound parameter; prefixes hold only letters, digits and `_`,
 * so quoting them for to_tsquery is safe.
 */
export function tsquery(parsed: ParsedQuery): RawBuilder<string> {
  return readings(parsed, (configuration) => {
    const parts: RawBuilder<unknown>[] = [];
    if (parsed.text) parts.push(sql`websearch_to_tsquery(${configuration}::regconfig, ${parsed.text})`);
    for (const prefix of parsed.prefixes) parts.push(prefixQuery(configuration, prefix));
    return sql`(${sql.join(parts, sql` && `)})`;
  });
}

/**
 * Any one of the query's words, phrases or prefixes: what marks the sections
 * of a matching page worth showing. The words' conjunction is read by the
 * database and turned into a disjunction on its text form, where every lexeme
 * is quoted and `&` can only be the operator.
 */
export function anyWordQuery(parsed: ParsedQuery): RawBuilder<string> {
  // Only excluded words (`-draft`, `or`): nothing is looked for, so no section is marked.
  if (!parsed.wanted && parsed.prefixes.length === 0) return sql<string>`''::tsquery`;
  return readings(parsed, (configuration) => {
    const parts: RawBuilder<unknown>[] = [];
    if (parsed.wanted) {
      parts.push(
        sql`replace(websearch_to_tsquery(${configuration}::regconfig, ${parsed.wanted})::text, ' & ', ' | ')::tsquery`,
      );
    }
    for (const prefix of parsed.prefixes) parts.push(prefixQuery(configuration, prefix));
    return sql`(${sql.join(parts, sql` || `)})`;
  });
}

const prefixQuery = (configuration: string, prefix: string) =>
  sql`to_tsquery(${configuration}::regconfig, ${`'${prefix}':*`})`;

/**
 * One reading of the query per language, any of which may match. Most
 * languages read most words alike: the distinct readings only are joined, so
 * the index is searched for each lexeme once (a query of sixteen equal
 * readings cost the index scan four times as much). A reading with no lexeme
 * (only stop words in that language) drops out; with none left the query
 * is null and matches nothing.
 */
function readings(parsed: ParsedQuery, reading: (configuration: string) => RawBuilder<unknown>): RawBuilder<string> {
  if (isEmptyQuery(parsed)) return sql<string>`''::tsquery`;
  return sql<string>`(
    select string_agg(distinct '(' || reading::text || ')', ' | ')::tsquery
    from unnest(array[${sql.join(SEARCH_CONFIGURATIONS.map(reading))}]::tsquery[]) as reading
    where numnode(reading) > 0)`;
}

/** Whether the query has anything to look for. */
export function isEmptyQuery(parsed: ParsedQuery): boolean {
  return parsed.text.trim() === '' && parsed.prefixes.length === 0;
}
