// SPDX-License-Identifier: GPL-2.0
/*
 * nic-traffic [--selftest] (--seconds N | --until FILE) HOST_IF PEER_IF:
 * TCP and UDP through the guest's two network cards (vm-images/run-qemu.sh
 * --nics).
 *
 * The two cards are joined by a QEMU hub and by nothing else. PEER_IF is
 * moved into a network namespace of this process's own, and the two ends
 * get 10.77.0.1/24 (HOST_IF) and 10.77.0.2/24 (PEER_IF): traffic between
 * the namespaces then leaves through one card and arrives through the
 * other's interrupt, NAPI poll and GRO, where the skb cache refills with
 * kmem_cache_alloc_bulk() and empties with kmem_cache_free_bulk() in
 * softirq context, while the senders allocate from the same caches in
 * task context. Eight threads: in each direction a TCP stream (writes of
 * 1 byte to 64 KiB) and a UDP flow (datagrams of 24 bytes to 4000, the
 * larger ones fragmented), each checked at the far end:
 *   - every TCP byte arrives, in order, with the value it was sent with;
 *   - every UDP datagram that arrives is whole and unchanged (UDP may drop);
 *   - every stream and flow moved data, and HOST_IF's own counters moved
 *     (the traffic took the wire, not the loopback device);
 *   - no stream stalls for STALL_SECONDS.
 * Runs for N seconds, or until FILE exists (checked every 100 ms). Prints
 * TAP lines, one per check, and exits 0 when all held. --selftest makes
 * the host->peer senders change one TCP byte (at offset 100000) and three
 * UDP datagrams (numbers 10 to 12, as UDP may drop some) after computing
 * them, so that a run shows its checks fire: it must then fail, naming
 * both. When the process ends its namespace goes, and the kernel moves
 * PEER_IF back to the initial one (asynchronously: a second run waits up
 * to 20 s for it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <net/if.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HOST_ADDR "10.77.0.1"
#define PEER_ADDR "10.77.0.2"
#define TCP_PORT 7000
#define UDP_PORT 7001
#define STALL_SECONDS 60
#define TCP_MAX_WRITE 65536
#define UDP_MIN 24
#define UDP_MAX 4000
#define UDP_MAGIC 0x5eebd47aU

static atomic_bool stopping;
static bool selftest;
static atomic_uint failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	/* The first few are enough to read a failure; the count says the rest. */
	if (atomic_fetch_add(&failures, 1) >= 20)
		return;
	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void die(const char *what)
{
	printf("not ok - nic-traffic: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The value of the 8-byte word number @word of stream @id: a mix that no
 * stale or swapped buffer reproduces by chance. */
static uint64_t pattern_word(uint32_t id, uint64_t word)
{
	uint64_t x = word * 0x9e3779b97f4a7c15ULL + id * 0xbf58476d1ce4e5b9ULL + 1;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 29);
}

/* Fill @len bytes of stream @id starting at stream offset @off. */
static void pattern_fill(uint8_t *buf, size_t len, uint32_t id, uint64_t off)
{
	for (size_t i = 0; i < len; i++, off++)
		buf[i] = (uint8_t)(pattern_word(id, off / 8) >> (8 * (off % 8)));
}

static uint32_t next_rand(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

static int in_netns(int nsfd)
{
	return setns(nsfd, CLONE_NEWNET);
}

/* Move interface @name of the current namespace into namespace @nsfd. */
static void move_to_netns(const char *name, int nsfd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	unsigned int idx = 0, seq = (unsigned int)time(NULL);
	ssize_t n;

	/* A previous run's namespace may still be on its way out, with
	 * the card in it (cleanup_net() runs from a workqueue). */
	for (int i = 0; i < 200 && !(idx = if_nametoindex(name)); i++)
		usleep(100000);
	if (!idx)
		die(name);
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("rtnetlink socket");
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = (int)idx;
	mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)nsfd);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("RTM_NEWLINK");
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0 || mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), NULL, NULL) < 0)
		die("moving the peer card into its namespace");
	mnl_socket_close(nl);
}

/* Give interface @name of the current namespace @addr/24 and bring it up. */
static void configure(const char *name, const char *addr)
{
	struct ifreq ifr = { 0 };
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, addr, &sin->sin_addr);
	if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
		die("SIOCSIFADDR");
	inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
	if (ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
		die("SIOCSIFNETMASK");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		die("SIOCSIFFLAGS");
	close(fd);
}

