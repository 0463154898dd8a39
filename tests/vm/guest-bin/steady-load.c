// SPDX-License-Identifier: GPL-2.0
/*
 * steady-load RATE SECONDS FROM_CPU TO_CPU: a steady slab load for the
 * auto-tuning tests (vm-daemon 65-autotune-steady.sh).
 *
 * A writer process on FROM_CPU sends RATE small messages a second over an
 * AF_UNIX socketpair to a reader process on TO_CPU, for SECONDS seconds.
 * Every message is one sk_buff (SOCK_SEQPACKET: one per send): its head
 * comes from skbuff_head_cache on the writer's cpu and goes back on the
 * reader's, so that cache's cpu queues see a constant flow allocated on
 * one cpu and freed on another (refills on one side, drains on the other)
 * however large the queues are. hackbench does the same at full speed,
 * which under TCG starves everything else in the guest; here the load is
 * paced (one burst every 10 ms) so the daemon under test and the shell
 * that watches it keep their share, and the rate is the same from the
 * first second to the last.
 *
 * SIGTERM ends it early, as the end of SECONDS does. Prints "steady-load:
 * sent N messages in S s (R/s)" at the end and exits 0, or says what
 * failed and exits 1.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TICK_NSEC 10000000L	/* one burst every 10 ms */
#define MSG_SIZE 64		/* small: the skb head is the object that counts */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static long parse(const char *s, const char *what, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max) {
		fprintf(stderr, "steady-load: %s '%s' is not a number in 0..%ld\n", what, s, max);
		exit(2);
	}
	return v;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fprintf(stderr, "steady-load: cannot pin to cpu %d: %s\n", cpu, strerror(errno));
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void reader(int fd, int cpu)
{
	char buf[MSG_SIZE];

	pin(cpu);
	/* Until the writer closes its end: recv() then returns 0. */
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n == 0)
			_exit(0);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "steady-load: recv: %s\n", strerror(errno));
			_exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	long rate, seconds, per_tick, sent = 0;
	int sv[2], from, to, status;
	struct timespec next;
	char msg[MSG_SIZE];
	double start, end;
	pid_t pid;

	if (argc != 5) {
		fprintf(stderr, "usage: steady-load RATE SECONDS FROM_CPU TO_CPU\n");
		return 2;
	}
	rate = parse(argv[1], "RATE", 1000000);
	seconds = parse(argv[2], "SECONDS", 86400);
	from = (int)parse(argv[3], "FROM_CPU", CPU_SETSIZE - 1);
	to = (int)parse(argv[4], "TO_CPU", CPU_SETSIZE - 1);
	per_tick = rate / (1000000000L / TICK_NSEC);
	if (per_tick < 1)
		per_tick = 1;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0) {
		fprintf(stderr, "steady-load: socketpair: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "steady-load: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(sv[0]);
		reader(sv[1], to);
	}
	close(sv[1]);
	pin(from);
	signal(SIGTERM, on_term);
	memset(msg, 0x5a, sizeof(msg));

	start = now();
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop && now() - start < seconds) {
		for (long i = 0; i < per_tick; i++) {
			if (send(sv[0], msg, sizeof(msg), 0) < 0) {
				if (errno == EINTR) {
					if (stop)
						break;
					continue;
				}
				fprintf(stderr, "steady-load: send: %s\n", strerror(errno));
				kill(pid, SIGKILL);
				return 1;
			}
			sent++;
		}
		next.tv_nsec += TICK_NSEC;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		/* Late by more than a tick (the emulator stalled): start the
		 * schedule again from now rather than send a catch-up burst,
		 * which would not be a steady load. */
		{
			struct timespec t;

			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((t.tv_sec - next.tv_sec) * 1000000000L + (t.tv_nsec - next.tv_nsec) > TICK_NSEC)
				next = t;
		}
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	end = now();
	close(sv[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "steady-load: the reader failed\n");
		return 1;
	}
	printf("steady-load: sent %ld messages in %.1f s (%.0f/s)\n", sent, end - start, sent / (end - start));
	return 0;
}
