/**
 * CIF lexer, reader and writer on tiny hand-written files whose content is obvious by construction,
 * plus write → read round trips of every corpus structure.
 */
import { describe, expect, it } from 'vitest';
import { cifFormat } from '../../src/core/io/cif/index.ts';
import { cifNumber, parseCif } from '../../src/core/io/cif/reader.ts';
import { isNull, parseCifDocument } from '../../src/core/io/cif/tokenizer.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, elementAmounts, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { corpusFileNames, readCorpusText } from '../../scripts/support/paths.ts';
import { errorOf } from '../expect.ts';
import { asPymatgenReadsIt } from '../cif.ts';

const CELL = `_cell_length_a 5
_cell_length_b 6
_cell_length_c 7
_cell_angle_alpha 90
_cell_angle_beta 100
_cell_angle_gamma 90
`;

const cif = (body: string, name = 'test') => `data_${name}\n${CELL}${body}`;

/** Parse and return the only structure. */
function one(text: string): { s: Structure; warnings: string[] } {
  const out = cifFormat.parse(text);
  expect(out.structures).toHaveLength(1);
  return { s: out.structures[0], warnings: out.warnings };
}

const parseError = (text: string) => errorOf(() => cifFormat.parse(text), ParseError);

const atoms = (rows: string, extraTags = '') => `loop_
_atom_site_label
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
${extraTags}${rows}
`;

