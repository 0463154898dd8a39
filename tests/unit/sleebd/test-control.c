/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of sleebd's control socket against a fake tree (host.h): a
 * slow client does not stall the event loop, concurrent clients are
 * bounded, and non-root clients reach the daemon's credential check.
 *
 * Usage: test-sleebd-control SLEEBD SLEEBCTL
 */

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "sleeb/control.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int connect_control(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s" SLEEB_CONTROL_SOCKET, root);
	ck_assert_msg(connect(fd, (struct sockaddr *) &sa, sizeof(sa)) == 0, "connect: %s", strerror(errno));
	return fd;
}

/* Reads fd to EOF (or error) into out. */
static void read_all(int fd, char *out, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len - 1 && (n = read(fd, out + got, len - 1 - got)) > 0)
		got += (size_t) n;
	out[got] = '\0';
}

/* Starts the daemon on a tree with the kmalloc policy and waits until it
 * answers on its socket. */
static pid_t start_daemon(void)
{
	char answer[8192] = "";
	pid_t pid;

	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	for (int i = 0; i < 500 && strncmp(answer, "OK\n", 3) != 0; i++) {
		usleep(10000);
		control("STATUS", 0, answer, sizeof(answer));
	}
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "sleebd never answered: %s", answer);
	return pid;
}

/*
 * A client that sends "STATUS\n" one byte every interval_ms, then prints
 * what it was answered on the returned pipe.
 */
static pid_t dribble(int interval_ms, int *answer_fd)
{
	static const char cmd[] = "STATUS\n";
	int p[2];
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char buf[8192];
		int fd = connect_control();

		close(p[0]);
		for (size_t i = 0; i < sizeof(cmd) - 1; i++) {
			if (send(fd, cmd + i, 1, MSG_NOSIGNAL) != 1)
				break;  /* the daemon gave up on us */
			usleep((useconds_t) interval_ms * 1000);
		}
		read_all(fd, buf, sizeof(buf));
		if (write(p[1], buf, strlen(buf)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	*answer_fd = p[0];
	return pid;
}

/* The largest gap between two WATCHDOG=1 datagrams queued on fd (their
 * arrival times, SO_TIMESTAMP), and how many there were. */
static long long max_watchdog_gap_ms(int fd, int *count)
{
	long long last = -1, gap = 0;

	*count = 0;
	for (;;) {
		char buf[1024], ctl[CMSG_SPACE(sizeof(struct timeval))];
		struct iovec iov = { buf, sizeof(buf) - 1 };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				      .msg_controllen = sizeof(ctl) };
		ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT);
		struct cmsghdr *c;

		if (n < 0)
			break;
		buf[n] = '\0';
		if (!strstr(buf, "WATCHDOG=1"))
			continue;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMP) {
				struct timeval tv;
				long long t;

				memcpy(&tv, CMSG_DATA(c), sizeof(tv));
				t = tv.tv_sec * 1000LL + tv.tv_usec / 1000;
				if (last >= 0 && t - last > gap)
					gap = t - last;
				last = t;
				(*count)++;
			}
		}
	}
	return gap;
}

/*
 * A client dribbling its command (a byte every 400 ms) must not hold the
 * event loop: another client's STATUS is answered within 1 s all along,
 * the watchdog keeps being fed, and the dribbler is cut off at its
 * deadline.
 */
