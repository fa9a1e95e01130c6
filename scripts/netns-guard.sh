# Sourced by the scripts that build networks inside the test's namespace (natns.sh, netsplit.sh):
# `netns_guard <script> <prefix> <longest prefix>` checks the prefix and that this is the namespace
# scripts/netns.sh made, and exits otherwise.
netns_guard() {
  script=$1 prefix=$2 longest=$3
  case "$prefix" in
    '' | *[!a-z0-9]* ) echo "usage: $script up|down <prefix a-z0-9> ..." >&2; exit 2 ;;
  esac
  # Interface names have 15 characters at most: the prefix and a few of the script's own.
  [ ${#prefix} -le "$longest" ] || { echo "$script: prefix longer than $longest characters" >&2; exit 2; }
  # Never touch the machine's own network: only the namespace scripts/netns.sh made (its tlprt0 and
  # tlprt1, and what these scripts added there) is ever changed.
  ip link show tlprt0 >/dev/null 2>&1 || {
    echo "$script: not in the test's network namespace (run it under scripts/netns.sh)" >&2; exit 1; }
  for dev in $(ip -o link show | awk -F': ' '{ print $2 }' | cut -d@ -f1); do
    case "$dev" in
      lo | tlprt0 | tlprt1 | "$prefix"*) ;;
      *) echo "$script: this namespace has $dev: not the test's own, nothing changed" >&2; exit 1 ;;
    esac
  done
}