describe('lexer', () => {
  it('reads items, loops, quotes, text fields, comments and special values', () => {
    const doc = parseCifDocument(`# leading comment
data_blk
_plain value # trailing comment
_single 'it''s fine'
_double "it's here"
_inner_quote 'a'b'
_hash_in_quotes '# not a comment'
_unknown ?
_inapplicable .
_quoted_unknown '?'
_text
;
first line
_not_a_tag loop_ 'quotes'
;
_semicolon_mid_line a;b
_UPPER_Case X
loop_
_l_a _l_b
1 'two words'
3 ;4
`);
    expect(doc.blocks).toHaveLength(1);
    const b = doc.blocks[0];
    const v = (t: string) => b.items.get(t)!.values[0];
    expect(b.name).toBe('blk');
    expect(v('_plain').text).toBe('value');
    expect(v('_single').text).toBe("it''s fine");
    expect(v('_double').text).toBe("it's here");
    expect(v('_inner_quote').text).toBe("a'b");
    expect(v('_hash_in_quotes').text).toBe('# not a comment');
    expect(isNull(v('_unknown'))).toBe(true);
    expect(isNull(v('_inapplicable'))).toBe(true);
    expect(isNull(v('_quoted_unknown'))).toBe(false);
    expect(v('_text').text).toBe("\nfirst line\n_not_a_tag loop_ 'quotes'");
    expect(v('_semicolon_mid_line').text).toBe('a;b');
    expect(v('_upper_case').text).toBe('X');
    expect(b.items.get('_l_b')!.values.map((x) => x.text)).toEqual(['two words', ';4']);
    expect(b.loops[0].rows).toBe(2);
  });

  it('records 1-based lines through text fields and Windows / old Mac line ends', () => {
    const crlf = 'data_a\r\n_t1 x\r\n_t2\r\n;\r\nline\r\n;\r\n_t3 y\r\n';
    const doc = parseCifDocument(crlf);
    expect(doc.blocks[0].items.get('_t3')!.line).toBe(7);
    const cr = parseCifDocument('data_a\r_t1 x\r_t2 y\r');
    expect(cr.blocks[0].items.get('_t2')!.line).toBe(3);
  });

  it('strips a BOM and a Ctrl-Z at the end (with a warning)', () => {
    const doc = parseCifDocument('\ufeffdata_a\n_t x\n\x1a');
    expect(doc.blocks[0].name).toBe('a');
    expect(doc.warnings.some((w) => /Ctrl-Z/.test(w))).toBe(true);
    expect(() => parseCifDocument('data_a\n_t x\x1a\n_u y\n')).toThrow(ParseError);
  });

  it('reads CIF 2.0 files with Unicode and triple-quoted strings', () => {
    const doc = parseCifDocument("#\\#CIF_2.0\ndata_duomenų_blokas\n_name 'Šiaulių'\n_long '''multi\nline'''\n_after z\n");
    expect(doc.version).toBe(2);
    expect(doc.blocks[0].name).toBe('duomenų_blokas');
    expect(doc.blocks[0].items.get('_name')!.values[0].text).toBe('Šiaulių');
    expect(doc.blocks[0].items.get('_long')!.values[0].text).toBe('multi\nline');
    expect(doc.blocks[0].items.get('_after')!.line).toBe(6);
  });

  it('skips save frames and keeps global_ and duplicate names with warnings', () => {
    const doc = parseCifDocument('global_\n_g 1\ndata_a\nsave_frame\n_inside 1\nsave_\n_outside 2\ndata_a\n_t 3\n_t 4\n');
    expect(doc.blocks.map((b) => b.name)).toEqual(['global_', 'a', 'a']);
    expect(doc.blocks[1].items.has('_inside')).toBe(false);
    expect(doc.blocks[1].items.get('_outside')!.values[0].text).toBe('2');
    expect(doc.blocks[2].items.get('_t')!.values[0].text).toBe('4');
    expect(doc.warnings.some((w) => /duplicate data block name/.test(w))).toBe(true);
    expect(doc.warnings.some((w) => /duplicate tag _t/.test(w))).toBe(true);
  });

  it('throws ParseError with the line for real syntax errors', () => {
    const cases: [string, RegExp, number][] = [
      ['data_a\n_t1 x\n_t2 "unclosed\n', /unclosed quote/, 3],
      ["data_a\n_t1 'never\nclosed'\n", /unclosed quote/, 2],
      ['data_a\n_t\n;\nnever ends\n', /unclosed text field/, 3],
      ['data_a\n_t1\n_t2 x\n', /_t1 has no value/, 2],
      ['_t x\ndata_a\n', /before any data_ block/, 1],
      ['data_a\nloop_\n_atom_site_label\n_atom_site_fract_x\nA 0.1\nB\n', /has 3 values, not a multiple of its 2 tags/, 2],
    ];
    for (const [text, re, line] of cases) {
      const err = errorOf(() => parseCifDocument(text), ParseError);
      expect(err.message, text).toMatch(re);
      expect(err.line, text).toBe(line);
    }
  });

  it('ignores a broken loop that carries no structure, with a warning', () => {
    const doc = parseCifDocument('data_a\nloop_\n_publ_author_name\n_publ_author_address\nSmith\n_t x\n');
    expect(doc.warnings.some((w) => /loop ignored/.test(w))).toBe(true);
    expect(doc.blocks[0].items.get('_t')!.values[0].text).toBe('x');
  });
});

describe('numbers', () => {
  it.each([
    ['0.1234(5)', 0.1234],
    ['90.', 90],
    ['90.(0)', 90],
    ['.5', 0.5],
    ['-.25', -0.25],
    ['1/3', 1 / 3],
    ['-1/4', -0.25],
    ['1.5e-3', 0.0015],
    ['12', 12],
    ['+0.5', 0.5],
  ])('%s', (text, value) => expect(cifNumber(text)).toBeCloseTo(value, 14));
  it.each(['?', '.', 'abc', '1/', '', '0.5.5'])('not a number: %s', (text) => expect(Number.isNaN(cifNumber(text))).toBe(true));
});

