#!/usr/bin/env node
// Runs hostile inputs through the `structlab` CLI as a user would (whole process) and checks the contract
// of the README's "Limits" section: every run ends within the time limit and memory bound, exits 0 or 2
// (never 1, never a signal), prints nothing on stdout and one line on stderr when it refuses, and leaves
// every input file unchanged. Prints one JSON report; exits 1 when any run breaks the contract.
//
//   node scripts/hostile-sweep.mjs [--timeout 20] [--only SUBSTRING]
//
// Memory is the peak resident set from /usr/bin/time (GNU time) when it exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : fallback;
};
const TIMEOUT_S = Number(opt('timeout', '20'));
const ONLY = opt('only', '');
const MEMORY_LIMIT_KB = 2 * 1024 * 1024;
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const REFERENCE = join(root, 'tests', 'reference');

const dir = mkdtempSync(join(tmpdir(), 'structlab-hostile-'));
const file = (name, content) => {
  const p = join(dir, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
  return p;
};

const CELL = (a, b, c, al, be, ga) =>
  `data_x\n_cell_length_a ${a}\n_cell_length_b ${b}\n_cell_length_c ${c}\n_cell_angle_alpha ${al}\n_cell_angle_beta ${be}\n` +
  `_cell_angle_gamma ${ga}\n`;
const SITES = (rows) =>
  `loop_\n_atom_site_label\n_atom_site_type_symbol\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n${rows}\n`;
const cubic = (extra = '', rows = 'Fe1 Fe 0 0 0\nO1 O 0.5 0.5 0.5') => `${CELL(4, 4, 4, 90, 90, 90)}${extra}${SITES(rows)}`;
const rng = (() => {
  let s = 12345;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
})();

// ---- inputs -------------------------------------------------------------------------------------------
let copies = 0;
/** A fresh copy of a valid cell per use, so a run that overwrites its input cannot spoil later runs. */
const goodCif = () => file(`good-${++copies}.cif`, cubic());
const good = goodCif();
const goodXyz = file('good.xyz', '2\n\nFe 0 0 0\nFe 1 0 0\n');
const cases = [];
const add = (name, argv, inputs = []) => cases.push({ name, argv, inputs });

add('long number xyz', ['info', file('r.xyz', `1\nc\nFe ${'1'.repeat(200_000)}x 0 0\n`)]);
add('long number poscar', ['info', file('POSCAR', `x\n1.${'1'.repeat(200_000)}x\n1 0 0\n0 1 0\n0 0 1\nFe\n1\nDirect\n0 0 0\n`)]);
add('long number cif', ['info', file('n.cif', cubic().replace('_cell_length_a 4', `_cell_length_a 4.${'1'.repeat(200_000)}x`))]);
add('long token cif', ['info', file('t.cif', cubic(`_some_tag ${'a'.repeat(5_000_000)}\n`))]);
// 8000 pure translations (x+i/20, y+j/20, z+k/20): far more operations than any space group has.
const translations8000 = Array.from(
  { length: 8000 },
  (_, k) => `x+${k % 20}/20,y+${Math.floor(k / 20) % 20}/20,z+${Math.floor(k / 400)}/20`,
);
add('8000 symops', ['info', file('ops.cif', cubic(`loop_\n_symmetry_equiv_pos_as_xyz\n${translations8000.join('\n')}\n`))]);
add('non-group symops', ['info', file('ng.cif', cubic(`loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\nx+1/3,y,z\n`))]);
add('bogus symop', ['info', file('bog.cif', cubic(`loop_\n_symmetry_equiv_pos_as_xyz\nx,y,z\n2x,y,z\n`))]);
/** `n` Fe sites at random fractional positions, one CIF row each (the rng advances x, y, z per row). */
const randomFeSites = (n) =>
  Array.from({ length: n }, (_, k) => `Fe${k} Fe ${rng().toFixed(5)} ${rng().toFixed(5)} ${rng().toFixed(5)}`).join('\n');
add('Im-3m 250 general sites', [
  'info',
  file('big.cif', `${CELL(50, 50, 50, 90, 90, 90)}_symmetry_space_group_name_H-M 'I m -3 m'\n${SITES(randomFeSites(250))}`),
]);
add('Im-3m 2500 general sites', [
  'info',
  file('big2.cif', `${CELL(100, 100, 100, 90, 90, 90)}_symmetry_space_group_name_H-M 'I m -3 m'\n${SITES(randomFeSites(2500))}`),
]);
const flat = file('flat.cif', `${CELL(5, 5, 5, 120, 120, 120)}${SITES('Fe1 Fe 0 0 0\nO1 O 0.5 0.5 0.5')}`);
add('flat cell info', ['info', flat]);
add('flat cell match', ['match', flat, good]);
add('near-flat cell match', [
  'match',
  file('nflat.cif', `${CELL(5, 5, 5, 119.99, 120, 120)}${SITES('Fe1 Fe 0 0 0\nO1 O 0.5 0.5 0.5')}`),
  good,
]);
add('needle cell match', [
  'match',
  file('needle.cif', `${CELL(0.01, 5, 1e5, 90, 90, 90)}${SITES('Fe1 Fe 0 0 0\nO1 O 0.5 0.5 0.5')}`),
  good,
]);
add('zero angle', ['info', file('zero.cif', `${CELL(5, 5, 5, 0, 90, 90)}${SITES('Fe1 Fe 0 0 0')}`)]);
add('negative length', ['info', file('neg.cif', `${CELL(-5, 5, 5, 90, 90, 90)}${SITES('Fe1 Fe 0 0 0')}`)]);
add('huge length', ['info', file('hugeL.cif', `${CELL(1e300, 5, 5, 90, 90, 90)}${SITES('Fe1 Fe 0 0 0')}`)]);
add('1e16 metrics', ['metrics', goodXyz, file('far.xyz', '2\n\nFe 0 0 0\nFe 1e16 0 0\n')]);
add('1e300 metrics', ['metrics', goodXyz, file('far2.xyz', '2\n\nFe 0 0 0\nFe 1e300 0 0\n')]);
add('coincident metrics', [
  'metrics',
  file('co.xyz', '4\n\nFe 0 0 0\nFe 0 0 0\nFe 0 0 0\nFe 0 0 0\n'),
  file('co2.xyz', '4\n\nFe 0 0 0\nFe 0 0 0\nFe 0 0 0\nFe 0 0 0\n'),
]);
add('collinear metrics', ['metrics', file('line.xyz', '4\n\nFe 0 0 0\nFe 1 0 0\nFe 2 0 0\nFe 3 0 0\n'), goodXyz]);
add('empty xyz metrics', ['metrics', file('empty.xyz', '0\n\n'), goodXyz]);
add('xyz header 1e12', ['info', file('hdr.xyz', '1000000000000\n\nFe 0 0 0\n')]);
add('poscar counts 1e12', ['info', file('POSCAR_big', 'x\n1\n1 0 0\n0 1 0\n0 0 1\nFe\n1000000000000\nDirect\n0 0 0\n')]);
add('escape in species', ['info', file('esc.xyz', '1\n\n\x1b[31mFe\x1b[0m 0 0 x\n')]);
add('binary junk', ['info', file('junk.cif', Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rng() * 256))))]);
add('empty file', ['info', file('empty.cif', '')]);
add('NaN coordinates', ['info', file('nan.xyz', '1\n\nFe NaN 0 0\n')]);
add('json proto', [
  'info',
  file(
    'proto.json',
    '{"@module":"pymatgen.core.structure","@class":"Structure","__proto__":{"x":1},"lattice":{"matrix":[[4,0,0],[0,4,0],[0,0,4]]},' +
      '"sites":[{"species":[{"element":"Fe","occu":1}],"abc":[0,0,0]}]}',
  ),
]);
add('deep json', ['info', file('deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`)]);
add('fem n_nodes 1e8', [
  'fem',
  'run',
  'MSA_3D_partition_DOFs_CC0_H0_T0',
  '--cases',
  file('fem1.json', '{"cases": [{"inputs": {"n_nodes": 100000000, "fixed": []}, "input_types": {}}]}'),
]);
add('fem proto key', [
  'fem',
  'run',
  'MSA_3D_partition_DOFs_CC0_H0_T0',
  '--cases',
  file('fem2.json', '{"cases": [{"inputs": {"__proto__": 1}, "input_types": {}}]}'),
]);
add('unknown command constructor', ['constructor']);
add('unknown command toString help', ['toString', '--help']);
add('unknown command __proto__', ['__proto__']);
add('atomworld proto action', [
  'atomworld',
  'eval',
  file('cases.jsonl', `${JSON.stringify({ id: 'a', action: '__proto__', after_cif: cubic() })}\n`),
  file('answers.jsonl', `${JSON.stringify({ id: 'a', answer: `<cif>${cubic()}</cif>` })}\n`),
]);
add('atomworld junk line', [
  'atomworld',
  'eval',
  file('cases2.jsonl', `${JSON.stringify({ id: 'a', action: 'move', after_cif: cubic() })}\n{not json\n`),
  file('answers2.jsonl', `${JSON.stringify({ id: 'a', answer: `<cif>${cubic()}</cif>` })}\n`),
]);
add('atomworld slow answer', [
  'atomworld',
  'eval',
  file(
    'cases3.jsonl',
    `${JSON.stringify({ id: 'a', action: 'move', after_cif: cubic() })}\n` +
      `${JSON.stringify({ id: 'b', action: 'move', after_cif: cubic() })}\n`,
  ),
  file(
    'answers3.jsonl',
    `${JSON.stringify({ id: 'a', answer: `<cif>${readFileSync(join(dir, 'ops.cif'), 'utf8')}</cif>` })}\n` +
      `${JSON.stringify({ id: 'b', answer: `<cif>${cubic()}</cif>` })}\n`,
  ),
]);
{
  const g = goodCif();
  add('convert onto itself', ['convert', g, g], [g]);
}
{
  const g = goodCif();
  add('convert to existing', ['convert', goodXyz, g], [g]);
}
{
  const g = goodCif();
  add('carve onto input', ['carve', g, '--radius', '6', '-o', g], [g]);
}
add('carve radius 1e9', ['carve', good, '--radius', '1e9', '-o', join(dir, 'np-huge.xyz')]);
add('carve repeats 1e6', ['carve', good, '--radius', '6', '--repeats', '1000000', '-o', join(dir, 'np-rep.xyz')]);
add('convert to /dev/full', ['convert', good, '/dev/full']);
add('apply supercell 1e6', ['atomworld', 'apply', good, '--action', 'super_cell', '--params', '{"size": [1000000, 1, 1]}']);
add('apply bad index', ['atomworld', 'apply', good, '--action', 'move', '--params', '{"index": 1e9, "d_pos_cart": [0.5, 0, 0]}']);
add('match 24k-site cells', ['match', join(dir, 'big.cif'), join(dir, 'big.cif')]);
add('match 2.4k-site cell vs small', ['match', join(dir, 'big.cif'), good]);
add('inverse far particle', ['inverse', join(dir, 'far.xyz')]);
add('inverse coincident', ['inverse', join(dir, 'co.xyz')]);
add('inverse one atom', ['inverse', file('one.xyz', '1\n\nFe 0 0 0\n')]);
add('extxyz flat lattice', ['info', file('flat.extxyz', '1\nLattice="1 0 0 1 0 0 0 0 1" Properties=species:S:1:pos:R:3\nFe 0 0 0\n')]);
add('extxyz many columns', [
  'info',
  file('cols.extxyz', `1\nLattice="4 0 0 0 4 0 0 0 4" Properties=species:S:1:pos:R:3:f:R:100000000\nFe 0 0 0\n`),
]);
add('pymatgen json no sites', [
  'info',
  file(
    'nosites.json',
    '{"@module":"pymatgen.core.structure","@class":"Structure","lattice":{"matrix":[[4,0,0],[0,4,0],[0,0,4]]},"sites":[]}',
  ),
]);
add('pymatgen json flat', [
  'info',
  file(
    'flatj.json',
    '{"@module":"pymatgen.core.structure","@class":"Structure","lattice":{"matrix":[[4,0,0],[8,0,0],[0,0,4]]},' +
      '"sites":[{"species":[{"element":"Fe","occu":1}],"abc":[0,0,0]}]}',
  ),
]);
add('poscar scale 1e300', ['info', file('POSCAR_scale', 'x\n1e300\n1 0 0\n0 1 0\n0 0 1\nFe\n1\nDirect\n0 0 0\n')]);
add('poscar negative volume', ['info', file('POSCAR_negvol', 'x\n-1e-300\n1 0 0\n0 1 0\n0 0 1\nFe\n1\nDirect\n0 0 0\n')]);
add('onng analyze proto models', [
  'onng',
  'analyze',
  file(
    'out.csv',
    'model,dataset,lam,run,problem_id,problem,module,verified,correct,time_s\n__proto__,original,0.0,1,1,a,M,1,1,3\n' +
      'constructor,original,0.2,1,1,a,M,1,0,4\ntoString,original,0.0,1,1,a,M,1,1,3\n',
  ),
]);
add('onng analyze junk', ['onng', 'analyze', file('junk.csv', '\x00\x01,"unterminated\n')]);
add('fem check short outputs', [
  'fem',
  'check',
  'MSA_3D_partition_DOFs_CC0_H0_T0',
  '--cases',
  join(dir, 'fem1.json'),
  '--outputs',
  file('out.json', '{"results": []}'),
]);
add('fem n_elements 1e9', [
  'fem',
  'run',
  'FEM_1D_uniform_mesh_CC0_H0_T0',
  '--cases',
  file('fem3.json', '{"cases": [{"inputs": {"x_min": 0, "x_max": 1, "num_elements": 1000000000}, "input_types": {}}]}'),
]);
add('c2np build huge radii', ['c2np', 'build', good, '--out', join(dir, 'c2np-out'), '--radii', '6-100000']);
add('metrics 1-atom pair', ['metrics', join(dir, 'one.xyz'), join(dir, 'one.xyz')]);
add('match params nan', ['match', good, good, '--ltol', 'NaN']);
add('apply params proto', [
  'atomworld',
  'apply',
  good,
  '--action',
  'move',
  '--params',
  '{"__proto__": {"index": 0}, "d_pos_cart": [0.5, 0, 0]}',
]);
add('evaluate candidate 8000 ops', [
  'atomworld',
  'evaluate',
  '--target',
  good,
  '--candidate',
  file('cand.txt', `<cif>${readFileSync(join(dir, 'ops.cif'), 'utf8')}</cif>`),
]);
// Option values and parameters out of range.
for (const v of ['-1', 'NaN', '1e308', '0', 'abc', '']) add(`info --symprec ${v}`, ['info', good, '--symprec', v]);
for (const [o, v] of [
  ['--ltol', '-1'],
  ['--stol', '1e308'],
  ['--angle-tol', '720'],
  ['--primitive-cell', 'maybe'],
  ['--scale', '2'],
])
  add(`match ${o} ${v}`, ['match', good, good, o, v]);
for (const v of ['-1', '0', 'NaN', '1e400']) add(`metrics --radius ${v}`, ['metrics', goodXyz, goodXyz, '--radius', v]);
add('carve center 1e300', ['carve', good, '--radius', '6', '--center', '1e300,0,0', '-o', join(dir, 'c1.xyz')]);
add('carve quaternion zero', ['carve', good, '--radius', '6', '--quaternion', '0,0,0,0', '-o', join(dir, 'c2.xyz')]);
add('carve quaternion NaN', ['carve', good, '--radius', '6', '--quaternion', 'NaN,0,0,1', '-o', join(dir, 'c3.xyz')]);
add('c2np build reversed radii', ['c2np', 'build', good, '--out', join(dir, 'c2np-rev'), '--radii', '30-6']);
add('c2np build repeats 0', ['c2np', 'build', good, '--out', join(dir, 'c2np-rep0'), '--radii', '6', '--repeats', '0']);
add('inverse symprec 0', ['inverse', goodXyz, '--symprec', '0']);
for (const [action, params] of [
  ['change', '{"index": -1, "symbol": "Bi"}'],
  ['change', '{"index": 0, "symbol": "Xx"}'],
  ['change', '{"index": 0, "symbol": "__proto__"}'],
  ['rotate_around', '{"index": 0, "angle": 1e308, "axis": [0, 0, 1]}'],
  ['rotate_around', '{"index": 0, "angle": 90, "axis": [0, 0, 0]}'],
  ['move_towards', '{"index1": 0, "index2": 0, "distance": 1}'],
  ['insert_between', '{"index1": 0, "index2": 0, "symbol": "Fe", "distance_ratio": 0.5}'],
  ['delete_below', '{"threshold": 1e308}'],
  ['add', '{"symbol": "Fe", "position_frac": [1e300, 0, 0]}'],
  ['swap', '{"index1": 0, "index2": 99}'],
  ['super_cell', '{"size": [0, 1, 1]}'],
  ['super_cell', '{"size": [2.5, 1, 1]}'],
  ['super_cell', '{"size": [-1, 1, 1]}'],
  ['nonexistent', '{}'],
  ['move', 'not json'],
  ['move', '[1,2]'],
])
  add(`apply ${action} ${params.slice(0, 40)}`, ['atomworld', 'apply', good, '--action', action, '--params', params]);
add('evaluate no tags', ['atomworld', 'evaluate', '--target', good, '--candidate', file('cand-none.txt', 'I cannot do that.')]);
add('evaluate huge answer', [
  'atomworld',
  'evaluate',
  '--target',
  good,
  '--candidate',
  file('cand-huge.txt', `<cif>${'x'.repeat(20_000_000)}</cif>`),
]);
add('eval object ids', [
  'atomworld',
  'eval',
  file('cases-obj.jsonl', `${JSON.stringify({ id: { a: 1 }, action: 'move', after_cif: cubic() })}\n`),
  file('answers-obj.jsonl', `${JSON.stringify({ id: { a: 1 }, answer: 'x' })}\n`),
]);
add('eval 200k lines', [
  'atomworld',
  'eval',
  file('cases-many.jsonl', `${JSON.stringify({ id: 'a', action: 'move', after_cif: cubic() })}\n${'{}\n'.repeat(200_000)}`),
  file('answers-many.jsonl', `${JSON.stringify({ id: 'a', answer: 'x' })}\n`),
]);
add('eval empty files', ['atomworld', 'eval', file('cases-empty.jsonl', ''), file('answers-empty.jsonl', '')]);
add('fem unknown task', ['fem', 'run', 'NOPE', '--cases', join(dir, 'fem1.json')]);
add('fem cases strings', [
  'fem',
  'run',
  'FEM_1D_uniform_mesh_CC0_H0_T0',
  '--cases',
  file('fem-str.json', '{"cases": [{"inputs": {"x_min": "a", "x_max": [1], "num_elements": {"x": 1}}, "input_types": {}}]}'),
]);
add('fem cases not golden layout', ['fem', 'run', 'FEM_1D_uniform_mesh_CC0_H0_T0', '--cases', file('fem-layout.json', '[1, 2, 3]')]);
add('fem num_elements -3', [
  'fem',
  'run',
  'FEM_1D_uniform_mesh_CC0_H0_T0',
  '--cases',
  file('fem-neg.json', '{"cases": [{"inputs": {"x_min": 0, "x_max": 1, "num_elements": -3}, "input_types": {}}]}'),
]);
add('fem num_elements 2.5', [
  'fem',
  'run',
  'FEM_1D_uniform_mesh_CC0_H0_T0',
  '--cases',
  file('fem-frac.json', '{"cases": [{"inputs": {"x_min": 0, "x_max": 1, "num_elements": 2.5}, "input_types": {}}]}'),
]);
add('fem 10k cases', [
  'fem',
  'run',
  'FEM_1D_uniform_mesh_CC0_H0_T0',
  '--cases',
  file(
    'fem-many.json',
    JSON.stringify({
      cases: Array.from({ length: 10_000 }, () => ({ inputs: { x_min: 0, x_max: 1, num_elements: 100_000 }, input_types: {} })),
    }),
  ),
]);
add('fem check NaN strings', [
  'fem',
  'check',
  'FEM_1D_uniform_mesh_CC0_H0_T0',
  '--cases',
  file('fem-ok.json', '{"cases": [{"inputs": {"x_min": 0, "x_max": 1, "num_elements": 2}, "input_types": {}}]}'),
  '--outputs',
  file('fem-out-nan.json', '{"results": [{"output": ["NaN", "Infinity", {"re": 1, "im": "x"}]}]}'),
]);
for (const v of ['0', '6', '2.5', '-1'])
  add(`onng obfuscate level ${v}`, ['onng', 'obfuscate', '--level', v, '--source', join(dir, 'nope')]);
add('onng obfuscate source is a file', ['onng', 'obfuscate', '--level', '1', '--source', good]);
mkdirSync(join(dir, 'loop'), { recursive: true });
try {
  symlinkSync(join(dir, 'loop'), join(dir, 'loop', 'again'));
} catch {
  /* symlinks unavailable */
}
add('onng analyze symlink loop', ['onng', 'analyze', join(dir, 'loop')]);
add('onng deobfuscate bad mapping', ['onng', 'deobfuscate', '--mapping', file('map.json', '{"forward": {"__proto__": 1}}'), good]);
add('onng variants fem missing dir', ['onng', 'variants', 'fem', join(dir, 'no-such-dir'), '--level', '1', '--out', join(dir, 'var-out')]);
add('cif 20k blocks', [
  'info',
  file('blocks.cif', Array.from({ length: 20_000 }, (_, k) => `data_b${k}\n${cubic().slice('data_x\n'.length)}`).join('')),
]);
add('xyz 300k frames', ['info', file('frames.xyz', '1\n\nFe 0 0 0\n'.repeat(300_000))]);
add('utf16 cif', ['info', file('u16.cif', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(cubic(), 'utf16le')]))]);
add('directory as input', ['info', dir]);
add('stdin dash empty', ['info', '-']);
add('output to directory', ['convert', good, dir]);
add('convert partial occupancy to POSCAR', [
  'convert',
  file(
    'partial.cif',
    cubic('', 'Fe1 Fe 0 0 0\nO1 O 0.5 0.5 0.5')
      .replace('_atom_site_fract_z\n', '_atom_site_fract_z\n_atom_site_occupancy\n')
      .replace('Fe1 Fe 0 0 0', 'Fe1 Fe 0 0 0 0.5')
      .replace('O1 O 0.5 0.5 0.5', 'O1 O 0.5 0.5 0.5 1'),
  ),
  join(dir, 'POSCAR_out'),
]);
// Work budgets: inputs whose size is accepted but whose search would run for minutes.
{
  const cloud = Array.from({ length: 20_000 }, () => `Au ${(rng() * 60).toFixed(4)} ${(rng() * 60).toFixed(4)} ${(rng() * 60).toFixed(4)}`);
  add('inverse random 20k cloud', ['inverse', file('cloud.xyz', `${cloud.length}\n\n${cloud.join('\n')}\n`)]);
  add('metrics random 20k clouds', [
    'metrics',
    join(dir, 'cloud.xyz'),
    file('cloud2.xyz', `${cloud.length}\n\n${[...cloud].reverse().join('\n')}\n`),
  ]);
  const dense = Array.from({ length: 300 }, (_, k) => `Fe${k} Fe ${rng().toFixed(5)} ${rng().toFixed(5)} ${rng().toFixed(5)}`).join('\n');
  add('c2np build dense cell', [
    'c2np',
    'build',
    file('dense.cif', `${CELL(6, 6, 6, 90, 90, 90)}${SITES(dense)}`),
    '--out',
    join(dir, 'c2np-dense'),
  ]);
}
// Pathological but valid: piled-up atoms, near-coincident atoms, many different settings of one group.
add('metrics 50k piled-up atoms', ['metrics', file('pile.xyz', `50000\n\n${'Au 0 0 0\n'.repeat(50_000)}`), join(dir, 'pile.xyz')]);
add('info atoms 0.006 Å apart', ['info', file('close.cif', cubic('', 'Fe1 Fe 0 0 0\nFe2 Fe 0.0015 0 0'))]);
{
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const block = (k) => {
    const shift = [(k % 97) / 97, (k % 89) / 89, (k % 83) / 83];
    const ops = [];
    for (const p of perms)
      for (let signs = 0; signs < 8; signs++)
        for (const c of [
          [0, 0, 0],
          [0.5, 0.5, 0],
          [0.5, 0, 0.5],
          [0, 0.5, 0.5],
        ]) {
          ops.push(
            [0, 1, 2]
              .map((r) => {
                const sign = signs & (1 << r) ? -1 : 1;
                const t = shift[r] - sign * shift[p[r]] + c[r];
                return `${sign < 0 ? '-' : ''}${'xyz'[p[r]]}+${(t - Math.floor(t)).toFixed(6)}`;
              })
              .join(','),
          );
        }
    return (
      `data_b${k}\n${CELL(4, 4, 4, 90, 90, 90).slice('data_x\n'.length)}loop_\n_symmetry_equiv_pos_as_xyz\n${ops.join('\n')}\n` +
      `${SITES('Fe1 Fe 0.1 0.2 0.3')}`
    );
  };
  add('cif 2000 blocks of different Fm-3m settings', [
    'info',
    file('settings.cif', Array.from({ length: 2000 }, (_, k) => block(k)).join('')),
  ]);
}
// The largest inputs the policy accepts: they must still finish within the limits.
const fcc = (n) => {
  const rows = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let k = 0; k < n; k++)
        for (const [x, y, z] of [
          [0, 0, 0],
          [0.5, 0.5, 0],
          [0.5, 0, 0.5],
          [0, 0.5, 0.5],
        ])
          rows.push([(i + x) * 4.08, (j + y) * 4.08, (k + z) * 4.08]);
  return rows;
};
{
  const atoms = fcc(28).slice(0, 88_000);
  const xyz = (noise) =>
    `${atoms.length}\n\n` +
    `${atoms.map(([x, y, z]) => `Au ${x + noise * (rng() - 0.5)} ${y + noise * (rng() - 0.5)} ${z + noise * (rng() - 0.5)}`).join('\n')}\n`;
  add('metrics 88k-atom pair (largest accepted)', ['metrics', file('np88k.xyz', xyz(0)), file('np88k-noise.xyz', xyz(0.2))]);
  const p1 = fcc(37).slice(0, 199_000);
  add('info 199k-atom P1 CIF (largest accepted)', [
    'info',
    file(
      'p1-199k.cif',
      `${CELL(151, 151, 151, 90, 90, 90)}${SITES(
        p1.map(([x, y, z], k) => `Au${k} Au ${(x / 151).toFixed(6)} ${(y / 151).toFixed(6)} ${(z / 151).toFixed(6)}`).join('\n'),
      )}`,
    ),
  ]);
  const m = fcc(8).slice(0, 1_990);
  const rows2k = m.map(
    ([x, y, z], k) => `Au${k} Au ${(x / 32.64 + 0.01 * rng()).toFixed(6)} ${(y / 32.64).toFixed(6)} ${(z / 32.64).toFixed(6)}`,
  );
  const cell2k = `${CELL(32.64, 32.64, 32.64, 90, 90, 90)}${SITES(rows2k.join('\n'))}`;
  add('match 1,990-site cells (largest accepted)', ['match', file('m2k-a.cif', cell2k), file('m2k-b.cif', cell2k)]);
}
// A copy of the O-NNG-format fixture set (tests/reference/onng/README.md), so a broken run can only harm the copy.
const onngCopy = join(dir, 'onng-original');
cpSync(join(REFERENCE, 'onng', 'dataset', 'original'), onngCopy, { recursive: true });
add('onng out = source', ['onng', 'obfuscate', '--level', '1', '--source', onngCopy, '--out', onngCopy], [onngCopy]);
add('onng out inside source', ['onng', 'obfuscate', '--level', '1', '--source', onngCopy, '--out', join(onngCopy, 'sub')], [onngCopy]);

