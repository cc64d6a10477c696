#!/bin/bash
# One shard of a batch per Slurm array task: `sbatch docs/scale-out/slurm-array.sh`, then
# `sbatch --dependency=afterok:JOBID docs/scale-out/slurm-merge.sh` (docs/scale-out.md). BATCH=c2np (the default)
# scores a C2NP split; BATCH=atomworld judges an AtomWorld batch (CASES and ANSWERS).
#SBATCH --job-name=structlab-shard
#SBATCH --array=0-15
#SBATCH --cpus-per-task=8
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --output=structlab-shard-%A_%a.log
set -euo pipefail

# The CLI (an installed package's bin, or "node /path/to/structlab/bin/structlab.mjs") and the shared storage.
read -r -a STRUCTLAB <<< "${STRUCTLAB:-structlab}"
BATCH=${BATCH:-c2np}
DATA=${DATA:-/shared/c2np}
PRED=${PRED:-$DATA/predictions}
TRUTH=${TRUTH:-$DATA/ground_truth}
CASES=${CASES:-$DATA/cases.jsonl}
ANSWERS=${ANSWERS:-$DATA/answers.jsonl}
OUT=${OUT:-$DATA/eval}
I=${SLURM_ARRAY_TASK_ID:?run this script as a Slurm job array (sbatch), or set SLURM_ARRAY_TASK_ID}
N=${SLURM_ARRAY_TASK_COUNT:?set SLURM_ARRAY_TASK_COUNT (Slurm sets it for a job array)}
WORKERS=${SLURM_CPUS_PER_TASK:-1}

mkdir -p "$OUT"
# Written under a temporary name and renamed: a failed or requeued task never leaves half a report for merge.
case "$BATCH" in
  c2np)
    "${STRUCTLAB[@]}" c2np eval --pred "$PRED" --truth "$TRUTH" --workers "$WORKERS" --shard "$I/$N" \
      --rows "$OUT/rows.$I.jsonl" --force > "$OUT/partial.$I.json.tmp"
    ;;
  atomworld)
    "${STRUCTLAB[@]}" atomworld eval "$CASES" "$ANSWERS" --workers "$WORKERS" --shard "$I/$N" > "$OUT/partial.$I.json.tmp"
    ;;
  *)
    echo "slurm-array.sh: BATCH is c2np or atomworld, not '$BATCH'" >&2
    exit 2
    ;;
esac
mv "$OUT/partial.$I.json.tmp" "$OUT/partial.$I.json"