describe('reader', () => {
  it('reads a P1 structure with pymatgen lattice orientation', () => {
    const { s } = one(cif(atoms('Fe1 0.1 0.2 0.3\nO1 0.5 0.5 0.5\n')));
    expect(s.name).toBe('test');
    const p = s.lattice!.parameters;
    expect([p.a, p.b, p.c, p.alpha, p.beta, p.gamma].map((x) => Number(x.toFixed(10)))).toEqual([5, 6, 7, 90, 100, 90]);
    expect(s.lattice!.matrix).toEqual(Lattice.fromParameters(5, 6, 7, 90, 100, 90).matrix);
    expect(s.sites.map((x) => x.species)).toEqual([{ Fe: 1 }, { O: 1 }]);
    expect(s.sites[0].frac).toEqual([0.1, 0.2, 0.3]);
    const xyz = s.lattice!.fracToCart([0.1, 0.2, 0.3]);
    s.sites[0].xyz.forEach((x, i) => expect(x).toBeCloseTo(xyz[i], 12));
  });

  it('expands symmetry operations and merges images on special positions', () => {
    const ops = 'loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n-x,-y,-z\n';
    const { s } = one(cif(ops + atoms('A1 0.1 0.2 0.3 Na\nB1 0 0 0 Cl\nC1 0.5 0 0.5 K\n', '_atom_site_type_symbol\n')));
    expect(s.sites).toHaveLength(4);
    expect(elementAmounts(s)).toEqual({ Na: 2, Cl: 1, K: 1 });
    // Expanded cells come in pymatgen's order: by electronegativity (K 0.82 < Na 0.93 < Cl 3.16).
    expect(s.sites.map((x) => Object.keys(x.species)[0])).toEqual(['K', 'Na', 'Na', 'Cl']);
    const na = s.sites.filter((x) => x.species.Na).map((x) => x.frac!.map((v) => Number(v.toFixed(12))));
    expect(na).toEqual([
      [0.1, 0.2, 0.3],
      [0.9, 0.8, 0.7],
    ]);
  });

  it('takes symmetry from a Hall symbol, an H-M symbol or an IT number (in that order of trust)', () => {
    const base = atoms('Na1 0.1 0.2 0.3\n');
    expect(one(cif(`_symmetry_space_group_name_Hall '-P 2ybc'\n` + base)).s.sites).toHaveLength(4);
    expect(one(cif(`_symmetry_space_group_name_H-M 'P 21/c'\n` + base)).s.sites).toHaveLength(4);
    expect(one(cif(`_space_group_name_H-M_alt 'P 1 21/c 1'\n` + base)).s.sites).toHaveLength(4);
    expect(one(cif(`_space_group_IT_number 2\n` + base)).s.sites).toHaveLength(2);
    // Operations win over a contradicting symbol.
    const both = `_symmetry_space_group_name_H-M 'P 21/c'\nloop_\n_space_group_symop_operation_xyz\n'x, y, z'\n` + base;
    expect(one(cif(both)).s.sites).toHaveLength(1);
    // Hall wins over H-M.
    expect(one(cif(`_symmetry_space_group_name_Hall '-P 1'\n_symmetry_space_group_name_H-M 'P 21/c'\n` + base)).s.sites).toHaveLength(2);
    // Nothing declared: P1 with a warning.
    const none = one(cif(base));
    expect(none.s.sites).toHaveLength(1);
    expect(none.warnings.some((w) => /P1 assumed/.test(w))).toBe(true);
  });

  it('reads operation variants: DDLm names, one-line, translations > 1, decimals, unquoted with spaces', () => {
    const base = atoms('Na1 0.1 0.2 0.3\n');
    const ddlm = `loop_\n_space_group_symop.operation_xyz\n'x,y,z'\n'-x,-y,-z'\n`;
    expect(one(cif(ddlm + base)).s.sites).toHaveLength(2);
    const oneLine = one(cif(`_symmetry_equiv_pos_as_xyz 'x,y,z'\n` + base));
    expect(oneLine.s.sites).toHaveLength(1);
    const over = one(cif(`loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n-x+2,-y+1,-z-3\n` + base));
    expect(over.s.sites[1].frac!.map((x) => Number(x.toFixed(12)))).toEqual([0.9, 0.8, 0.7]);
    const dec = one(cif(`loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\nx+0.5,y+0.5,z\n` + base));
    expect(dec.s.sites[1].frac![0]).toBeCloseTo(0.6, 12);
    const spaced = one(cif(`loop_\n_symmetry_equiv_pos_as_xyz\nx, y, z\n-x, -y, -z\n` + base));
    expect(spaced.s.sites).toHaveLength(2);
    expect(spaced.warnings.some((w) => /one per line/.test(w))).toBe(true);
  });

  it('completes operations that are not a group, with a warning; refuses malformed ones', () => {
    const notGroup = one(cif(`loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n-y,x,z\n` + atoms('Na1 0.1 0.2 0.3\n')));
    expect(notGroup.s.sites).toHaveLength(4);
    expect(notGroup.warnings.some((w) => /not a group; completed to 4/.test(w))).toBe(true);
    const bad = parseError(cif(`loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n'-x,-y,-z malformed'\n` + atoms('Na1 0.1 0.2 0.3\n')));
    expect(bad.message).toMatch(/malformed/);
    expect(bad.line).toBe(11);
    // With a symbol to fall back on, the symbol is used (with a warning).
    const fallback = one(
      cif(
        `_symmetry_space_group_name_H-M 'P -1'\nloop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n'-x,-y,-z malformed'\n` +
          atoms('Na1 0.1 0.2 0.3\n'),
      ),
    );
    expect(fallback.s.sites).toHaveLength(2);
    expect(fallback.warnings.some((w) => /using the space-group symbol instead/.test(w))).toBe(true);
  });

  it('reads positions of magnetic CIFs (operations × centrings) and the average structure of modulated ones', () => {
    const magnetic = cif(
      `loop_
_space_group_symop_magn_operation.id
_space_group_symop_magn_operation.xyz
1 x,y,z,+1
2 -x,-y,-z,+1
loop_
_space_group_symop_magn_centering.id
_space_group_symop_magn_centering.xyz
1 x,y,z,+1
2 x+1/2,y+1/2,z+1/2,-1
` + atoms('Fe1 0.1 0.2 0.3\n'),
    );
    const m = one(magnetic);
    expect(m.s.sites.map((x) => x.frac!.map((v) => Number(v.toFixed(12))))).toEqual([
      [0.1, 0.2, 0.3],
      [0.6, 0.7, 0.8],
      [0.9, 0.8, 0.7],
      [0.4, 0.3, 0.2],
    ]);
    const modulated = cif(
      `loop_
_space_group_symop_ssg_id
_space_group_symop_ssg_operation_algebraic
1 x1,x2,x3,x4
2 -x1,-x2,x3+1/2,-x4
` + atoms('Nb1 0.1 0.2 0.3\n'),
    );
    const mod = one(modulated);
    expect(mod.s.sites.map((x) => x.frac!.map((v) => Number(v.toFixed(12))))).toEqual([
      [0.1, 0.2, 0.3],
      [0.9, 0.8, 0.8],
    ]);
    expect(mod.warnings.some((w) => /modulated structure/.test(w))).toBe(true);
  });

  it('merges different atoms on one position into a mixed site; drops zero occupancy; ?/. occupancy is 1', () => {
    const rows = `Fe1 0 0 0 0.6\nMg1 0 0 0 0.4\nO1 0.5 0.5 0.5 ?\nO2 0.25 0.25 0.25 .\nCa9 0.1 0.1 0.1 0\n`;
    const { s } = one(cif(atoms(rows, '_atom_site_occupancy\n')));
    expect(s.sites.map((x) => x.species)).toEqual([{ Fe: 0.6, Mg: 0.4 }, { O: 1 }, { O: 1 }]);
  });

  it('treats a repeated same-element atom on an equivalent position as a duplicate', () => {
    const ops = 'loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n-x,-y,-z\n';
    const { s, warnings } = one(cif(ops + atoms('Nd1 0.1 0.2 0.3\nNd1A* -0.1 -0.2 -0.3\n')));
    expect(s.sites).toHaveLength(2);
    expect(elementAmounts(s)).toEqual({ Nd: 2 });
    expect(warnings.some((w) => /repeat a symmetry-equivalent atom/.test(w))).toBe(true);
  });

  it('rounds 0.3333/0.6667 to thirds in every block, as pymatgen; the AtomWorld reading only with symmetry', () => {
    const ops = 'loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n-y,x-y,z\n-x+y,-x,z\n';
    const hex =
      'data_h\n_cell_length_a 3\n_cell_length_b 3\n_cell_length_c 5\n_cell_angle_alpha 90\n_cell_angle_beta 90\n' +
      '_cell_angle_gamma 120\n';
    const withSym = one(hex + ops + atoms('C1 0.3333 0.6667 0\n'));
    expect(withSym.s.sites).toHaveLength(1);
    expect(withSym.s.sites[0].frac![0]).toBe(1 / 3);
    const p1Text = hex + atoms('C1 0.3333 0.6667 0.3334\n');
    const p1 = one(p1Text);
    expect(p1.s.sites[0].frac).toEqual([1 / 3, 2 / 3, 0.3334]);
    expect(p1.warnings).toContain('block h: Some fractional coordinates rounded to ideal values to avoid issues with finite precision.');
    expect(parseCif(p1Text, { idealThirds: 'withSymmetry' }).structures[0].sites[0].frac).toEqual([0.3333, 0.6667, 0.3334]);
  });

  it('reads element symbols from type symbols and labels', () => {
    const rows = `Fe1A Fe3+ 0.1 0 0\nO1 O2- 0.2 0 0\nCO1 ? 0.3 0 0\nD1 D 0.4 0 0\nWat1 ? 0.5 0 0\nCs1 Cs+1 0.6 0 0\n`;
    const { s, warnings } = one(
      cif(
        atoms(rows, '_atom_site_type_symbol\n').replace(
          '_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n_atom_site_type_symbol\n',
          '_atom_site_label\n_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n',
        ),
      ),
    );
    expect(s.sites.map((x) => Object.keys(x.species)[0])).toEqual(['Fe', 'O', 'Co', 'D', 'O', 'Cs']);
    expect(s.sites[0].oxidation).toEqual({ Fe: 3 });
    expect(s.sites[1].oxidation).toEqual({ O: -2 });
    expect(s.sites[5].oxidation).toEqual({ Cs: 1 });
    expect(warnings.some((w) => /'Wat1' read as O/.test(w))).toBe(true);
  });

  it('takes oxidation numbers from the _atom_type loop and keeps dummy atoms as dummy species', () => {
    const types = `loop_\n_atom_type_symbol\n_atom_type_oxidation_number\nFe 2\nO -2\n`;
    const { s, warnings } = one(cif(types + atoms('Fe1 0 0 0\nO1 0.5 0.5 0.5\nX1 0.25 0.25 0.25\n')));
    expect(s.sites[0].oxidation).toEqual({ Fe: 2 });
    expect(s.sites[1].oxidation).toEqual({ O: -2 });
    expect(s.sites[2].species).toEqual({ X: 1 });
    expect(warnings.some((w) => /dummy species X/.test(w))).toBe(true);
  });

  it('reads uncertainties, fractions and quoted labels with spaces in coordinates', () => {
    const { s } = one(cif(atoms(`'Fe 1' 0.1234(5) 1/3 .5\n`)));
    expect(s.sites[0].frac).toEqual([0.1234, 1 / 3, 0.5]);
    expect(s.sites[0].label).toBe('Fe 1');
  });

  it('returns one structure per data block with atoms, skipping blocks without', () => {
    const text = `${cif(atoms('Na1 0 0 0\n'), 'first')}\ndata_notes\n_journal_year 2001\n${cif(atoms('Cl1 0 0 0\n'), 'second')}`;
    const out = cifFormat.parse(text);
    expect(out.structures.map((s) => s.name)).toEqual(['first', 'second']);
  });

  it('names what is missing', () => {
    const noCell = parseError(`data_a\n${atoms('Na1 0 0 0\n')}`);
    expect(noCell.message).toMatch(/no unit cell/);
    const part = parseError(`data_a\n_cell_length_a 5\n_cell_length_b 5\n_cell_length_c 5\n_cell_angle_alpha 90\n${atoms('Na1 0 0 0\n')}`);
    expect(part.message).toMatch(/_cell_angle_beta, _cell_angle_gamma missing/);
    const cart = parseError(cif('loop_\n_atom_site_label\n_atom_site_Cartn_x\n_atom_site_Cartn_y\n_atom_site_Cartn_z\nNa1 0 0 0\n'));
    expect(cart.message).toMatch(/only Cartesian coordinates/);
    const noZ = parseError(cif('loop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\nNa1 0 0\n'));
    expect(noZ.message).toMatch(/_atom_site_fract_z missing/);
    const unknown = parseError(cif(atoms('Na1 ? ? ?\n')));
    expect(unknown.message).toMatch(/unknown/);
    const split = parseError(
      cif(
        'loop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\nA 0 0\nB 0 0\nC 0 0\nD 0 0\nloop_\n_atom_site_fract_z\n0\n0\n0\n',
      ),
    );
    expect(split.message).toBe('_atom_site_fract_z has 3 values for 4 atoms');
    expect(split.line).toBe(17);
    const notNumber = parseError(cif(atoms('Na1 0.1 abc 0\n')));
    expect(notNumber.message).toMatch(/'abc' is not a number/);
    expect(notNumber.line).toBe(13);
    const overflow = parseError(cif(atoms('Na1 0.1 1e400 0\n')));
    expect(overflow.message).toBe("atom Na1: fractional coordinate '1e400' is too large to represent");
    expect(overflow.line).toBe(13);
    const bigOcc = parseError(cif(atoms('Na1 0.1 0.2 0 1e400\n', '_atom_site_occupancy\n')));
    expect(bigOcc.message).toMatch(/occupancy '1e400' is too large to represent/);
    const bigCell = parseError(
      'data_a\n_cell_length_a 5\n_cell_length_b 1e400\n_cell_length_c 5\n_cell_angle_alpha 90\n_cell_angle_beta 90\n' +
        `_cell_angle_gamma 90\n${atoms('Na1 0 0 0\n')}`,
    );
    expect(bigCell.message).toBe("block a: _cell_length_b '1e400' is too large to represent");
    expect(bigCell.line).toBe(3);
    expect(parseError('').message).toMatch(/empty/);
    expect(parseError('just some text\n').message).toMatch(/before any data_ block|no data_ block/);
    expect(parseError('data_a\n_journal_year 2001\n').message).toMatch(/no data block has atom sites/);
  });

  it('sniffs CIF text', () => {
    expect(cifFormat.sniff('# comment\ndata_x\n_cell_length_a 1\n')).toBe(true);
    expect(cifFormat.sniff('2\ncomment\nH 0 0 0\nH 0 0 1\n')).toBe(false);
  });
});