START_TEST(test_slow_client_does_not_stall)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char answer[8192];
	int nfd, afd, one = 1, pings;
	long long gap;
	pid_t pid, dr;

	make_tree(true);
	/* Few notifications besides the watchdog's: the queue must hold them all. */
	writef("etc/sleeb/sleebd.conf", "[Daemon]\nInterval=10s\n");
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/notify.sock", root);
	nfd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(bind(nfd, (struct sockaddr *) &sa, sizeof(sa)), 0);
	ck_assert_int_eq(setsockopt(nfd, SOL_SOCKET, SO_TIMESTAMP, &one, sizeof(one)), 0);
	child_notify = sa.sun_path;
	child_watchdog_usec = "1000000";
	pid = start_daemon();
	child_notify = NULL;
	child_watchdog_usec = "200000";
	(void) max_watchdog_gap_ms(nfd, &pings);  /* only what comes next counts */

	dr = dribble(400, &afd);
	usleep(300000);
	for (int i = 0; i < 3; i++) {
		long long t0 = now_ms(), t;

		control("STATUS", 0, answer, sizeof(answer));
		t = now_ms() - t0;
		ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "status %d: %s", i, answer);
		ck_assert_msg(t < 1000, "status %d answered after %lld ms, while a client dribbles", i, t);
		usleep(500000);
	}

	/* 2 s after it connected, the dribbler is told off and closed. */
	read_all(afd, answer, sizeof(answer));
	close(afd);
	ck_assert_int_eq(test_wait_exit(dr), 0);
	ck_assert_msg(strncmp(answer, "ERROR timeout", 13) == 0, "the dribbler got: '%s'", answer);
	ck_assert(file_contains(logpath, "control: client sent no complete command within 2 s"));

	/* WatchdogSec=1s: fed at least every second, all along. */
	gap = max_watchdog_gap_ms(nfd, &pings);
	ck_assert_msg(pings >= 3, "only %d watchdog pings", pings);
	ck_assert_msg(gap < 1000, "the watchdog went %lld ms without a ping (WatchdogSec=1s)", gap);
	close(nfd);
	host_stop(pid);
}
END_TEST

/*
 * At most 16 clients at once: the 17th is told so and closed at once;
 * idle ones are closed at their deadline, after which the daemon answers
 * again.
 */
START_TEST(test_client_cap)
{
	char answer[8192];
	int fds[16];
	pid_t pid;

	make_tree(true);
	pid = start_daemon();
	for (int i = 0; i < 16; i++)
		fds[i] = connect_control();
	usleep(300000);  /* all accepted */
	control("STATUS", 0, answer, sizeof(answer));
	ck_assert_msg(strcmp(answer, "ERROR busy: 16 clients connected already, try again\n") == 0,
		      "the 17th client got '%s'", answer);
	ck_assert(file_contains(logpath, "control: 16 clients connected already; refused one more"));

	for (int i = 0; i < 16; i++) {
		read_all(fds[i], answer, sizeof(answer));
		ck_assert_msg(strncmp(answer, "ERROR timeout", 13) == 0, "idle client %d got '%s'", i, answer);
		close(fds[i]);
	}
	control("STATUS", 0, answer, sizeof(answer));
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "after the idle clients: %s", answer);
	host_stop(pid);
}
END_TEST

/*
 * Anybody may connect; the daemon refuses non-root peers by their
 * credentials, and sleebctl tells the user so (not "is sleebd running?").
 */
START_TEST(test_nonroot_refused_by_credentials)
{
	char answer[8192], sock[256];
	struct stat st;
	pid_t pid;

	make_tree(true);
	ck_assert_int_eq(chmod(root, 0755), 0);  /* mkdtemp's 0700 would stop nobody first */
	pid = start_daemon();
	snprintf(sock, sizeof(sock), "%s" SLEEB_CONTROL_SOCKET, root);
	ck_assert_int_eq(stat(sock, &st), 0);
	ck_assert_msg((st.st_mode & 0777) == 0666, "socket mode %o", st.st_mode & 0777);

	control("STATUS", 65534, answer, sizeof(answer));
	ck_assert_str_eq(answer, "ERROR " SLEEB_CONTROL_ROOT_ONLY "\n");
	control("RELOAD", 65534, answer, sizeof(answer));
	ck_assert_str_eq(answer, "ERROR " SLEEB_CONTROL_ROOT_ONLY "\n");
	ck_assert(file_contains(logpath, "control: refused client (uid 65534): root only"));

	child_uid = 65534;
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "status", "--config-root", root, NULL)), 1);
	child_uid = 0;
	ck_assert(file_contains(logpath, "sleebctl: sleebd: permission denied: root only\n"));
	ck_assert(!file_contains(logpath, "is sleebd running"));
	ck_assert(!file_contains(logpath, "Policy files"));

	/* root is still served */
	control("STATUS", 0, answer, sizeof(answer));
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "%s", answer);
	host_stop(pid);
}
END_TEST

/* A socket nobody may reach (a directory's mode, an older daemon's 0600)
 * is the same answer from sleebctl itself. */
