/** CSV in RFC 4180: one writer for every export and one line reader for every import. */

/** RFC 4180 CSV: fields with commas, quotes or line breaks are quoted; null/NaN become empty fields. */
export function formatCsv(header: string[], rows: (string | number | boolean | null)[][]): string {
  const field = (v: string | number | boolean | null) => {
    if (v === null || (typeof v === 'number' && !Number.isFinite(v))) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** Splits one CSV line (RFC 4180 quotes allowed). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(field); field = ''; } else field += c;
  }
  out.push(field);
  return out;
}
