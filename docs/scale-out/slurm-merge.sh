#!/bin/bash
# After every task of slurm-array.sh: the report of the whole batch, and for a C2NP split its rows in input order.
#SBATCH --job-name=structlab-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=structlab-merge-%j.log
set -euo pipefail

read -r -a STRUCTLAB <<< "${STRUCTLAB:-structlab}"
DATA=${DATA:-/shared/c2np}
OUT=${OUT:-$DATA/eval}

# merge refuses an incomplete set (a missing or repeated shard), so a failed task cannot go unnoticed.
"${STRUCTLAB[@]}" merge "$OUT"/partial.*.json > "$OUT/report.json.tmp"
mv "$OUT/report.json.tmp" "$OUT/report.json"
# Every row carries its input index: a numeric sort on it restores the unsharded row order.
if compgen -G "$OUT/rows.*.jsonl" > /dev/null; then
  cat "$OUT"/rows.*.jsonl | sort -t: -k2,2n > "$OUT/rows.jsonl.tmp"
  mv "$OUT/rows.jsonl.tmp" "$OUT/rows.jsonl"
fi
