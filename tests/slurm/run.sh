#!/usr/bin/env bash
# A real one-node Slurm cluster runs scripts/slurm/selfplay-array.sbatch:
# installs Debian's slurm-wlm and munge with apt-get if missing (needs root,
# Debian 12), starts munged, slurmctld and slurmd with a private
# configuration under a temporary directory (own munge key and socket, own
# ports, no cgroups, no systemd, nothing under /etc changed), submits a
# two-shard array of tiny shards with the release binary, waits for it,
# checks both shard files line by line, concatenates them and trains one
# epoch on the result. Any failure, including a failed install, fails the
# run with a message; the daemons are stopped on exit whatever happens.
# Environment: SLURM_TEST_TIMEOUT (seconds for the array, 300),
# SLURM_TEST_PORT (slurmctld port, 16817; slurmd uses the next one),
# SLURM_TEST_KEEP=1 keeps the temporary directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS

fail() {
    echo "tests/slurm: FAIL: $*" >&2
    exit 1
}
note() { echo "tests/slurm: $* ($((SECONDS - started)) s)"; }
trap 'echo "tests/slurm: FAIL: command failed (line $LINENO): $BASH_COMMAND" >&2' ERR

[ "$(id -u)" = 0 ] || fail "must run as root (installs packages, runs slurmd)"
command -v apt-get >/dev/null || fail "apt-get not found: this test needs Debian (12)"

# --- packages --------------------------------------------------------------
missing=()
for cmd in slurmctld slurmd sbatch munged; do
    command -v "$cmd" >/dev/null || missing+=("$cmd")
