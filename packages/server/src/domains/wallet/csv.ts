/**
 * Records as CSV: one header line of `columns`, then one line per record; a field is quoted
 * when it holds a separator, a quote or a line break. Nulls are empty fields.
 */
export function recordsCsv<T extends object>(
  columns: readonly (keyof T & string)[],
  records: readonly T[],
): string {
  const quote = (value: unknown) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = records.map((record) => columns.map((column) => quote(record[column])).join(','));
  return `${[columns.join(','), ...lines].join('\n')}\n`;
}