// Issue 21, part 4 (tests/unit/hardening-inputs.test.ts): each refused in seconds with one short sentence.
const OUTCOMES = 'model,lam,run,problem_id,verified,correct,time_s\n';
add('onng analyze unclosed quote, doubled quotes', ['onng', 'analyze', file('dq.csv', `${OUTCOMES}"${'""'.repeat(4_000_000)}\n`)]);
add('onng analyze unclosed quote, many lines', ['onng', 'analyze', file('ul.csv', `${OUTCOMES}"m${',0,0,1,1,1,1\n'.repeat(2_000_000)}`)]);
const pmgSite = (site) =>
  JSON.stringify({
    '@class': 'Structure',
    lattice: {
      matrix: [
        [3, 0, 0],
        [0, 3, 0],
        [0, 0, 3],
      ],
    },
    sites: [{ species: [{ element: 'Fe', occu: 1 }], abc: [0, 0, 0], ...site }],
  });
add('json 100,000 levels deep', [
  'convert',
  file('deep-100k.json', pmgSite({ properties: { x: 0 } }).replace('"x":0', `"x":${'['.repeat(1e5)}${']'.repeat(1e5)}`)),
  join(dir, 'deep-out.json'),
]);
add('json negative occupancy', ['info', file('neg.json', pmgSite({ species: [{ element: 'Fe', occu: -0.5 }] }))]);
add('json 1 MB element', ['info', file('el.json', pmgSite({ species: [{ element: `F${'e'.repeat(1 << 20)}`, occu: 1 }] }))]);
add('carve quaternion 1e300 (the identity)', [
  'carve',
  goodCif(),
  '--radius',
  '4',
  '--quaternion',
  '1e300,0,0,0',
  '-o',
  join(dir, 'q1.xyz'),
]);
add('carve quaternion subnormal', ['carve', goodCif(), '--radius', '4', '--quaternion', '5e-324,0,0,0', '-o', join(dir, 'q2.xyz')]);
add('symprec of 100,000 characters', ['info', good, '--symprec', '1'.repeat(100_000)]);
add('cif occupancy 1e9', [
  'info',
  file(
    'o9.cif',
    cubic('', 'Fe1 Fe 0 0 0')
      .replace('_atom_site_fract_z\n', '_atom_site_fract_z\n_atom_site_occupancy\n')
      .replace('Fe1 Fe 0 0 0', 'Fe1 Fe 0 0 0 1e9'),
  ),
]);
add('xyz NUL in a symbol', ['info', file('nul.xyz', '1\nc\nF\0e 0 0 0\n')]);
const awRow = (id) => JSON.stringify({ id, action: 'move', after_cif: 'x' });
add('atomworld repeated case id', [
  'atomworld',
  'eval',
  file('dup-cases.jsonl', `${awRow('a')}\n${awRow('a')}\n`),
  file('dup-answers.jsonl', '{"id": "a", "answer": "x"}\n'),
]);

