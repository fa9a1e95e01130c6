#!/bin/sh
# Runs a command in a network namespace of its own (docs/DESIGN.md §11): WebRTC in Chromium gathers no
# candidates on loopback alone nor without a default route, and the P2P test's traffic must never touch
# the machine's real interfaces. Inside: lo, and a veth pair whose one end has 10.99.0.1/24 and the
# default route (its peer, 10.99.0.2, is never reached: both browsers use 10.99.0.1).
# Needs root (or user namespaces) and `ip` (Debian's iproute2). Usage: scripts/netns.sh <command...>
set -eu
if [ "${TLPRT_IN_NETNS:-}" != 1 ]; then
  TLPRT_IN_NETNS=1 exec unshare --net -- "$0" "$@"
fi
ip link set lo up
ip link add tlprt0 type veth peer name tlprt1
ip addr add 10.99.0.1/24 dev tlprt0
ip link set tlprt0 up
ip link set tlprt1 up
ip route add default via 10.99.0.2 dev tlprt0
exec "$@"
