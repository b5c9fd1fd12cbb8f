#!/bin/sh
# Example SuspendProgram / ResumeProgram for Slurm power saving over IPMI.
# Install one copy per verb, owned by SlurmUser and not group- or
# world-writable (slurmctld refuses power saving otherwise):
#   install -m 0755 slurm-power-ipmi.sh /usr/local/sbin/ecotune-suspend
#   install -m 0755 slurm-power-ipmi.sh /usr/local/sbin/ecotune-resume
# slurmctld calls it with one argument, a hostlist such as node[01-04].
# It decides the verb from its own name (…suspend → soft off, …resume → on).
# Each node's BMC is NODE-ipmi (change BMC_SUFFIX), with the credentials
# in /etc/slurm/ipmi.env (IPMI_USER=..., IPMI_PASSWORD=...; mode 0600).
set -eu
BMC_SUFFIX=${BMC_SUFFIX:--ipmi}
[ -r /etc/slurm/ipmi.env ] && . /etc/slurm/ipmi.env
case "$(basename "$0")" in
*suspend*) action=soft ;;
*resume*) action=on ;;
*) echo "name me ...suspend or ...resume" >&2; exit 2 ;;
esac
status=0
for node in $(scontrol show hostnames "$1"); do
	IPMI_PASSWORD=${IPMI_PASSWORD:-} ipmitool -I lanplus -H "$node$BMC_SUFFIX" \
		-U "${IPMI_USER:-ADMIN}" -E chassis power "$action" ||
		{ logger -t slurm-power "ipmitool $action $node failed"; status=1; }
done
exit $status