describe('damaged files', () => {
  it('fail only with ParseError (truncation, deleted lines, stray quotes/semicolons/?, garbled digits)', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const at = (t: string) => Math.floor(rnd() * t.length);
    const damages = [
      (t: string) => t.slice(0, at(t)),
      (t: string) => {
        const l = t.split('\n');
        l.splice(Math.floor(rnd() * l.length), 1);
        return l.join('\n');
      },
      (t: string) => {
        const i = at(t);
        return t.slice(0, i) + "'" + t.slice(i);
      },
      (t: string) => {
        const i = at(t);
        return t.slice(0, i) + '\n;' + t.slice(i);
      },
      (t: string) => {
        const l = t.split('\n');
        const i = Math.floor(rnd() * l.length);
        l[i] = l[i].replace(/[0-9]/g, () => String.fromCharCode(33 + Math.floor(rnd() * 90)));
        return l.join('\n');
      },
      (t: string) => {
        const i = at(t);
        return t.slice(0, i) + ' ? ' + t.slice(i);
      },
    ];
    let parsed = 0,
      rejected = 0;
    for (const f of corpusFileNames().filter((x) => x.endsWith('.cif'))) {
      const text = readCorpusText(f);
      for (const damage of damages) {
        try {
          cifFormat.parse(damage(text));
          parsed++;
        } catch (e) {
          expect(e, f).toBeInstanceOf(ParseError);
          expect((e as Error).message.length).toBeGreaterThan(5);
          rejected++;
        }
      }
    }
    expect(parsed + rejected).toBeGreaterThan(500);
  });
});