static struct sockaddr_in endpoint(const char *addr, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };

	inet_pton(AF_INET, addr, &sin.sin_addr);
	return sin;
}

static void set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = STALL_SECONDS };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* One direction: "host->peer" or "peer->host". */
struct flow {
	const char *name;
	uint32_t id;
	int tx, rx;			/* sockets: sending end, receiving end */
	uint64_t sent, received;	/* bytes (TCP) or datagrams (UDP) */
	uint64_t writes;		/* TCP: write(2) calls */
	uint64_t bytes;			/* UDP: bytes sent */
	/* Damage the receiver saw; read once both threads are joined. */
	unsigned int bad;
};

static void *tcp_sender(void *arg)
{
	struct flow *f = arg;
	static _Thread_local uint8_t buf[TCP_MAX_WRITE];
	uint32_t r = f->id * 2654435761U + 1;

	while (!atomic_load(&stopping)) {
		size_t len = 1 + next_rand(&r) % (next_rand(&r) % 4 ? 1460 : TCP_MAX_WRITE);
		ssize_t n;

		pattern_fill(buf, len, f->id, f->sent);
		if (selftest && f->id == 1 && f->sent <= 100000 && f->sent + len > 100000)
			buf[100000 - f->sent] ^= 0x20;
		n = write(f->tx, buf, len);
		if (n < 0) {
			fail("tcp %s: write after %llu bytes: %s", f->name,
			     (unsigned long long)f->sent, strerror(errno));
			break;
		}
		f->sent += (uint64_t)n;
		f->writes++;
	}
	shutdown(f->tx, SHUT_WR);
	return NULL;
}

static void *tcp_receiver(void *arg)
{
	struct flow *f = arg;
	static _Thread_local uint8_t buf[TCP_MAX_WRITE], want[TCP_MAX_WRITE];
	bool broken = false;

	for (;;) {
		ssize_t n = read(f->rx, buf, sizeof(buf));

		if (n == 0)
			break;
		if (n < 0) {
			fail("tcp %s: read after %llu bytes: %s", f->name,
			     (unsigned long long)f->received, strerror(errno));
			break;
		}
		pattern_fill(want, (size_t)n, f->id, f->received);
		if (!broken && memcmp(buf, want, (size_t)n)) {
			size_t i = 0;

			while (buf[i] == want[i])
				i++;
			f->bad++;
			fail("tcp %s: byte %llu is 0x%02x, sent as 0x%02x", f->name,
			     (unsigned long long)(f->received + i), buf[i], want[i]);
			/* Read on to the end, so that the sender does not block. */
			broken = true;
		}
		f->received += (uint64_t)n;
	}
	return NULL;
}

struct datagram {
	uint32_t magic, flow;
	uint64_t seq;
	uint32_t len, pad;
	uint8_t payload[];
};

static void *udp_sender(void *arg)
{
	struct flow *f = arg;
	static _Thread_local _Alignas(struct datagram) uint8_t buf[UDP_MAX];
	struct datagram *d = (struct datagram *)buf;
	uint32_t r = f->id * 2246822519U + 7;

	while (!atomic_load(&stopping)) {
		size_t len = UDP_MIN + next_rand(&r) % (UDP_MAX - UDP_MIN + 1);

		*d = (struct datagram){ .magic = UDP_MAGIC, .flow = f->id, .seq = f->sent, .len = (uint32_t)len };
		pattern_fill(d->payload, len - sizeof(*d), f->id, f->sent * UDP_MAX);
		if (selftest && f->id == 3 && f->sent >= 10 && f->sent < 13)
			buf[len - 1] ^= 0x20;
		if (send(f->tx, buf, len, 0) < 0) {
			/* The receiver's queue or the card's is full: UDP drops. */
			if (errno != ENOBUFS && errno != ECONNREFUSED && errno != EAGAIN) {
				fail("udp %s: send: %s", f->name, strerror(errno));
				break;
			}
			usleep(1000);
			continue;
		}
		f->sent++;
		f->bytes += len;
	}
	return NULL;
}

