/** RFC 4180 CSV, safe to open in a spreadsheet. */

/** Cells a spreadsheet would read as a formula (or that hide one behind a tab or CR). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: a leading apostrophe disarms a formula, then quotes (doubled inside) when needed. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record with its CRLF line end. */
export const csvRow = (cells: ReadonlyArray<string | number | boolean | null | undefined>): string =>
  `${cells.map(csvCell).join(',')}\r\n`;
