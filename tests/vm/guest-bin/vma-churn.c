// SPDX-License-Identifier: GPL-2.0
/*
 * vma-churn STOPFILE: the address-space load of the vm-stress suite.
 *
 * The maple tree that holds a process's VMAs is the kernel's busiest user
 * of the paths queues change that sleeb_stress does not reach: its nodes
 * come from kmem_cache_alloc_bulk() and go back through RCU callbacks and
 * kmem_cache_free_bulk(), while page faults walk the tree locklessly under
 * RCU (lock_vma_under_rcu). A node handed out twice, or reused before its
 * grace period, shows up here as a fault loop, a crash or wrong data.
 *
 * Until STOPFILE exists, per online cpu:
 *   - a checker thread owns 64 private pages, writes a pattern (its id,
 *     the page, a round number) to each and reads every page back, about
 *     every millisecond;
 *   - a splitter thread flips random page ranges of all checkers' pages
 *     and of a shared scratch area between PROT_READ|PROT_WRITE and
 *     PROT_READ|PROT_WRITE|PROT_EXEC, so that VMAs split and merge
 *     constantly, and maps fresh scratch pages over old ones (MAP_FIXED)
 *     so that they fault in again;
 *   - a mapper thread maps and unmaps small regions and forks a child
 *     that touches its copy of the scratch area (dup_mmap copies the tree
 *     with bulk allocations) and exits.
 * Writes never meet a read-only page: both protections allow writing.
 * Prints TAP lines and exits 0 when every page read back as written.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PRIVATE_PAGES	64
#define SCRATCH_PAGES	256
#define MAX_CPUS	64

static size_t page;
static long ncpus;
static unsigned char *checker_area;	/* ncpus * PRIVATE_PAGES pages */
static unsigned char *scratch;		/* SCRATCH_PAGES pages */
static atomic_bool stop;
static atomic_ulong n_checks, n_protects, n_maps, n_forks, n_bad, n_errors;

static uint64_t next_random(uint64_t *state)
{
	/* xorshift64: enough to spread ranges, no need for quality. */
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static void error_once(const char *what)
{
	if (atomic_fetch_add(&n_errors, 1) < 5)
		printf("# %s: %s\n", what, strerror(errno));
}

static void *checker(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	unsigned char *mine = checker_area + id * PRIVATE_PAGES * page;
	uint64_t round = 0;

	while (!atomic_load(&stop)) {
		round++;
		for (size_t p = 0; p < PRIVATE_PAGES; p++) {
			uint64_t *w = (uint64_t *)(mine + p * page);

			w[0] = id;
			w[1] = p;
			w[2] = round;
		}
		for (size_t p = 0; p < PRIVATE_PAGES; p++) {
			uint64_t *w = (uint64_t *)(mine + p * page);

			if (w[0] != id || w[1] != p || w[2] != round) {
				if (atomic_fetch_add(&n_bad, 1) < 5)
					printf("# checker %lu page %zu: read %llu/%llu/%llu, wrote %lu/%zu/%llu\n",
					       (unsigned long)id, p, (unsigned long long)w[0],
					       (unsigned long long)w[1], (unsigned long long)w[2],
					       (unsigned long)id, p, (unsigned long long)round);
			}
		}
		atomic_fetch_add(&n_checks, 1);
		/* Leave the cpus to the threads that change the tree. */
		usleep(1000);
	}
	return NULL;
}

/* Flip the protection of a random range of @pages pages at @base. */
static void flip(unsigned char *base, size_t pages, uint64_t *rnd)
{
	size_t first = next_random(rnd) % pages;
	size_t len = 1 + next_random(rnd) % (pages - first < 8 ? pages - first : 8);
	int prot = PROT_READ | PROT_WRITE | ((next_random(rnd) & 1) ? PROT_EXEC : 0);

	if (mprotect(base + first * page, len * page, prot))
		error_once("mprotect");
	atomic_fetch_add(&n_protects, 1);
}

static void *splitter(void *arg)
{
	uint64_t rnd = 0x9e3779b97f4a7c15ull ^ (uintptr_t)arg;

	while (!atomic_load(&stop)) {
		flip(checker_area, ncpus * PRIVATE_PAGES, &rnd);
		flip(scratch, SCRATCH_PAGES, &rnd);
		if ((next_random(&rnd) & 7) == 0) {
			/* A fresh page in place: a new VMA, faulted in anew. */
			size_t first = next_random(&rnd) % SCRATCH_PAGES;

			if (mmap(scratch + first * page, page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
				error_once("mmap(MAP_FIXED)");
		}
	}
	return NULL;
}

static void touch_scratch(uint64_t *rnd, int n)
{
	for (int i = 0; i < n; i++)
		scratch[(next_random(rnd) % SCRATCH_PAGES) * page] ^= 1;
}

static void *mapper(void *arg)
{
	uint64_t rnd = 0xd1b54a32d192ed03ull ^ (uintptr_t)arg;

	while (!atomic_load(&stop)) {
		size_t len = (1 + next_random(&rnd) % 4) * page;
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			error_once("mmap");
			continue;
		}
		p[0] = 1;
		p[len - 1] = 2;
		touch_scratch(&rnd, 4);
		if (munmap(p, len))
			error_once("munmap");
		atomic_fetch_add(&n_maps, 1);
		if ((next_random(&rnd) & 63) == 0) {
			pid_t child = fork();

			if (child == 0) {
				touch_scratch(&rnd, 16);
				_exit(0);
			}
			if (child < 0)
				error_once("fork");
			else if (waitpid(child, NULL, 0) < 0)
				error_once("waitpid");
			else
				atomic_fetch_add(&n_forks, 1);
		}
	}
	return NULL;
}

static unsigned char *map_pages(size_t pages)
{
	void *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("vma-churn: mmap");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	void *(*const fn[3])(void *) = { checker, splitter, mapper };
	pthread_t threads[3 * MAX_CPUS];
	const char *stop_file;
	int nthreads = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: vma-churn STOPFILE\n");
		return 2;
	}
	stop_file = argv[1];
	page = (size_t)sysconf(_SC_PAGESIZE);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	checker_area = map_pages(ncpus * PRIVATE_PAGES);
	scratch = map_pages(SCRATCH_PAGES);

	for (long i = 0; i < ncpus && !atomic_load(&stop); i++) {
		for (int k = 0; k < 3; k++) {
			int err = pthread_create(&threads[nthreads], NULL, fn[k],
						 (void *)(uintptr_t)i);

			if (err) {
				fprintf(stderr, "vma-churn: pthread_create: %s\n", strerror(err));
				atomic_store(&stop, true);
				break;
			}
			nthreads++;
		}
	}
	while (!atomic_load(&stop) && access(stop_file, F_OK) != 0)
		usleep(100 * 1000);
	atomic_store(&stop, true);
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);

	printf("# vma-churn: %lu page checks, %lu mprotects, %lu maps, %lu forks\n",
	       atomic_load(&n_checks), atomic_load(&n_protects), atomic_load(&n_maps),
	       atomic_load(&n_forks));
	printf("%sok - vma-churn: every page read back as written\n",
	       atomic_load(&n_bad) ? "not " : "");
	printf("%sok - vma-churn: no mapping call failed\n",
	       atomic_load(&n_errors) ? "not " : "");
	printf("%sok - vma-churn: started 3 threads for each of %ld cpus\n",
	       nthreads == 3 * ncpus ? "" : "not ", ncpus);
	return atomic_load(&n_bad) || atomic_load(&n_errors) || nthreads != 3 * ncpus;
}