done
if [ ${#missing[@]} -gt 0 ]; then
    note "installing slurm-wlm and munge (missing: ${missing[*]})"
    # Keep the packages' maintainer scripts from starting system daemons
    # (this test runs its own; a container has no init system for them).
    policy=/usr/sbin/policy-rc.d
    own_policy=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' > "$policy"
        chmod +x "$policy"
        own_policy=1
        trap 'rm -f "$policy"' EXIT
    fi
    export DEBIAN_FRONTEND=noninteractive
    status=0
    { apt-get -qq update && apt-get -qq install -y --no-install-recommends \
        -o Dpkg::Use-Pty=0 slurm-wlm munge >/dev/null; } || status=$?
    if [ $own_policy = 1 ]; then rm -f "$policy"; trap - EXIT; fi
    [ $status = 0 ] || fail "apt-get install slurm-wlm munge failed (exit $status)"
    for cmd in slurmctld slurmd sbatch munged; do
        command -v "$cmd" >/dev/null || fail "$cmd still missing after the install"
    done
    note "installed $(dpkg-query -W -f '${Version}' slurmctld) (slurm), $(dpkg-query -W -f '${Version}' munge) (munge)"
fi

# --- the binary ------------------------------------------------------------
target="${CARGO_TARGET_DIR:-target}"
cargo build --release --locked --quiet || fail "cargo build --release failed"
bin="$(realpath "$target/release/molkwar")"
[ -x "$bin" ] || fail "no release binary at $bin"

# --- configuration ---------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/molkwar-slurm.XXXXXX")"
chmod 700 "$work"
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/logs" "$work/out"
# Endgame tables built on first use (docs/egdb.md) go here, not to $HOME.
export MOLKWAR_EGDB="$work/egdb"
chmod 755 "$work/munge"  # munged wants its socket directory searchable
pids=() names=()
jobid=""

cleanup() {
    local status=$?
    trap - ERR
    if [ -n "$jobid" ] && [ $status != 0 ]; then
        scancel "$jobid" 2>/dev/null || true
    fi
    # Stop in reverse order of start: slurmd, slurmctld, munged.
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill -TERM "${pids[i]}" 2>/dev/null || true
    done
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        for _ in $(seq 50); do
            kill -0 "${pids[i]}" 2>/dev/null || break
            sleep 0.2
        done
        kill -KILL "${pids[i]}" 2>/dev/null || true
        wait "${pids[i]}" 2>/dev/null || true
    done
    if [ $status != 0 ]; then
        for log in "$work"/*.log "$work"/logs/*; do
            [ -f "$log" ] || continue
            echo "----- ${log#"$work"/} (last 30 lines)" >&2
            tail -n 30 "$log" >&2
        done
        echo "tests/slurm: FAILED after $((SECONDS - started)) s" >&2
    fi
    if [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then
        echo "tests/slurm: kept $work" >&2
    else
        rm -rf "$work"
    fi
    exit $status
}
trap cleanup EXIT

host=$(hostname)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
port=${SLURM_TEST_PORT:-16817}
sock="$work/munge/munge.socket"

cat > "$work/slurm.conf" <<EOF
# One-node test cluster of tests/slurm/run.sh.
ClusterName=molkwar-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"

# --- daemons ---------------------------------------------------------------
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$sock" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
    --log-file="$work/munged.log" 2>>"$work/munged.log" &
pids+=($!) names+=(munged)
for _ in $(seq 50); do
    munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1 && break
    sleep 0.2
done
munge -n -S "$sock" | unmunge -S "$sock" >/dev/null || fail "munged does not answer"

slurmctld -D >>"$work/slurmctld.log" 2>&1 &
pids+=($!) names+=(slurmctld)
slurmd -D >>"$work/slurmd.log" 2>&1 &
pids+=($!) names+=(slurmd)
state=""
for _ in $(seq 120); do
    for i in "${!pids[@]}"; do
        kill -0 "${pids[i]}" 2>/dev/null || fail "${names[i]} exited (see its log below)"
    done
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || fail "node $host not idle after 60 s (sinfo says '${state:-nothing}')"
note "one-node cluster up: $host, $cpus CPUs, $mem_mb MB"

# --- the array -------------------------------------------------------------
jobid=$(sbatch --parsable --array=1-2 --output="$work/logs/%A_%a.log" \
    --export="ALL,VARIANT=normal,OUTDIR=$work/out,GAMES=2,NODES=500,MOLKWAR=$bin" \
    scripts/slurm/selfplay-array.sbatch) || fail "sbatch failed"
jobid=${jobid%%;*}
note "submitted array job $jobid (tasks 1-2)"
deadline=$((SECONDS + ${SLURM_TEST_TIMEOUT:-300}))
while :; do
    queued=$(squeue -h -j "$jobid" -o %i 2>/dev/null) || fail "squeue failed (is slurmctld alive?)"
    [ -z "$queued" ] && break
    [ $SECONDS -lt $deadline ] || fail "array job $jobid still queued or running after ${SLURM_TEST_TIMEOUT:-300} s: $queued"
    sleep 1
done
records=$(scontrol -o show job "$jobid") || fail "scontrol show job $jobid failed"
[ "$(grep -c . <<<"$records")" = 2 ] || fail "expected 2 array tasks, scontrol shows: $records"
while read -r rec; do
    task=$(grep -o 'ArrayTaskId=[^ ]*' <<<"$rec")
    { grep -q ' JobState=COMPLETED ' <<<"$rec" && grep -q ' ExitCode=0:0 ' <<<"$rec"; } ||
        fail "$task did not complete: $(grep -o 'JobState=[^ ]*\|ExitCode=[^ ]*\|Reason=[^ ]*' <<<"$rec" | tr '\n' ' ')"
done <<<"$records"
note "both tasks COMPLETED with exit code 0"

# --- the data --------------------------------------------------------------
line_re='^[WB]:[^|]+ \| -?[0-9]+ \| (1\.0|0\.5|0\.0)$'
for k in 1 2; do
    f="$work/out/normal-$k.txt"
    [ -s "$f" ] || fail "shard $k: $f missing or empty"
    [ ! -e "$f.part" ] || fail "shard $k: $f.part left behind"
    bad=$(grep -Evc "$line_re" "$f" || true)
    [ "$bad" = 0 ] || fail "shard $k: $bad malformed lines, first: $(grep -Evm1 "$line_re" "$f")"
    grep -q "task $k on" "$work/logs/${jobid}_$k.log" || fail "shard $k: no log at logs/${jobid}_$k.log"
    note "shard $k: $(wc -l <"$f") positions, all well-formed"
done
cmp -s "$work/out/normal-1.txt" "$work/out/normal-2.txt" &&
    fail "shards 1 and 2 are identical: the array task id did not reach the seed"
cat "$work/out"/normal-*.txt > "$work/all.txt"
"$bin" train --variant normal --data "$work/all.txt" --out "$work/x.mkw" --epochs 1 \
    >"$work/train.log" 2>&1 || fail "molkwar train on the concatenated shards failed"
[ -s "$work/x.mkw" ] || fail "molkwar train wrote no weight file"
note "trained one epoch on $(wc -l <"$work/all.txt") positions: $(stat -c %s "$work/x.mkw") bytes of weights"
note "PASS"
