/** CSV in RFC 4180: one writer for every export and one reader for every import. */
import { LIMITS, LimitError, limitSentence } from '../limits.ts';

/** RFC 4180 CSV: fields with commas, quotes or line breaks are quoted; null/NaN become empty fields. */
export function formatCsv(header: string[], rows: (string | number | boolean | null)[][]): string {
  const field = (v: string | number | boolean | null) => {
    if (v === null || (typeof v === 'number' && !Number.isFinite(v))) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** One record of a CSV text: its fields and the 1-based line it starts on (a quoted field may span lines). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** A CSV text that cannot be read (an unterminated quoted field); `line` is 1-based and also leads the message. */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'CsvError';
  }
}

const COMMA = 44,
  LF = 10,
  CR = 13,
  QUOTE = 34;

/**
 * Reads RFC 4180 CSV in one pass (linear time): records end at LF or CRLF; a quoted field may hold commas,
 * doubled quotes and line breaks. Liberal where the RFC is silent, as Python's csv module is: a leading UTF-8
 * byte-order mark is dropped, a quote inside an unquoted field and text after a closing quote are kept as
 * they are, a lone CR is data. Empty lines are no records. Records past `LIMITS.batchRows` are refused;
 * the text itself is bounded by `LIMITS.inputBytes` where it is read.
 */
export function parseCsv(text: string, what = 'the CSV table'): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    const start = i;
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text.charCodeAt(i) === QUOTE) {
        const open = line;
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new CsvError('a quoted field opened on this line is never closed (a " is missing)', open);
          // Line breaks are counted between i and q only: searching for the next '\n' from i would scan past q,
          // to the end of a long line, once per doubled quote ("" × 2 million on one line took minutes).
          for (let k = i; k < q; k++) if (text.charCodeAt(k) === LF) line++;
          field += text.slice(i, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            field += '"';
            i = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
      }
      let j = i;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (c === COMMA || c === LF || (c === CR && text.charCodeAt(j + 1) === LF)) break;
      }
      fields.push(field + text.slice(i, j));
      i = j;
      if (i < n && text.charCodeAt(i) === COMMA) {
        i++;
        continue;
      }
      break;
    }
    const empty = i === start;
    if (i < n) {
      i += text.charCodeAt(i) === CR ? 2 : 1;
      line++;
    }
    if (empty) continue;
    if (records.length >= LIMITS.batchRows)
      throw new LimitError('batchRows', limitSentence(what, null, LIMITS.batchRows, 'rows', 'batchRows'));
    records.push({ fields, line: startLine });
  }
  return records;
}
