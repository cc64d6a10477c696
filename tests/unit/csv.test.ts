/** The one CSV reader (src/core/io/csv.ts) against the one writer: RFC 4180 round trips, line numbers, limits. */
import { describe, expect, it } from 'vitest';
import { CsvError, formatCsv, parseCsv } from '../../src/core/io/csv.ts';
import { LIMITS, LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { parseOutcomesCsv } from '../../src/core/tasks/onng/analytics.ts';
import { mulberry32 } from '../../scripts/support/random.ts';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe('parseCsv reads what formatCsv writes', () => {
  it('fields with commas, quotes, CRLF, LF and CR inside round-trip', () => {
    const header = ['id', 'note', 'n'];
    const rows = [
      ['a,b', 'say "hi"', '1'],
      ['multi\nline', 'crlf\r\ninside', '2'],
      ['"', '""', ''],
      ['lone\rcr', ',', ' spaced '],
    ];
    const text = formatCsv(header, rows);
    expect(fields(text)).toEqual([header, ...rows]);
  });

  it('random fields over a hostile alphabet round-trip', () => {
    const rand = mulberry32(11);
    const alphabet = ['a', 'Z', '0', ',', '"', '\n', '\r', '\r\n', ' ', 'é', '\t'];
    const field = () => Array.from({ length: Math.floor(rand() * 8) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    let checked = 0;
    for (let t = 0; t < 200; t++) {
      const width = 1 + Math.floor(rand() * 4);
      const header = Array.from({ length: width }, (_, k) => `c${k}`);
      const rows = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => Array.from({ length: width }, field));
      // A row of one empty field is written as an empty line, which is no record: the writer's one gap.
      const kept = rows.filter((r) => !(width === 1 && r[0] === ''));
      expect(fields(formatCsv(header, rows))).toEqual([header, ...kept]);
      checked++;
    }
    expect(checked).toBe(200);
  });

  it('records start on the line their first field starts on; a BOM, LF endings and blank lines are accepted', () => {
    const records = parseCsv('\ufeffa,b\n"x\ny",1\n\nlast,2');
    expect(records).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['x\ny', '1'], line: 2 },
      { fields: ['last', '2'], line: 5 },
    ]);
  });

  it('liberal where RFC 4180 is silent: a quote inside an unquoted field, text after a closing quote, a trailing comma', () => {
    expect(fields('ab"c,"d"e,f,\n')).toEqual([['ab"c', 'de', 'f', '']]);
  });

  it('an unterminated quote is an error naming the line it opened on', () => {
    const text = 'a,b\n1,2\n3,"open\nstill open\n';
    expect(() => parseCsv(text)).toThrow(CsvError);
    expect(() => parseCsv(text)).toThrow(/^line 3: a quoted field/);
    expect(() => parseOutcomesCsv(`model,lam,run,problem_id,verified,correct,time_s\ngpt,0,1,1,1,1,"2\n`)).toThrow(/^line 2: /);
  });

  it('reads a long text in linear time (a hang guard, not a timing assertion)', { timeout: 20_000 }, () => {
    const text = `${'"a ""quoted"" field, with a comma\nand a line",x\n'.repeat(50_000)}`;
    const records = parseCsv(text);
    expect(records).toHaveLength(50_000);
    expect(records[49_999]).toEqual({ fields: ['a "quoted" field, with a comma\nand a line', 'x'], line: 99_999 });
  });

  it('records past LIMITS.batchRows are refused with the limit sentence', () => {
    overrideLimits({ batchRows: 3 });
    try {
      expect(parseCsv('a\nb\nc\n')).toHaveLength(3);
      expect(() => parseCsv('a\nb\nc\nd\n', 'the outcomes table')).toThrow(LimitError);
      expect(() => parseCsv('a\nb\nc\nd\n', 'the outcomes table')).toThrow(/^the outcomes table is over the limit; the limit is 3 rows/);
    } finally {
      resetLimits();
    }
    expect(LIMITS.batchRows).toBe(1_000_000);
  });
});

describe('the O-NNG outcomes reader uses it', () => {
  it('a problem name with a line break, a comma and quotes round-trips through formatCsv', () => {
    const header = ['model', 'lam', 'run', 'problem_id', 'problem', 'verified', 'correct', 'time_s'];
    const problem = 'theorem "two",\nlines';
    const text = formatCsv(header, [
      ['gpt', 0.2, 1, 7, problem, 1, 0, 3.5],
      ['gpt', 0.2, 1, 8, 'plain', 1, 1, null],
    ]);
    const rows = parseOutcomesCsv(text);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ model: 'gpt', lambda: 0.2, run: 1, problemId: 7, problem, verified: true, correct: false, timeS: 3.5 });
    expect(rows[1]).toMatchObject({ problemId: 8, problem: 'plain', correct: true, timeS: null });
  });

  it('errors name the line a record starts on, past multi-line fields', () => {
    const text = 'model,lam,run,problem_id,problem,verified,correct,time_s\ngpt,0,1,1,"a\nb",1,1,2\ngpt,x,1,2,c,1,1,2\n';
    expect(() => parseOutcomesCsv(text)).toThrow(/^line 4: lam "x" is not a number/);
  });
});
