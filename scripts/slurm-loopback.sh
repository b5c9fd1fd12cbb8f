#!/usr/bin/env bash
# slurm-loopback.sh: one loopback Slurm cluster (a slurmctld and N slurmd on
# 127.0.0.1, power saving on) for tests and for trying ecotune out.
#
# Usage:
#   scripts/slurm-loopback.sh up     [flags]   start an instance (idempotent)
#   scripts/slurm-loopback.sh down   [flags]   stop every process of the instance
#   scripts/slurm-loopback.sh status [flags]   print the instance's nodes; exit 1 if it is not up
#   scripts/slurm-loopback.sh install          install Debian's Slurm and munge if missing
#   scripts/slurm-loopback.sh stop-controller  [flags]   stop slurmctld only (fault tests)
#   scripts/slurm-loopback.sh start-controller [flags]   start it again on its saved state
#
# Flags (environment variable in brackets; flags win):
#   --dir DIR              instance directory [ECOTUNE_SLURM_DIR, default /tmp/ecotune-slurm]
#   --port-base P          slurmctld listens on P, nodeNN's slurmd on P+NN [ECOTUNE_SLURM_PORT_BASE, 17000]
#   --nodes N              number of nodes, named node01.. (node001.. beyond 99) [ECOTUNE_SLURM_NODES, 4]
#   --cpus C               CPUs per node [ECOTUNE_SLURM_CPUS, 1]
#   --suspend-time S       SuspendTime [ECOTUNE_SLURM_SUSPEND_TIME, 3600]
#   --suspend-timeout S    SuspendTimeout [ECOTUNE_SLURM_SUSPEND_TIMEOUT, 5]
#   --resume-timeout S     ResumeTimeout [ECOTUNE_SLURM_RESUME_TIMEOUT, 30]
#   --min-job-age S        MinJobAge [ECOTUNE_SLURM_MIN_JOB_AGE, 300]
#   --extra-conf FILE      slurm.conf fragment appended last, so its values win [ECOTUNE_SLURM_EXTRA_CONF]
#   --fail-resume NODES    node names (hostlist ok) whose ResumeProgram call fails
#                          [ECOTUNE_SLURM_FAIL_RESUME]; DIR/fail-resume may be rewritten at any time
#   --no-install           never call apt-get (fail if Slurm is missing)
#   --watch-pid PID        `up` also starts a watcher that runs `down` once PID has
#                          exited (a test binary killed before its cleanup)
#
# The instance directory holds slurm.conf, env (SLURM_CONF=... for `source`
# or `set -a; . DIR/env`), power.log (one line per Suspend/Resume call:
# "UNIX_TIME VERB NODELIST", VERB suspend or resume, and a line
# "UNIX_TIME resume-failed NODE" for each node --fail-resume names), the
# programs in bin/, state/, spool/, log/ and run/ (pid files). Several
# instances run at once if their directories and port ranges differ; munged
# is shared by all. Must run as root.
#
# Facts about running Slurm here (Debian 12, slurm-wlm 22.05.8), measured:
# - apt-get update + install of slurmctld slurmd slurm-client munge: ~10 s on
#   an idle machine, ~30 s on a loaded one. The munge package makes
#   /etc/munge/munge.key. Without systemd nothing starts by itself.
# - Every client command, even `scontrol version` and `sinfo --version`,
#   needs a slurm.conf (SLURM_CONF); without one it tries DNS SRV "configless"
#   lookup and dies with "Could not establish a configuration source".
# - munged must run as user munge with /run/munge (owner munge) created first.
# - Debian's slurmd has multiple-slurmd support: `slurmd -N node03`, a
#   Port= per NodeName line, %n in SlurmdSpoolDir/SlurmdPidFile/SlurmdLogFile;
#   NodeHostname=localhost NodeAddr=127.0.0.1 on every node.
# - slurm.conf needs MailProg=/bin/true (no mailer installed),
#   ProctrackType=proctrack/linuxproc and TaskPlugin=task/none (no cgroup.conf),
#   and SlurmdParameters=config_overrides when CPUs exceed the host's.
# - A key given twice in slurm.conf: the later value wins (slurmctld logs
#   that), so an appended fragment overrides the defaults written above it.
# - SuspendProgram/ResumeProgram must not be group- or world-writable, else
#   slurmctld refuses power saving.
# - slurmctld runs the programs with SIGTERM blocked; a slurmd started from
#   the ResumeProgram inherits the mask and ignores `kill`, so the mask is
#   cleared (perl POSIX::sigprocmask) before exec'ing slurmd.
# - A resumed node's slurmd must be started with -b (fresh boot) or slurmctld
#   marks the node down at ResumeTimeout: it waits for a boot. And the boot
#   must come visibly after the request: a slurmd started within ~1 s of the
#   power_up reports a boot time (now - uptime, whole seconds) not after the
#   request, slurmctld ignores the registration (22.05 node_mgr.c
#   waiting_for_node_boot(): boot_time < boot_req_time, "Still waiting for
#   boot", a debug message) and the node goes down at ResumeTimeout (seen on
#   a loaded machine). The ResumeProgram waits 2 s before starting slurmd.
# - Power saving acts about every 10 s; idle -> idle~ takes ~20 s with
#   SuspendTime=10. SuspendTime=INFINITE switches power saving off entirely
#   and every `scontrol update state=power_down|power_up` is then refused.
# - `scontrol update nodename=N state=power_down` gives idle% (POWERING_DOWN)
#   at once, the SuspendProgram runs, then idle~ (POWERED_DOWN) after
#   SuspendTimeout; state=power_up runs the ResumeProgram and the node is idle
#   once its slurmd registers.
# - A job sent to a powered-down node waits in CONFIGURING up to 30 s after the
#   node is back; a job requeued after a failed resume is held ~2 minutes; a
#   failed resume leaves the node down~ (down + POWERED_DOWN + NOT_RESPONDING)
#   with reason "ResumeTimeout reached".
# - SuspendExcNodes=node[01-08]:2 (count syntax) is accepted by 22.05 and
#   honoured (with node[01-04]:2 and SuspendTime=10, two of four idle nodes
#   were suspended: idle% after 12 s, idle~ after 22 s, SuspendTimeout=3);
#   `sbatch --array` works here.
# - `scontrol version` prints "slurm-wlm 22.05.8" on Debian.
# - With slurmctld stopped, `sinfo --json` still exits 0 and puts the failure
#   in the JSON's "errors" list ("Unspecified error", errno -1).
# - After a slurmctld restart the nodes are UNKNOWN until their slurmd
#   register again (up to ~30 s here); state (down~ and its reason) survives.
# - `scontrol show node -o` leaves Port= out when it equals SlurmdPort; OS=
#   and Reason= hold spaces; SLURM_TIME_FORMAT=%s makes times Unix seconds.
# - squeue --json's time_limit is minutes; a job without a limit shows null
#   or 525600 (365 days), squeue's text UNLIMITED or 365-00:00:00 likewise.
# - state=power_down_asap on a busy node drains it: draining! (allocated +
#   DRAIN + POWER_DOWN, reason POWER_DOWN_ASAP) while the job runs, drained!
#   (idle + DRAIN + POWER_DOWN) when it ends, then idle% and idle~ (DRAIN
#   cleared, the reason kept) ~10 s later.
# - A job sent to powered-down nodes: alloc~ (allocated+POWERED_DOWN), then
#   alloc# while they boot, the job CONFIGURING until ~30 s after they are
#   back. The ResumeProgram gets all nodes of a job in one hostlist.
# - Measured here (2 cores, loaded): `up` 2-5 s; power_down -> idle~ 11 s
#   with SuspendTimeout=3; power_up -> idle 3.4 s (2 s of it the delay above).
set -euo pipefail

