#!/bin/bash
# STRUCTLAB for the array tasks of tests/slurm: the real CLI ($REAL_STRUCTLAB), except on the first attempt of array
# task $KILLED_TASK. That attempt runs the real command, then damages what it wrote (half a JSON document after its
# standard output, a stray line after its --rows file), touches $KILLED_MARK and hangs until Slurm kills it for the
# requeue. The requeued attempt must overwrite all of it: the merged report may hold none of the damage.
set -uo pipefail
read -r -a REAL <<< "${REAL_STRUCTLAB:?}"
"${REAL[@]}" "$@" || exit $?
if [ "${SLURM_ARRAY_TASK_ID:-}" = "${KILLED_TASK:-}" ] && [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then
  rows="" previous=""
  for arg in "$@"; do
    [ "$previous" = --rows ] && rows=$arg
    previous=$arg
  done
  if [ -n "$rows" ]; then echo '{"stray": "written by the attempt that was killed"}' >> "$rows"; fi
  printf '{"partial": {"killed": '
  touch "${KILLED_MARK:?}"
  exec sleep 600
fi
