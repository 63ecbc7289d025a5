#!/bin/sh
# A real Slurm, on this machine: a single-node cluster started from
# Debian's slurm-wlm and munge (skipped, saying why, where they are
# missing or will not start) runs examples/slurm/submit.sh in its
# compile-only form (--dry-run --arch): an array of 4 tasks, each
# compiling its share of a sample of the transpose's variants (--shard
# auto), then the merge step after them.  Together the tasks compiled
# exactly what one process compiles, each variant once.  No GPU needed.
. "$(dirname "$0")/setup"

skip() { echo "skipped: $*"; exit 77; }
for tool in munged munge slurmctld slurmd sbatch squeue sinfo; do
	command -v $tool >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || skip "no $tool (Debian: apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "a single-node Slurm here needs root (slurmd starts the jobs)"
PATH=$PATH:/usr/sbin
S="$T/slurm"
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" "$S/run"
chmod 700 "$S/munge"
dd if=/dev/urandom of="$S/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$S/munge/key"
# The daemons stop on SIGTERM within seconds; none is left behind.
stop() {
	pids=$(cat "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/pid" 2>/dev/null)
	[ -n "$pids" ] && kill $pids 2>/dev/null
	i=0
	while [ -n "$pids" ] && kill -0 $pids 2>/dev/null && [ $i -lt 40 ]; do
		sleep 0.25
		i=$((i + 1))
	done
	[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
	rm -rf "$T"
}
trap stop EXIT
munged --force --socket="$S/munge/sock" --key-file="$S/munge/key" --log-file="$S/log/munged.log" \
	--pid-file="$S/munge/pid" --seed-file="$S/munge/seed" >"$S/log/munged.out" 2>&1 ||
	skip "munged does not start: $(head -1 "$S/log/munged.out")"
# Ports of our own, so that a Slurm already on the machine is not in the way.
port=$((20000 + $$ % 20000))
host=$(hostname)
cat >"$S/slurm.conf" <<CONF
ClusterName=gputunetest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$S/slurm.conf"
slurmctld -i >"$S/log/ctld.out" 2>&1 || skip "slurmctld does not start: $(head -1 "$S/log/ctld.out")"
slurmd >"$S/log/d.out" 2>&1 || skip "slurmd does not start: $(head -1 "$S/log/d.out")"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	[ $i -lt 60 ] || skip "the node did not come up: $(tail -2 "$S/log/slurmctld.log" | tr '\n' ' ')"
	sleep 0.5
done
ok "a single-node Slurm is up ($(sinfo -V))"

args="transpose --dry-run --arch sm_90 --sample 24:5 --quiet"
GPUTUNE_CACHE_DIR="$T/one" "$GPUTUNE" $args >"$T/one.out" 2>&1
check "one process compiles the sample" grep -q '^compiled 2[0-9], cached 0, failed 0' "$T/one.out"

cd "$S/run" || exit 1
GPUTUNE="$GPUTUNE" GPUTUNE_ARGS="$args" GPUTUNE_CACHE_DIR="$S/run/cache" SHARD_DIR="$S/run" \
	sh "$top_srcdir/examples/slurm/submit.sh" 4 transpose >"$T/submit.out" 2>&1
check "submit.sh submits the array and the merge" \
	grep -q '^submitted the array of 4 tasks as job [0-9]* and the merge after it as job [0-9]*$' "$T/submit.out"
sed 's/^/#   /' "$T/submit.out"
i=0
while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 600 ]; do
	sleep 0.5
	i=$((i + 1))
done
check "every job ended within 300 s" test -z "$(squeue -h 2>/dev/null)"
sum=0
for k in 0 1 2 3; do
	out=$(ls gputune-tune-*_$k.out 2>/dev/null | head -1)
	n=$(sed -n "s|^shard $k/4: \([0-9]*\) of the 24 variants\$|\1|p" "${out:-/dev/null}")
	check "array task $k compiled share $k of 4 (${n:-none} of 24)" test -n "$n"
	grep -q 'failed 0' "${out:-/dev/null}" || sed 's/^/#   /' "${out:-/dev/null}"
	sum=$((sum + ${n:-0}))
done
check "the shares add up to the sample ($sum of 24)" test "$sum" -eq 24
ls "$T/one" | sort >"$T/one.files"
ls "$S/run/cache" | sort >"$T/tasks.files"
check "the array compiled exactly the files one process compiles ($(wc -l <"$T/one.files"))" \
	cmp -s "$T/one.files" "$T/tasks.files"
check "the merge step ran after the array" grep -q 'nothing to merge' gputune-merge-*.out
done_testing