START_TEST(test_nonroot_cannot_connect)
{
	pid_t pid;

	make_tree(true);
	ck_assert_int_eq(chmod(root, 0711), 0);
	pid = start_daemon();
	ck_assert_int_eq(chmod(root, 0700), 0);
	child_uid = 65534;
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "status", "--config-root", root, NULL)), 1);
	child_uid = 0;
	ck_assert_msg(file_contains(logpath, ": permission denied: root only\n"), "sleebctl said: %s",
		      strstr(test_read_file(logpath), "sleebctl:"));
	ck_assert(!file_contains(logpath, "is sleebd running"));
	host_stop(pid);
}
END_TEST

/* test_fake_slab_dir() without its mkdir -p per file: thousands of these. */
static void fake_cache_dir(const char *name)
{
	static const char *const attrs[][2] = {
		{ "object_size", "64\n" }, { "cpu_queue_size", "120\n" },
		{ "cpu_batch_size", "60\n" }, { "shared_queue_size", "480\n" },
	};
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/kernel/slab/%s", root, name);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/sys/kernel/slab/%s/%s", root, name, attrs[i][0]);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(attrs[i][1], f);
		fclose(f);
	}
}

/*
 * An answer larger than the socket buffer to a client slow to read it: the
 * rest is sent as the client reads, and others are answered meanwhile.
 */
START_TEST(test_big_answer_to_slow_reader)
{
	enum { N = 2500 };      /* ~140 bytes of status each: well over 200 KiB */
	static char answer[1 << 20];
	FILE *f;
	char path[256], small[8192];
	long long t0, t;
	int fd, lines = 0;
	pid_t pid;

	make_tree(true);
	snprintf(path, sizeof(path), "%s/proc/slabinfo", root);
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < N; i++) {
		char name[32];

		snprintf(name, sizeof(name), "c-%04d", i);
		fake_cache_dir(name);
		fprintf(f, "%-17s %6u %6u %6u %4u %4d : tunables %4u %4u %4u : slabdata %6u %6u %6u\n", name, 100u, 128u,
			64u, 16u, 1, 120u, 60u, 480u, 8u, 8u, 0u);
	}
	fclose(f);
	writef("etc/sleeb/sleebd.conf", "[Daemon]\nInterval=1h\n");
	writef("etc/sleeb/policy.d/20-c.conf", "[Cache]\nMatch=c-*\nCpuQueueSize=256\nCpuBatchSize=64\n");
	pid = start_daemon();
	ck_assert(wait_tunables("c-2499", 256, 64, 480));

	fd = connect_control();
	ck_assert_int_eq(write(fd, "STATUS\n", 7), 7);
	usleep(500000);         /* the daemon is stuck with most of the answer */
	/*
	 * Another client, with a command whose answer costs nothing to make:
	 * the slow reader has CONTROL_DEADLINE_SEC (2 s) from the start of
	 * its answer to take it all, and a second STATUS (2500 caches under
	 * ASan on a loaded 2-core host: up to 9 s) outlasted that, so the
	 * daemon rightly closed the slow reader with its answer half sent.
	 * A daemon stuck writing to the slow reader never answers: that one
	 * reads only after this, so the bound tells stuck from answered, not
	 * fast from slow (the whole answer arriving below says it was in time).
	 */
	t0 = now_ms();
	control("NOP", 0, small, sizeof(small));
	t = now_ms() - t0;
	ck_assert_msg(strcmp(small, "ERROR unknown command\n") == 0, "%s", small);
	ck_assert_msg(t < 30000, "another client answered after %lld ms", t);

	read_all(fd, answer, sizeof(answer));
	close(fd);
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "%.200s", answer);
	for (const char *p = answer; (p = strstr(p, "\nc-")); p++)
		lines++;
	ck_assert_msg(strlen(answer) > 300000, "only %zu bytes", strlen(answer));
	ck_assert_int_eq(lines, N);
	host_stop(pid);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_big_answer_to_slow_reader);
	tcase_add_test(tc, test_slow_client_does_not_stall);
	tcase_add_test(tc, test_client_cap);
	tcase_add_test(tc, test_nonroot_refused_by_credentials);
	tcase_add_test(tc, test_nonroot_cannot_connect);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-control", add_tests);
}
