#!/bin/sh
# The DaemonSet's init step (corescope-daemonset.yaml, as root with CAP_CHOWN only): lets the
# export container (UID/GID 65534) write its files into the host folders given as arguments.
# The kubelet makes a missing hostPath folder root-owned, mode 0755; this gives the group 65534
# write access (mode 1775: the sticky bit keeps other writers' files in a shared folder such as
# node_exporter's textfile directory theirs) and changes nothing else.
set -eu
for dir in "$@"; do
  mkdir -p "$dir"
  chgrp 65534 "$dir"
  chmod 1775 "$dir"
done