describe('writer', () => {
  /** Wrapped fractional coordinates equal to 1e-8 (periodic), species and oxidation equal. */
  function expectSameStructure(a: Structure, b: Structure): void {
    const pa = a.lattice!.parameters,
      pb = b.lattice!.parameters;
    for (const k of ['a', 'b', 'c', 'alpha', 'beta', 'gamma'] as const) expect(Math.abs(pa[k] - pb[k])).toBeLessThan(1e-8 * pa[k]);
    expect(b.sites).toHaveLength(a.sites.length);
    a.sites.forEach((s, i) => {
      const t = b.sites[i];
      expect(t.species).toEqual(s.species);
      expect(t.oxidation ?? {}).toEqual(s.oxidation ?? {});
      s.frac!.forEach((x, k) => {
        const d = x - t.frac![k];
        expect(Math.abs(d - Math.round(d))).toBeLessThan(1e-8);
      });
    });
  }

  it('writes a P1 CIF that reads back identically (hand-made, rotated lattice)', () => {
    // A lattice not in pymatgen's orientation: parameters and fractional coordinates must survive.
    const lattice = new Lattice([
      [4.1, 0.3, 0.0],
      [0.2, 5.3, 0.1],
      [0.0, 0.4, 6.7],
    ]);
    const s: Structure = {
      name: 'hand made',
      lattice,
      sites: [
        makeSiteFromFrac(lattice, [0.1, 0.2, 0.3], { Fe: 0.5, Mg: 0.5 }, { oxidation: { Fe: 3, Mg: 2 }, label: 'M1' }),
        makeSiteFromFrac(lattice, [0.123456789012345, 0.987654321098765, 0.5], { O: 1 }, { oxidation: { O: -2 }, label: 'O 1' }),
        makeSiteFromFrac(lattice, [0.7, 0.7, 0.7], { O: 1 }, { label: 'O 1' }),
        makeSiteFromFrac(lattice, [0.3333333333333333, 0.6666666666666666, 0.1], { D: 1 }),
      ],
    };
    const text = cifFormat.write(s);
    expect(text).toMatch(/_symmetry_equiv_pos_as_xyz/);
    expect(text).toMatch(/'x, y, z'/);
    expect(text).toMatch(/Fe3\+/);
    expect(text).toMatch(/O2-/);
    const back = cifFormat.parse(text).structures[0];
    expectSameStructure(s, back);
    // Labels are unique.
    const labels = back.sites.map((x) => x.label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('refuses a structure without a lattice', () => {
    expect(() => cifFormat.write({ name: 'molecule', lattice: null, sites: [] })).toThrow(/lattice/);
  });

  it('round-trips every structure read from the corpus (positions to 1e-8, species, lattice parameters)', () => {
    let n = 0;
    for (const f of corpusFileNames().filter((x) => x.endsWith('.cif'))) {
      let structures: Structure[];
      try {
        structures = cifFormat.parse(readCorpusText(f)).structures;
      } catch {
        continue;
      }
      for (const s of structures) {
        const back = cifFormat.parse(cifFormat.write(s)).structures;
        expect(back, f).toHaveLength(1);
        const read = asPymatgenReadsIt(s);
        expectSameStructure(read, back[0]);
        // The lattice came from fromParameters, so Cartesian positions agree too.
        read.sites.forEach((site, i) => site.xyz.forEach((x, k) => expect(Math.abs(x - back[0].sites[i].xyz[k])).toBeLessThan(1e-6)));
        n++;
      }
    }
    expect(n).toBeGreaterThan(80);
  });
});