static void *udp_receiver(void *arg)
{
	struct flow *f = arg;
	static _Thread_local _Alignas(struct datagram) uint8_t buf[UDP_MAX + 1];
	static _Thread_local uint8_t want[UDP_MAX];
	struct datagram *d = (struct datagram *)buf;
	struct timeval tv = { .tv_sec = 1 };
	time_t quiet_since = time(NULL);

	setsockopt(f->rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (;;) {
		ssize_t n = recv(f->rx, buf, sizeof(buf), 0);

		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR) {
				fail("udp %s: recv: %s", f->name, strerror(errno));
				break;
			}
			/* Once the senders stopped, a quiet second is the end. */
			if (atomic_load(&stopping))
				break;
			if (time(NULL) - quiet_since > STALL_SECONDS) {
				fail("udp %s: nothing arrived for %d s", f->name, STALL_SECONDS);
				break;
			}
			continue;
		}
		quiet_since = time(NULL);
		if ((size_t)n < sizeof(*d) || d->magic != UDP_MAGIC || d->flow != f->id || d->len != (uint32_t)n) {
			f->bad++;
			fail("udp %s: datagram of %zd bytes with a broken header (magic %#x flow %u len %u)",
			     f->name, n, (size_t)n >= sizeof(*d) ? d->magic : 0,
			     (size_t)n >= sizeof(*d) ? d->flow : 0, (size_t)n >= sizeof(*d) ? d->len : 0);
			continue;
		}
		pattern_fill(want, (size_t)n - sizeof(*d), f->id, d->seq * UDP_MAX);
		if (memcmp(d->payload, want, (size_t)n - sizeof(*d))) {
			f->bad++;
			fail("udp %s: datagram %llu (%zd bytes) arrived changed", f->name,
			     (unsigned long long)d->seq, n);
		}
		f->received++;
	}
	return NULL;
}

/* A connected TCP pair from a client in @from_ns to a listener in @to_ns. */
static void tcp_pair(struct flow *f, int from_ns, const char *from_addr, int to_ns, const char *to_addr)
{
	struct sockaddr_in to = endpoint(to_addr, TCP_PORT), from = endpoint(from_addr, 0);
	int one = 1, lfd;

	if (in_netns(to_ns) < 0)
		die("setns");
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(lfd, (struct sockaddr *)&to, sizeof(to)) < 0 || listen(lfd, 1) < 0)
		die("tcp listener");
	if (in_netns(from_ns) < 0)
		die("setns");
	f->tx = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->tx < 0 || bind(f->tx, (struct sockaddr *)&from, sizeof(from)) < 0)
		die("tcp client");
	set_timeouts(f->tx);
	if (connect(f->tx, (struct sockaddr *)&to, sizeof(to)) < 0)
		die("tcp connect over the wire");
	f->rx = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (f->rx < 0)
		die("tcp accept");
	set_timeouts(f->rx);
	close(lfd);
}

