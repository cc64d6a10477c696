/**
 * Runs a reference task on one case of the golden layout, as `structlab fem run` and the FEM page do:
 * an exception the reference raises is a result ({error: {type, message}} with the Python class), and an
 * input beyond the resource policy (src/core/limits.ts) is the result {error: {type: "ResourceLimit"}}:
 * a limit is not a reference behaviour, so it gets a class of its own and the other cases still run.
 */
import { LIMITS, LimitError } from '../../limits.ts';
import { decodeFemInputs, encodeFemValue, type FemTypeDescriptor } from './codec.ts';
import type { FemResult } from './compare.ts';
import { spendWork, withWorkBudget } from './sizes.ts';
import { FemTaskError, type FemTask, type FemValue } from './types.ts';

/** The error class of a case refused by the resource policy. */
export const RESOURCE_LIMIT = 'ResourceLimit';

export interface FemCaseRecord {
  inputs: Record<string, unknown>;
  input_types?: Record<string, FemTypeDescriptor>;
  output_types?: FemTypeDescriptor;
}

/** Decodes a case's inputs; a refusal (nesting beyond the policy) is returned as the case's result. */
export function decodeCaseInputs(c: FemCaseRecord): Record<string, FemValue> | FemResult {
  try {
    return decodeFemInputs(c.inputs, c.input_types);
  } catch (e) {
    if (e instanceof LimitError) return { error: { type: RESOURCE_LIMIT, message: e.message } };
    throw e;
  }
}

export function runFemCase(task: FemTask, c: FemCaseRecord): FemResult {
  try {
    spendWork(1 / LIMITS.femElements);
    return { output: encodeFemValue(task.run(decodeFemInputs(c.inputs, c.input_types))) };
  } catch (e) {
    if (e instanceof FemTaskError) return { error: { type: e.type, message: e.message } };
    if (e instanceof LimitError) return { error: { type: RESOURCE_LIMIT, message: e.message } };
    return { error: { type: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) } };
  }
}

/** Every case of a run under one work budget (LIMITS.femRunWork): cases past it are ResourceLimit results. */
export function runFemCases(task: FemTask, cases: readonly FemCaseRecord[]): FemResult[] {
  // ½ % slack: the per-case minimum (one element) must not turn away a run of exactly femRunWork largest cases.
  return withWorkBudget(() => cases.map((c) => runFemCase(task, c)), LIMITS.femRunWork * 1.005);
}
