#!/usr/bin/env bash
# Stops the cluster scripts/slurm/start.sh started under DIR: cancels its jobs, then stops slurmd, slurmctld and
# munged by their pid files and waits for each to exit (SIGKILL after 10 s). Safe to run after a failed or
# partial start, and twice. Exits non-zero if a daemon outlives SIGKILL.
#   scripts/slurm/stop.sh DIR
set -uo pipefail
DIR=${1:?usage: scripts/slurm/stop.sh DIR}
[ -d "$DIR" ] || exit 0
DIR=$(cd "$DIR" && pwd -P)
export SLURM_CONF=$DIR/slurm.conf

alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }
pid_of() { [ -f "$1" ] && tr -dc '0-9' < "$1" || true; }

if [ -f "$SLURM_CONF" ] && alive "$(pid_of "$DIR/slurmctld.pid")"; then
  scancel --quiet --full --user="$(id -un)" 2>/dev/null || true
  for _ in $(seq 1 20); do
    [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
    sleep 0.5
  done
fi

status=0
for pidfile in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$DIR/munge/munged.pid"; do
  pid=$(pid_of "$pidfile")
  alive "$pid" || continue
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 40); do alive "$pid" || break; sleep 0.25; done
  if alive "$pid"; then
    kill -KILL "$pid" 2>/dev/null
    sleep 0.5
    alive "$pid" && { echo "stop.sh: $pidfile: pid $pid survived SIGKILL" >&2; status=1; }
  fi
done
exit $status
