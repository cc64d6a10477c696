/**
 * `structlab/io`: structure readers and writers (CIF, POSCAR, XYZ, extended XYZ, pymatgen JSON), chosen
 * by file name and content. CIFs with symmetry operations need the symmetry engine: await
 * initSymmetry() (structlab/symmetry) first.
 */
export {
  FORMATS,
  detectFormat,
  parseStructureFile,
  writeStructureFile,
  formatForOutputName,
  parseParticleFile,
  type ParticleArrays,
  type ParticleParseResult,
} from '../core/io/registry.ts';
export { type FormatId, type FormatModule, type ParseOutput, type ParseResult, ParseError } from '../core/io/types.ts';
export { parseCif } from '../core/io/cif/reader.ts';
export { writeCif } from '../core/io/cif/writer.ts';
export { parsePoscar, writePoscar } from '../core/io/poscar.ts';
export { parseXyz, parseExtxyz, writeXyz, writeExtxyz } from '../core/io/xyz.ts';
export { parsePymatgenJson, writePymatgenJson, structureToDict } from '../core/io/pymatgen-json.ts';
