#!/bin/sh
# Viewers behind NATs (issue 21, e2e/p2p/nat.spec.ts): builds, inside the test's own network namespace
# (scripts/netns.sh), a "public" bridge and, per viewer, a home namespace behind a router namespace that
# masquerades it. The test's namespace is the public side: it holds the server and coturn on the bridge.
#
#   scripts/natns.sh up <prefix> <kind>...   kind: cone | symmetric, one per viewer (1, 2, ...)
#   scripts/natns.sh down <prefix>
#
#   public bridge <prefix>br  10.98.0.1/24 (server, coturn)
#   viewer i: router <prefix>r<i>, wan 10.98.0.(10+i)/24 on the bridge, lan 10.97.<i>.1/24
#             home   <prefix>h<i>, eth0 10.97.<i>.2/24, default route via its router
#
# A router knows only its lan and the public network (no default route), so a home reaches no other
# home's address: viewers meet only through their routers' public addresses. Each router is a home
# router: it masquerades the lan and drops whatever arrives on its wan unasked (else a peer's early
# connectivity check would leave a conntrack entry on the router's port, and Linux NAT would give the
# home's own flow to that peer another port). A cone router keeps a flow's source
# port (Linux NAT does when it can), so one STUN-learned address works towards every peer; a symmetric
# one (--random-fully) gives every destination a port of its own, so only a TURN relay connects it.
# Needs root, `ip` (iproute2) and `iptables` (Debian's package); the names live in /var/run/netns until
# `down`.
set -eu

cmd=${1:-}
prefix=${2:-}
. "$(dirname "$0")/netns-guard.sh"
netns_guard natns.sh "$prefix" 10

in_ns() { ns=$1; shift; ip netns exec "$ns" "$@"; }

case "$cmd" in
  up)
    shift 2
    command -v iptables >/dev/null || { echo "natns.sh: iptables is not installed (apt-get install -y iptables)" >&2; exit 1; }
    ip link add "${prefix}br" type bridge
    ip addr add 10.98.0.1/24 dev "${prefix}br"
    ip link set "${prefix}br" up
    i=0
    for kind in "$@"; do
      i=$((i + 1))
      case "$kind" in cone) random= ;; symmetric) random=--random-fully ;; *) echo "natns.sh: $kind?" >&2; exit 2 ;; esac
      r="${prefix}r$i"
      h="${prefix}h$i"
      ip netns add "$r"
      ip netns add "$h"
      ip link add "${prefix}w$i" type veth peer name wan netns "$r"
      ip link set "${prefix}w$i" master "${prefix}br" up
      ip -n "$r" link add lan type veth peer name eth0 netns "$h"
      ip -n "$r" link set lo up
      ip -n "$r" addr add "10.98.0.$((10 + i))/24" dev wan
      ip -n "$r" link set wan up
      ip -n "$r" addr add "10.97.$i.1/24" dev lan
      ip -n "$r" link set lan up
      ip -n "$h" link set lo up
      ip -n "$h" addr add "10.97.$i.2/24" dev eth0
      ip -n "$h" link set eth0 up
      ip -n "$h" route add default via "10.97.$i.1"
      in_ns "$r" sysctl -qw net.ipv4.ip_forward=1
      in_ns "$r" iptables -t nat -A POSTROUTING -o wan -j MASQUERADE $random
      for chain in INPUT FORWARD; do
        in_ns "$r" iptables -A "$chain" -i wan -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
        in_ns "$r" iptables -A "$chain" -i wan -j DROP
      done
    done
    ;;
  down)
    for ns in $(ip netns list | cut -d' ' -f1); do
      case "$ns" in "${prefix}r"[0-9]* | "${prefix}h"[0-9]*) ip netns delete "$ns" ;; esac
    done
    # A veth goes with its namespace, but only once the kernel has cleaned it up: remove them now.
    for dev in $(ip -o link show | awk -F': ' '{ print $2 }' | cut -d@ -f1); do
      case "$dev" in "${prefix}w"[0-9]* | "${prefix}br") ip link delete "$dev" 2>/dev/null || true ;; esac
    done
    ;;
  *) echo "usage: natns.sh up|down <prefix> [cone|symmetric]..." >&2; exit 2 ;;
esac
