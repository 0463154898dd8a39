# SPDX-License-Identifier: GPL-2.0
# A real network card's receive path (issue 30, 1.1 and 3): TCP and UDP in
# both directions between the guest's two virtio cards, one of them in a
# network namespace (harness.sh --nics; tests/vm/guest-bin/nic-traffic.c),
# while resize-storm rewrites the sizes of the caches that path uses. The
# card's NAPI poll runs in softirq and refills its per-cpu skb cache with
# kmem_cache_alloc_bulk(skbuff_head_cache, 16) whenever it runs dry,
# interrupting task-context allocations and frees of the same caches (the
# senders' skbs, socket buffers). Every byte and datagram is checked at the
# far end, and the bulk refills must have been served by
# skbuff_head_cache's queues, or this did not test them.
. /tests/lib.sh
if ! [ -d /sys/class/net/eth0 ] || ! [ -d /sys/class/net/eth1 ]; then
	not_ok "nic traffic: the guest has no two network cards (eth0, eth1; harness.sh --nics)"
	exit 0
fi
# Its checks fire: a run that changes a TCP byte and UDP datagrams on
# purpose must fail, naming both.
nic-traffic --selftest --seconds 3 eth0 eth1 >/tmp/nic-self.out 2>&1
rc=$?
sed 's/^/#   selftest: /' /tmp/nic-self.out
check "nic traffic selftest: the changed TCP byte and UDP datagrams are caught (status $rc)" \
	sh -c "[ $rc != 0 ] && grep -q 'tcp host->peer: byte 100000 is' /tmp/nic-self.out &&
		grep -q 'udp host->peer: datagram 1[0-2] .* arrived changed' /tmp/nic-self.out"
stat_of() { queue_stat skbuff_head_cache "$1"; }
bulk0=$(stat_of bulk_alloc) bfree0=$(stat_of bulk_free)
caches=
for c in skbuff_head_cache skbuff_small_head skbuff_fclone_cache kmalloc-512 kmalloc-1k kmalloc-2k kmalloc-4k; do
	has_queues $c && caches="$caches $c"
done
echo "# resize-storm on:$caches"
rm -f /tmp/nic.done
# shellcheck disable=SC2086 # one word per cache
resize-storm /tmp/nic.done $caches >/tmp/nic-storm.out 2>&1 &
storm=$!
nic-traffic --seconds 20 eth0 eth1
touch /tmp/nic.done
wait $storm
rc=$?
cat /tmp/nic-storm.out
check "nic traffic: resize-storm on the skb caches exited cleanly (status $rc)" test $rc = 0
bulk1=$(stat_of bulk_alloc) bfree1=$(stat_of bulk_free)
echo "# skbuff_head_cache: bulk_alloc $bulk0 -> $bulk1, bulk_free $bfree0 -> $bfree1"
check "nic traffic: NAPI's bulk skb refills were served by skbuff_head_cache's queues (bulk_alloc $bulk0 -> $bulk1)" \
	test "${bulk1:-0}" -gt "${bulk0:-0}"