// ---- run ----------------------------------------------------------------------------------------------
// Links are hashed as links (a link loop must not send the hash round for ever).
const hashOf = (p) => {
  try {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return `link:${readlinkSync(p)}`;
    return st.isDirectory() ? hashDir(p) : createHash('sha256').update(readFileSync(p)).digest('hex');
  } catch {
    return 'missing';
  }
};
const hashDir = (p) =>
  createHash('sha256')
    .update(
      readdirSync(p)
        .sort()
        .map((n) => `${n}:${hashOf(join(p, n))}`)
        .join('\n'),
    )
    .digest('hex');
const bin = join(root, 'bin', 'structlab.mjs');
const rows = [];
for (const c of cases) {
  if (ONLY && !c.name.includes(ONLY)) continue;
  const watched = [...new Set([...c.inputs, ...c.argv.filter((a) => a.startsWith(dir) || a.startsWith(REFERENCE))])].filter((p) =>
    existsSync(p),
  );
  const before = watched.map(hashOf);
  const cmd = GNU_TIME ? GNU_TIME : process.execPath;
  const argv = GNU_TIME ? ['-f', '@@time %e %M', process.execPath, bin, ...c.argv] : [bin, ...c.argv];
  const t0 = Date.now();
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: TIMEOUT_S * 1000, maxBuffer: 512 * 2 ** 20, killSignal: 'SIGKILL' });
  const seconds = (Date.now() - t0) / 1000;
  let stderr = r.stderr ?? '';
  let peakKb = null;
  const m = /@@time \S+ (\d+)\s*$/.exec(stderr);
  if (m) {
    peakKb = Number(m[1]);
    stderr = stderr.slice(0, m.index);
  }
  // GNU time reports a non-zero exit on its own line before the timing line.
  stderr = stderr.replace(/^Command exited with non-zero status \d+\n/m, '').replace(/^Command terminated by signal \d+\n/m, '');
  const code = r.status;
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('warning:'));
  const changed = watched.filter((p, k) => hashOf(p) !== before[k]);
  const problems = [];
  if (r.error || r.signal || code === null) problems.push(`killed after ${seconds.toFixed(1)} s (${r.signal ?? r.error?.code})`);
  if (code !== null && code !== 0 && code !== 2) problems.push(`exit ${code}`);
  if (code === 2 && lines.length !== 1) problems.push(`${lines.length} stderr lines`);
  if (code === 2 && (r.stdout ?? '').length > 0) problems.push('stdout on failure');
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (/\x1b|[\x00-\x08\x0b-\x1f]/.test(stderr)) problems.push('control characters on stderr');
  if (peakKb !== null && peakKb > MEMORY_LIMIT_KB) problems.push(`${(peakKb / 1024).toFixed(0)} MB peak`);
  if (changed.length) problems.push(`changed ${changed.join(', ')}`);
  rows.push({
    name: c.name,
    code,
    seconds: Number(seconds.toFixed(2)),
    peak_mb: peakKb === null ? null : Math.round(peakKb / 1024),
    stderr: lines[0]?.slice(0, 160) ?? '',
    problems,
  });
}
rmSync(dir, { recursive: true, force: true });
const bad = rows.filter((r) => r.problems.length);
const worst = [...rows]
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, 3)
  .map((r) => `${r.name}: ${r.seconds} s, ${r.peak_mb} MB`);
console.log(
  JSON.stringify(
    { inputs: rows.length, broken: bad.length, slowest: worst, max_peak_mb: Math.max(...rows.map((r) => r.peak_mb ?? 0)), rows },
    null,
    1,
  ),
);
process.exitCode = bad.length ? 1 : 0;
