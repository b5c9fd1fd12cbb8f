#!/bin/sh
# Example SuspendProgram / ResumeProgram for Slurm power saving with
# Wake-on-LAN: resume sends a magic packet, suspend powers the node off
# over ssh (the node's NIC must have WoL enabled: ethtool -s eth0 wol g).
# Install one copy per verb, owned by SlurmUser and not group- or
# world-writable (slurmctld refuses power saving otherwise):
#   install -m 0755 slurm-power-wol.sh /usr/local/sbin/ecotune-suspend
#   install -m 0755 slurm-power-wol.sh /usr/local/sbin/ecotune-resume
# slurmctld calls it with one argument, a hostlist such as node[01-04].
# MAC addresses come from /etc/slurm/macs ("NODE MAC" per line); the
# packet goes to broadcast address WOL_BCAST if set (wakeonlan from Debian's wakeonlan
# package, or etherwake).
set -eu
MACS=${MACS:-/etc/slurm/macs}
case "$(basename "$0")" in
*suspend*) verb=suspend ;;
*resume*) verb=resume ;;
*) echo "name me ...suspend or ...resume" >&2; exit 2 ;;
esac
status=0
for node in $(scontrol show hostnames "$1"); do
	if [ $verb = suspend ]; then
		ssh -o BatchMode=yes -o ConnectTimeout=10 "$node" systemctl poweroff ||
			{ logger -t slurm-power "poweroff $node failed"; status=1; }
	else
		mac=$(awk -v n="$node" '$1 == n { print $2 }' "$MACS")
		[ -n "$mac" ] || { logger -t slurm-power "no MAC for $node in $MACS"; status=1; continue; }
		wakeonlan ${WOL_BCAST:+-i "$WOL_BCAST"} "$mac" >/dev/null ||
			{ logger -t slurm-power "wakeonlan $node failed"; status=1; }
	fi
done
exit $status