die() { echo "slurm-loopback: $*" >&2; exit 1; }

cmd=${1:-}
[ $# -gt 0 ] && shift
dir=${ECOTUNE_SLURM_DIR:-/tmp/ecotune-slurm}
port_base=${ECOTUNE_SLURM_PORT_BASE:-17000}
nodes=${ECOTUNE_SLURM_NODES:-4}
cpus=${ECOTUNE_SLURM_CPUS:-1}
suspend_time=${ECOTUNE_SLURM_SUSPEND_TIME:-3600}
suspend_timeout=${ECOTUNE_SLURM_SUSPEND_TIMEOUT:-5}
resume_timeout=${ECOTUNE_SLURM_RESUME_TIMEOUT:-30}
min_job_age=${ECOTUNE_SLURM_MIN_JOB_AGE:-300}
extra_conf=${ECOTUNE_SLURM_EXTRA_CONF:-}
fail_resume=${ECOTUNE_SLURM_FAIL_RESUME:-}
install=1
watch_pid=
while [ $# -gt 0 ]; do
	case $1 in
	--dir) dir=$2; shift 2 ;;
	--port-base) port_base=$2; shift 2 ;;
	--nodes) nodes=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--suspend-time) suspend_time=$2; shift 2 ;;
	--suspend-timeout) suspend_timeout=$2; shift 2 ;;
	--resume-timeout) resume_timeout=$2; shift 2 ;;
	--min-job-age) min_job_age=$2; shift 2 ;;
	--extra-conf) extra_conf=$2; shift 2 ;;
	--fail-resume) fail_resume=$2; shift 2 ;;
	--no-install) install=0; shift ;;
	--watch-pid) watch_pid=$2; shift 2 ;;
	*) die "unknown argument $1 (usage: $0 up|down|status|install [--dir DIR] [--port-base P] [--nodes N] ...)" ;;
	esac
