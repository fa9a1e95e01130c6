#!/bin/sh
# Two "ISP" networks of viewers (issue 40, e2e/p2p/networks.spec.ts): builds, inside the test's own
# network namespace (scripts/netns.sh), a public bridge and two router namespaces on it, each with two
# viewer homes behind it on plain routed addresses (no NAT: the tracker sees each viewer's own address,
# which NETWORKS_FILE names as the network's autonomous system). The test's namespace is the exchange
# between the networks: it holds the server on the bridge and routes each network's /16 to its router,
# so every byte from one network to the other passes both routers' FORWARD chains, where it is counted.
#
#   scripts/netsplit.sh up <prefix>       build it
#   scripts/netsplit.sh counts <prefix>   the byte counters of each router (below)
#   scripts/netsplit.sh down <prefix>
#
#   public bridge <prefix>br 10.60.0.1/24 (the server); forwarding on in the test's namespace
#   network a: router <prefix>ra, wan 10.60.0.11/24, default route via 10.60.0.1, 10.61.0.0/16
#   network b: router <prefix>rb, wan 10.60.0.12/24, default route via 10.60.0.1, 10.62.0.0/16
#   home i (1, 2) of network n: <prefix><n><i>, eth0 10.6x.<i>.2/24 on a link of its own to its router
#                               (lan<i>, 10.6x.<i>.1/24), default route via it
#
# Two homes of one network talk through their router too (each home has a link of its own), so the
# router sees all of its viewers' peer traffic. Each router counts, in FORWARD, by addresses only:
#   out      from its network to the other network
#   in       from the other network to its network
#   inside   from one of its homes to another
#   outdata  the packets of `out` of at least 200 bytes: those that carry data (segments, and the
#   indata   peers' messages), not acknowledgements nor ICE's connectivity checks (about 100 bytes)
# `counts` prints one line per counter: `<network> <counter> <packets> <bytes>` (IP packets' bytes,
# headers included). Traffic to or from the server (10.60.0.0/24) is in none of them. IPv6 is off in the
# homes, so no peer traffic escapes the IPv4 counters.
# Needs root, `ip` (iproute2) and `iptables` (Debian's package); the names live in /var/run/netns until
# `down`.
set -eu

cmd=${1:-}
prefix=${2:-}
. "$(dirname "$0")/netns-guard.sh"
netns_guard netsplit.sh "$prefix" 12

in_ns() { ns=$1; shift; ip netns exec "$ns" "$@"; }
# Network a is 10.61.0.0/16 behind 10.60.0.11, b 10.62.0.0/16 behind 10.60.0.12.
octet() { case "$1" in a) echo 61 ;; b) echo 62 ;; esac; }
other() { case "$1" in a) echo b ;; b) echo a ;; esac; }

case "$cmd" in
  up)
    command -v iptables >/dev/null || { echo "netsplit.sh: iptables is not installed (apt-get install -y iptables)" >&2; exit 1; }
    ip link add "${prefix}br" type bridge
    ip addr add 10.60.0.1/24 dev "${prefix}br"
    ip link set "${prefix}br" up
    # The exchange: the test's namespace forwards between the routers, which share its bridge; without
    # redirects, or a router would learn to send to the other router directly, past the exchange.
    sysctl -qw net.ipv4.ip_forward=1
    sysctl -qw "net.ipv4.conf.${prefix}br.send_redirects=0"
    sysctl -qw net.ipv4.conf.all.send_redirects=0
    for n in a b; do
      o=$(octet "$n")
      own="10.$o.0.0/16"
      away="10.$(octet "$(other "$n")").0.0/16"
      r="${prefix}r$n"
      wan="10.60.0.$((o - 50))"
      ip netns add "$r"
      ip link add "${prefix}w$n" type veth peer name wan netns "$r"
      ip link set "${prefix}w$n" master "${prefix}br" up
      ip -n "$r" link set lo up
      ip -n "$r" addr add "$wan/24" dev wan
      ip -n "$r" link set wan up
      ip -n "$r" route add default via 10.60.0.1
      in_ns "$r" sysctl -qw net.ipv4.ip_forward=1
      ip route add "$own" via "$wan" dev "${prefix}br"
      for i in 1 2; do
        h="${prefix}$n$i"
        ip netns add "$h"
        ip -n "$r" link add "lan$i" type veth peer name eth0 netns "$h"
        ip -n "$r" addr add "10.$o.$i.1/24" dev "lan$i"
        ip -n "$r" link set "lan$i" up
        in_ns "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
        in_ns "$h" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
        ip -n "$h" link set lo up
        ip -n "$h" addr add "10.$o.$i.2/24" dev eth0
        ip -n "$h" link set eth0 up
        ip -n "$h" route add default via "10.$o.$i.1"
      done
      # Counting rules only (no target): the order is the order `counts` names them in.
      in_ns "$r" iptables -A FORWARD -s "$own" -d "$away"
      in_ns "$r" iptables -A FORWARD -s "$away" -d "$own"
      in_ns "$r" iptables -A FORWARD -s "$own" -d "$own"
      in_ns "$r" iptables -A FORWARD -s "$own" -d "$away" -m length --length 200:65535
      in_ns "$r" iptables -A FORWARD -s "$away" -d "$own" -m length --length 200:65535
    done
    ;;
  counts)
    for n in a b; do
      # -x: exact numbers, not 1K/1M.
      in_ns "${prefix}r$n" iptables -nvxL FORWARD | awk -v n="$n" '
        BEGIN { split("out in inside outdata indata", names, " ") }
        NR > 2 { i++; print n, names[i], $1, $2 }'
    done
    ;;
  down)
    for ns in $(ip netns list | cut -d' ' -f1); do
      case "$ns" in "${prefix}r"[ab] | "${prefix}"[ab][12]) ip netns delete "$ns" ;; esac
    done
    # A veth goes with its namespace, but only once the kernel has cleaned it up: remove them now.
    for dev in $(ip -o link show | awk -F': ' '{ print $2 }' | cut -d@ -f1); do
      case "$dev" in "${prefix}w"[ab] | "${prefix}br") ip link delete "$dev" 2>/dev/null || true ;; esac
    done
    ;;
  *) echo "usage: netsplit.sh up|counts|down <prefix>" >&2; exit 2 ;;
esac