/* A UDP flow from @from_ns to a bound socket in @to_ns. */
static void udp_pair(struct flow *f, int from_ns, const char *from_addr, int to_ns, const char *to_addr)
{
	struct sockaddr_in to = endpoint(to_addr, UDP_PORT), from = endpoint(from_addr, 0);
	int big = 4 << 20;

	if (in_netns(to_ns) < 0)
		die("setns");
	f->rx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (f->rx < 0 || bind(f->rx, (struct sockaddr *)&to, sizeof(to)) < 0)
		die("udp receiver");
	setsockopt(f->rx, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (in_netns(from_ns) < 0)
		die("setns");
	f->tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (f->tx < 0 || bind(f->tx, (struct sockaddr *)&from, sizeof(from)) < 0 ||
	    connect(f->tx, (struct sockaddr *)&to, sizeof(to)) < 0)
		die("udp sender");
}

static unsigned long long card_counter(const char *ifname, const char *counter)
{
	char path[128];
	unsigned long long v = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", ifname, counter);
	fp = fopen(path, "re");
	if (!fp || fscanf(fp, "%llu", &v) != 1)
		v = 0;
	if (fp)
		fclose(fp);
	return v;
}

static bool all_ok = true;

/* One TAP line; the exit status is whether every one was ok. */
static void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	all_ok &= ok;
	printf("%s - nic-traffic: ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void usage(void)
{
	fprintf(stderr, "usage: nic-traffic [--selftest] (--seconds N | --until FILE) HOST_IF PEER_IF\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *until = NULL, *host_if, *peer_if;
	long seconds = 0;
	int host_ns, peer_ns;
	struct flow tcp[2] = { { .name = "host->peer", .id = 1 }, { .name = "peer->host", .id = 2 } };
	struct flow udp[2] = { { .name = "host->peer", .id = 3 }, { .name = "peer->host", .id = 4 } };
	const struct {
		void *(*fn)(void *);
		struct flow *f;
	} jobs[] = {
		{ tcp_sender, &tcp[0] }, { tcp_receiver, &tcp[0] },
		{ tcp_sender, &tcp[1] }, { tcp_receiver, &tcp[1] },
		{ udp_sender, &udp[0] }, { udp_receiver, &udp[0] },
		{ udp_sender, &udp[1] }, { udp_receiver, &udp[1] },
	};
	pthread_t threads[sizeof(jobs) / sizeof(jobs[0])];
	unsigned long long tx0, rx0, tx, rx;
	struct stat st;
	time_t start;

	if (argc > 1 && !strcmp(argv[1], "--selftest")) {
		selftest = true;
		argv++;
		argc--;
	}
	if (argc != 5)
		usage();
	if (!strcmp(argv[1], "--seconds")) {
		char *end;

		seconds = strtol(argv[2], &end, 10);
		if (*end || seconds <= 0)
			usage();
	} else if (!strcmp(argv[1], "--until")) {
		until = argv[2];
	} else {
		usage();
	}
	host_if = argv[3];
	peer_if = argv[4];
	setvbuf(stdout, NULL, _IOLBF, 0);

	host_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (host_ns < 0 || unshare(CLONE_NEWNET) < 0)
		die("a network namespace for the peer card");
	peer_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (peer_ns < 0 || in_netns(host_ns) < 0)
		die("back to the host namespace");
	move_to_netns(peer_if, peer_ns);
	configure(host_if, HOST_ADDR);
	if (in_netns(peer_ns) < 0)
		die("setns");
	configure(peer_if, PEER_ADDR);
	if (in_netns(host_ns) < 0)
		die("setns");
	tx0 = card_counter(host_if, "tx_packets");
	rx0 = card_counter(host_if, "rx_packets");

	tcp_pair(&tcp[0], host_ns, HOST_ADDR, peer_ns, PEER_ADDR);
	tcp_pair(&tcp[1], peer_ns, PEER_ADDR, host_ns, HOST_ADDR);
	udp_pair(&udp[0], host_ns, HOST_ADDR, peer_ns, PEER_ADDR);
	udp_pair(&udp[1], peer_ns, PEER_ADDR, host_ns, HOST_ADDR);
	if (in_netns(host_ns) < 0)
		die("setns");

	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		errno = pthread_create(&threads[i], NULL, jobs[i].fn, jobs[i].f);
		if (errno)
			die("pthread_create");
	}
	start = time(NULL);
	while (until ? stat(until, &st) < 0 : time(NULL) - start < seconds)
		usleep(100000);
	atomic_store(&stopping, true);
	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++)
		pthread_join(threads[i], NULL);
	tx = card_counter(host_if, "tx_packets") - tx0;
	rx = card_counter(host_if, "rx_packets") - rx0;

	for (int i = 0; i < 2; i++) {
		struct flow *f = &tcp[i];

		printf("# tcp %s: %llu bytes in %llu writes, %llu received\n", f->name,
		       (unsigned long long)f->sent, (unsigned long long)f->writes,
		       (unsigned long long)f->received);
		tap(f->sent > 0 && f->received == f->sent && !f->bad,
		    "tcp %s: every byte sent arrived in order and unchanged (%llu of %llu)", f->name,
		    (unsigned long long)f->received, (unsigned long long)f->sent);
	}
	for (int i = 0; i < 2; i++) {
		struct flow *f = &udp[i];

		printf("# udp %s: %llu datagrams (%llu bytes) sent, %llu received\n", f->name,
		       (unsigned long long)f->sent, (unsigned long long)f->bytes,
		       (unsigned long long)f->received);
		tap(f->received > 0 && !f->bad,
		    "udp %s: datagrams arrived whole and unchanged (%llu of %llu)", f->name,
		    (unsigned long long)f->received, (unsigned long long)f->sent);
	}
	tap(tx > 0 && rx > 0, "the traffic took the wire: %s sent %llu packets and received %llu",
	    host_if, tx, rx);
	tap(atomic_load(&failures) == 0, "no corrupted, stalled or failed stream (%u failures)",
	    atomic_load(&failures));
	printf("# ran %lld s\n", (long long)(time(NULL) - start));
	return !all_ok;
}
