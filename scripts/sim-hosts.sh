#!/usr/bin/env bash
# Simulated hosts for the store tests (docs/store.md § Tests): network namespaces, each joined
# to this one by a veth pair on a /30 of its own, so that a process run in one reaches this
# namespace's side of its link and nothing else (not 127.0.0.1): a client on another machine,
# as far as a server here can tell. Needs root (CAP_NET_ADMIN) and iproute2's `ip`.
#   scripts/sim-hosts.sh up NAME N    make hosts NAME1..NAMEn; prints a line per host:
#                                     "NETNS HOST_ADDRESS SERVER_ADDRESS" (the host's own
#                                     address, and this namespace's on its link)
#   scripts/sim-hosts.sh down NAME N  remove them (missing ones are fine)
#   scripts/sim-hosts.sh cut NAME I   take host I's link down: it vanishes without a word, as
#                                     a machine that loses power or its network does
# Run a command on host I: ip netns exec NAMEI unshare --uts sh -c 'hostname NAMEI; exec CMD'.
# NAME is at most 9 characters (interface names: NAME + h|n + I within 15).
set -euo pipefail
cmd=${1:?up, down or cut}
name=${2:?a name}
count=${3:?a count or an index}
[ "${#name}" -le 9 ] || { echo "sim-hosts: NAME is at most 9 characters" >&2; exit 2; }

# The /30 of host I, in 10.213.0.0/16, chosen by NAME so that two runs at once do not meet.
base=$(( $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 4000 ))
subnet() {
  local n=$(( (base + $1) * 4 ))
  printf '10.213.%d.%d' $(( n / 256 % 256 )) $(( n % 256 ))
}
offset() { local a=${1##*.}; printf '%s.%d' "${1%.*}" $(( a + $2 )); }

case "$cmd" in
  up)
    for i in $(seq 1 "$count"); do
      net=$(subnet "$i")
      server=$(offset "$net" 1)
      host=$(offset "$net" 2)
      ip netns add "$name$i"
      ip link add "${name}h$i" type veth peer name "${name}n$i"
      ip link set "${name}n$i" netns "$name$i"
      ip addr add "$server/30" dev "${name}h$i"
      ip link set "${name}h$i" up
      ip netns exec "$name$i" ip addr add "$host/30" dev "${name}n$i"
      ip netns exec "$name$i" ip link set "${name}n$i" up
      ip netns exec "$name$i" ip link set lo up
      echo "$name$i $host $server"
    done
    ;;
  down)
    for i in $(seq 1 "$count"); do
      ip netns del "$name$i" 2>/dev/null || true
      ip link del "${name}h$i" 2>/dev/null || true
    done
    ;;
  cut)
    ip netns exec "$name$count" ip link set "${name}n$count" down
    ;;
  *)
    echo "usage: $0 up|down|cut NAME N" >&2
    exit 2
    ;;
esac