done

isnum() { [[ $1 =~ ^[0-9]+$ ]]; }
for v in port_base nodes cpus suspend_time suspend_timeout resume_timeout min_job_age; do
	isnum "${!v}" || die "--${v//_/-} must be a whole number, got '${!v}'"
done
[ "$nodes" -ge 1 ] || die "--nodes must be at least 1"
[ $((port_base + nodes)) -le 65535 ] || die "ports $port_base..$((port_base + nodes)) exceed 65535"
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
conf=$dir/slurm.conf

width=2
[ "$nodes" -gt 99 ] && width=3
[ "$nodes" -gt 999 ] && width=4
node_name() { printf "node%0${width}d" "$1"; }
node_list() {
	if [ "$nodes" -eq 1 ]; then node_name 1; else printf "node[%0${width}d-%0${width}d]" 1 "$nodes"; fi
}

# install: Debian's packages, once, serialized between concurrent callers.
do_install() {
	local missing=()
	for b in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/sinfo /usr/sbin/munged; do
		[ -x "$b" ] || missing+=("$b")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$install" = 1 ] || die "Slurm is not installed (${missing[*]} missing) and --no-install was given"
	[ "$(id -u)" = 0 ] || die "Slurm is not installed and installing needs root"
	command -v apt-get >/dev/null || die "Slurm is not installed and apt-get is missing"
	(
		flock -w 600 9 || die "timed out waiting for the install lock"
		[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/bin/sinfo ] && [ -x /usr/sbin/munged ] && exit 0
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq 9>&-
		apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null 9>&-
	) 9>/tmp/ecotune-slurm-install.lock
}

# munge: one munged for every instance. The lock only serializes starting
# it, and munged must not inherit the lock's descriptor (it would hold the
# lock for ever).
munge_ok() { munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; }

