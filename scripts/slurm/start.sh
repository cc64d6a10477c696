#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for `npm run test:slurm`: munged, slurmctld and slurmd (Debian's
# munge and slurm-wlm packages) with their key, configuration, state, sockets and logs all under DIR, so that
# nothing of the system's own configuration is read or changed. Prints the SLURM_CONF to export.
#   scripts/slurm/start.sh DIR [PORT]      (PORT: slurmctld's; slurmd takes PORT+1; default 16817)
# Exits non-zero, with the daemons' logs on standard error, when any daemon does not come up or the node does
# not turn idle within 60 s. scripts/slurm/stop.sh DIR stops whatever this started, also after a failure.
set -euo pipefail
DIR=${1:?usage: scripts/slurm/start.sh DIR [PORT]}
PORT=${2:-16817}
for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || { echo "start.sh: $tool not found (apt-get install munge slurmctld slurmd slurm-client)" >&2; exit 1; }
done
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd -P)
# munged checks that every user can reach its socket: DIR and the folders above it must be searchable by all.
chmod a+x "$DIR"
mkdir -p "$DIR/munge-key" "$DIR/munge" "$DIR/state" "$DIR/spool" "$DIR/log"
# munged wants its key readable by its user alone and its socket folder open to every user.
chmod 700 "$DIR/munge-key"
chmod 755 "$DIR/munge"
[ -f "$DIR/munge-key/munge.key" ] || head -c 1024 /dev/urandom > "$DIR/munge-key/munge.key"
chmod 400 "$DIR/munge-key/munge.key"

fail() {
  echo "start.sh: $1" >&2
  for log in "$DIR"/log/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }; done
  exit 1
}

munged --key-file="$DIR/munge-key/munge.key" --socket="$DIR/munge/munge.socket" --pid-file="$DIR/munge/munged.pid" \
  --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge-key/munged.seed" || fail "munged did not start"

HOST=$(hostname -s 2>/dev/null || uname -n | cut -d. -f1)
USER_NAME=$(id -un)
# The node as slurmd measures it (CPUs, sockets, cores, memory), reachable on the loopback address.
NODE=$(slurmd -C | head -n 1)
cat > "$DIR/slurm.conf" <<CONF
ClusterName=structlab-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
# No cgroups in a container: processes are tracked by their parent pids, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
SlurmdParameters=config_overrides
$NODE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$DIR/slurm.conf

slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$HOST" || fail "slurmd did not start"

for _ in $(seq 1 120); do
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)
  [ "$state" = idle ] && { echo "SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.5
done
fail "the node did not turn idle within 60 s (state: ${state:-none})"
