/** A CSV document (RFC 4180): a header row, then one row per record, CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  // A leading = + - @ would make a spreadsheet evaluate the field; a quote and a tab prevent it.
  const safe = /^[=+\-@]/.test(text) && !/^-?\d/.test(text) ? `\t${text}` : text;
  return /[",\r\n\t]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Unix milliseconds as an ISO 8601 UTC time, or '' for 0. */
export function isoTime(ms: number): string {
  return ms === 0 ? '' : new Date(ms).toISOString();
}
