/**
 * Values written into ClickHouse SQL. ClickHouse 18.16 (the only server Debian packages) has no
 * server-side query parameters, so every value a statement holds goes through these functions, and
 * only these: a string as a quoted literal with its quote and backslash escaped, a number only when it
 * is a safe integer (ids, times, sizes), anything else refused. Key hashes and hosts are validated by
 * the contract's patterns before they get here; this holds even for a value that was not.
 */

/** A ClickHouse string literal: `'` and `\` escaped with a backslash, NUL as `\0` (the lexer ends a
 *  literal only at an unescaped quote; every other byte stands for itself). */
export function chString(value: string): string {
  return `'${value.replace(/[\\'\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`))}'`;
}

/** An integer literal; anything that is not a safe integer throws (never written as text). */
export function chInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer for ClickHouse SQL: ${value}`);
  return String(value);
}

/** A list for `in (...)`: integers. An empty list matches nothing (`in (NULL)` is false for every row). */
export function chInts(values: Iterable<number>): string {
  const out = [...values].map(chInt);
  return out.length ? out.join(', ') : 'NULL';
}

/** A name of our own (table, column, database): letters, digits and `_` only, never user input. */
export function chName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`not a ClickHouse name: ${name}`);
  return name;
}