start_munge() {
	munge_ok && return 0
	(
		flock -w 60 9 || die "timed out waiting for /tmp/ecotune-munged-start.lock"
		munge_ok && exit 0
		mkdir -p /run/munge /var/lib/munge /var/log/munge
		chown munge:munge /run/munge /var/lib/munge /var/log/munge
		chmod 0755 /run/munge
		[ -f /etc/munge/munge.key ] || die "/etc/munge/munge.key is missing (reinstall the munge package)"
		runuser -u munge -- /usr/sbin/munged 9>&- || die "munged did not start"
		for _ in $(seq 50); do
			munge_ok && exit 0
			sleep 0.1
		done
		die "munged started but munge -n | unmunge fails"
	) 9>/tmp/ecotune-munged-start.lock
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

write_programs() {
	mkdir -p "$dir/bin"
	chmod 0755 "$dir" "$dir/bin"
	# A helper both programs use: expands a hostlist with scontrol.
	cat >"$dir/bin/suspend" <<EOF
#!/bin/bash
# SuspendProgram of the loopback instance $dir: stops each node's slurmd.
export SLURM_CONF=$conf PATH=/usr/sbin:/usr/bin:/sbin:/bin
echo "\$(date +%s) suspend \$1" >>$dir/power.log
for n in \$(scontrol show hostnames "\$1"); do
	pidf=$dir/run/slurmd-\$n.pid
	[ -f "\$pidf" ] || continue
	pid=\$(cat "\$pidf")
	kill -TERM "\$pid" 2>/dev/null || true
	for _ in \$(seq 50); do kill -0 "\$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "\$pid" 2>/dev/null || true
	rm -f "\$pidf"
done
exit 0
EOF
	cat >"$dir/bin/resume" <<EOF
#!/bin/bash
# ResumeProgram of the loopback instance $dir: starts each node's slurmd
# again as a fresh boot (-b), with the signal mask slurmctld gave us cleared.
export SLURM_CONF=$conf PATH=/usr/sbin:/usr/bin:/sbin:/bin
fail=""
[ -s $dir/fail-resume ] && fail=\$(scontrol show hostnames "\$(tr '\n' ',' <$dir/fail-resume | sed 's/,*\$//')" 2>/dev/null || true)
status=0
booted=
echo "\$(date +%s) resume \$1" >>$dir/power.log
for n in \$(scontrol show hostnames "\$1"); do
	if printf '%s\n' \$fail | grep -qx "\$n"; then
		echo "\$(date +%s) resume-failed \$n" >>$dir/power.log
		status=1
		continue
	fi
	pidf=$dir/run/slurmd-\$n.pid
	if [ -f "\$pidf" ] && kill -0 "\$(cat "\$pidf")" 2>/dev/null; then continue; fi
	# A node that boots within the second of the resume request reports a
	# boot time (now - uptime) before it, and slurmctld keeps waiting for a
	# boot until ResumeTimeout: boot at least 2 s later, as hardware would.
	[ -n "\$booted" ] || { sleep 2; booted=1; }
	setsid perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: \$!"; exec @ARGV or die "exec: \$!"' \\
		/usr/sbin/slurmd -b -f $conf -N "\$n" </dev/null >/dev/null 2>&1 || status=1
done
exit \$status
EOF
	chmod 0755 "$dir/bin/suspend" "$dir/bin/resume"
}

write_conf() {
	local ctl_port=$port_base tmp
	tmp=$(mktemp "$dir/.slurm.conf.XXXXXX")
	{
		cat <<EOF
# Loopback Slurm cluster written by scripts/slurm-loopback.sh (instance $dir).
ClusterName=loopback
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$((port_base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=$min_job_age
SlurmdTimeout=300
InactiveLimit=0
KillWait=5
# Power saving.
SuspendProgram=$dir/bin/suspend
ResumeProgram=$dir/bin/resume
SuspendTime=$suspend_time
SuspendTimeout=$suspend_timeout
ResumeTimeout=$resume_timeout
SuspendRate=0
ResumeRate=0
EOF
		for i in $(seq "$nodes"); do
			echo "NodeName=$(node_name "$i") NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port_base + i)) CPUs=$cpus RealMemory=100 State=UNKNOWN"
		done
		echo "PartitionName=debug Nodes=$(node_list) Default=YES MaxTime=INFINITE State=UP"
		if [ -n "$extra_conf" ]; then
			echo "# Appended from $extra_conf"
			cat "$extra_conf"
		fi
	} >"$tmp"
	chmod 0644 "$tmp"
	mv -f "$tmp" "$conf"
	tmp=$(mktemp "$dir/.env.XXXXXX")
	{
		echo "SLURM_CONF=$conf"
		echo "ECOTUNE_SLURM_DIR=$dir"
		echo "ECOTUNE_SLURM_PORT_BASE=$port_base"
		echo "ECOTUNE_SLURM_NODES=$nodes"
		echo "ECOTUNE_SLURM_NODELIST=$(node_list)"
		echo "ECOTUNE_SLURM_POWER_LOG=$dir/power.log"
		echo "ECOTUNE_SLURM_SUSPEND_PROGRAM=$dir/bin/suspend"
		echo "ECOTUNE_SLURM_RESUME_PROGRAM=$dir/bin/resume"
	} >"$tmp"
	chmod 0644 "$tmp"
	mv -f "$tmp" "$dir/env"
}

# Processes of this instance: pid files, then anything whose command line
# names this slurm.conf (slurmctld, slurmd are started with -f) or one of
# its power programs (a ResumeProgram waiting to start a slurmd would
# start it after `down`), then slurmstepd and job processes whose
# environment has SLURM_CONF=this slurm.conf. Never this script or its
# ancestors (the caller may have SLURM_CONF set to this instance).
instance_pids() {
	local f p q skip=" "
	q=$$
	while [ -n "$q" ] && [ "$q" != 0 ]; do
		skip+="$q "
		q=$(awk '{print $4}' "/proc/$q/stat" 2>/dev/null || true)
	done
	{
		for f in "$dir"/run/*.pid; do
			[ -f "$f" ] && cat "$f"
		done
		# One grep over /proc per pattern (forking tr and grep for every
		# process of a busy machine outlived the tests' teardown bound).
		# cmdline and environ hold NUL-separated words: -z reads one word
		# a record, so the slurm.conf path is matched as a whole word.
		grep -lzsxF -e "$conf" /proc/[0-9]*/cmdline | cut -d/ -f3
		grep -lzsF -e "$dir/bin/" /proc/[0-9]*/cmdline | cut -d/ -f3
		for p in $(grep -lzsxF -e "SLURM_CONF=$conf" /proc/[0-9]*/environ | cut -d/ -f3); do
			if grep -qsx slurmstepd "/proc/$p/comm" || grep -qzs '^SLURM_JOB_ID=' "/proc/$p/environ"; then
				echo "$p"
			fi
		done
	} | sort -un | while read -r p; do
		case $skip in *" $p "*) continue ;; esac
		[ "$p" = "$BASHPID" ] && continue
		kill -0 "$p" 2>/dev/null && echo "$p"
	done || true
}

# do_down stops the instance's processes: TERM, then KILL those left after
# 5 s. A process may start one more between the listing and the signal (a
# power program starting a slurmd): the instance is listed again, up to
# three times, until none is left.
do_down() {
	local pids round
	for round in 1 2 3; do
		pids=$(instance_pids)
		[ -z "$pids" ] && break
		kill -TERM $pids 2>/dev/null || true
		for _ in $(seq 50); do
			pids=$(for p in $pids; do if kill -0 "$p" 2>/dev/null; then echo "$p"; fi; done)
			[ -z "$pids" ] && break
			sleep 0.1
		done
		[ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
	done
	rm -f "$dir"/run/*.pid
	echo "slurm-loopback: $dir down"
}

do_status() {
	[ -f "$conf" ] || { echo "slurm-loopback: $dir has no slurm.conf" >&2; return 1; }
	pid_alive "$dir/run/slurmctld.pid" || { echo "slurm-loopback: slurmctld of $dir is not running" >&2; return 1; }
	SLURM_CONF=$conf sinfo -N -h -o '%N %T %c' || return 1
}

start_ctld() {
	SLURM_CONF=$conf /usr/sbin/slurmctld -f "$conf" ||
		die "slurmctld did not start; see $dir/log/slurmctld.log: $(tail -n 5 "$dir/log/slurmctld.log" 2>/dev/null)"
}

# wait_ctld waits (bounded, 10 s) until slurmctld answers.
wait_ctld() {
	for _ in $(seq 100); do
		SLURM_CONF=$conf scontrol ping >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	die "slurmctld does not answer; see $dir/log/slurmctld.log: $(tail -n 5 "$dir/log/slurmctld.log" 2>/dev/null)"
}

stop_ctld() {
	local pid
	pid_alive "$dir/run/slurmctld.pid" || { echo "slurm-loopback: slurmctld of $dir is not running"; return 0; }
	pid=$(cat "$dir/run/slurmctld.pid")
	kill -TERM "$pid"
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null || true
	rm -f "$dir/run/slurmctld.pid"
	echo "slurm-loopback: slurmctld of $dir stopped"
}

do_up() {
	[ "$(id -u)" = 0 ] || die "must run as root (slurmctld, slurmd and munged are started here)"
	do_install
	start_munge
	mkdir -p "$dir"/{state,spool,log,run}
	if pid_alive "$dir/run/slurmctld.pid"; then
		echo "slurm-loopback: $dir already up"
		return 0
	fi
	# A previous instance in this directory may have left slurmd's behind.
	do_down >/dev/null
	write_programs
	write_conf
	if [ -n "$fail_resume" ]; then echo "$fail_resume" >"$dir/fail-resume"; else : >"$dir/fail-resume"; fi
	touch "$dir/power.log"
	rm -rf "$dir"/state/* "$dir"/spool/*
	local i n
	for i in $(seq "$nodes"); do mkdir -p "$dir/spool/$(node_name "$i")"; done
	start_ctld
	for i in $(seq "$nodes"); do
		n=$(node_name "$i")
		SLURM_CONF=$conf /usr/sbin/slurmd -f "$conf" -N "$n" ||
			die "slurmd -N $n did not start; see $dir/log/slurmd-$n.log: $(tail -n 5 "$dir/log/slurmd-$n.log" 2>/dev/null)"
	done
	wait_ctld
	if [ -n "$watch_pid" ]; then
		isnum "$watch_pid" || die "--watch-pid must be a process id"
		setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; exec "$2" down --dir "$3"' \
			watcher "$watch_pid" "$(readlink -f "$0")" "$dir" </dev/null >>"$dir/log/watcher.log" 2>&1 &
		echo $! >"$dir/run/watcher.pid"
	fi
	echo "slurm-loopback: $dir up (slurmctld port $port_base, $nodes nodes $(node_list)); source $dir/env"
}

case $cmd in
up) do_up ;;
down) do_down ;;
status) do_status ;;
install) do_install ;;
stop-controller) stop_ctld ;;
start-controller)
	[ -f "$conf" ] || die "$dir has no slurm.conf (run up first)"
	if pid_alive "$dir/run/slurmctld.pid"; then echo "slurm-loopback: slurmctld of $dir already running"; exit 0; fi
	start_ctld
	wait_ctld
	echo "slurm-loopback: slurmctld of $dir started"
	;;
*) die "usage: $0 up|down|status|install|stop-controller|start-controller [--dir DIR] [--port-base P] [--nodes N] [--cpus C] [--suspend-time S] [--suspend-timeout S] [--resume-timeout S] [--min-job-age S] [--extra-conf FILE] [--fail-resume NODES] [--no-install]" ;;
esac
