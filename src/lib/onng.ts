/**
 * `structlab/onng`: O-NNG identifier obfuscation (λ-renaming of a dataset, of FEM-Bench tasks or of
 * AtomWorld prompts), its inverse, and the outcome analytics. See src/core/tasks/onng/README.md.
 */
export {
  type OnngDataset,
  type Problem,
  type HeaderItem,
  type ObfuscationLevel,
  type ObfuscationResult,
  type IdentifierObfuscation,
  obfuscationLevel,
  obfuscateDataset,
  obfuscateIdentifiers,
  invertMapping,
  deobfuscateText,
  datasetFiles as obfuscatedDatasetFiles,
} from '../core/tasks/onng/obfuscate.ts';
export {
  type VariantOptions,
  type VariantResult,
  type VariantItem,
  femBenchVariant,
  atomworldVariant,
  deobfuscate,
  inverseFromMappingJson,
} from '../core/tasks/onng/variants.ts';
export {
  type OutcomeRow,
  type LevelSummary,
  type ModelSummary,
  type ProofPrecheck,
  parseOutcomesCsv,
  analyzeOutcomes,
  precheckProof,
} from '../core/tasks/onng/analytics.ts';
