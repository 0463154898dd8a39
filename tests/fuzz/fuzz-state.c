/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for the rollback state file parser (lib/state.c), the
 * file sleebd trusts at start to restore the kernel's originals. Any input
 * loads (only running out of memory fails), each skipped line said once as
 * "path:line: ..."; what loads holds only storable names, once each, with
 * values the kernel can be in, and survives a save and a second load
 * unchanged: a state that does not round-trip loses originals.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleeb/ini.h"
#include "sleeb/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char saved[128];

static void setup_once(void)
{
	if (dir[0])
		return;
	/* tmpfs where there is one: the round trip fsyncs every input. */
	snprintf(dir, sizeof(dir), "%s/sleeb-fuzz-state-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(saved, sizeof(saved), "%s/state", dir);
}

static int same(const struct sleeb_state *a, const struct sleeb_state *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct sleeb_state_entry *e = sleeb_state_find(b, a->entries[i].cache);

		if (!e || memcmp(&e->orig, &a->entries[i].orig, sizeof(e->orig)) != 0)
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sleeb_state s, t;
	struct sleeb_diag w = { 0 };
	struct sleeb_error err = { 0 };
	char path[64];
	int fd, r;

	setup_once();
	/* The parser reads a path: give it the input through a memfd. */
	fd = memfd_create("state", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	/* A memfd is 0777, and a load refuses a file others may write. */
	if (fchmod(fd, 0600) < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	r = sleeb_state_load(&s, path, &w, &err);
	close(fd);
	if (r < 0) {
		if (r != -ENOMEM)
			abort();
		sleeb_diag_done(&w);
		sleeb_state_done(&s);
		return 0;
	}
	/* One warning per skipped line, "path:line: what", the line a
	 * number from 1 on. */
	if (w.n != (size_t) r)
		abort();
	for (size_t i = 0; i < w.n; i++) {
		const char *p = w.msgs[i] + strlen(path);

		if (strncmp(w.msgs[i], path, strlen(path)) != 0 || p[0] != ':' || p[1] < '1' || p[1] > '9')
			abort();
	}
	sleeb_diag_done(&w);
	for (size_t i = 0; i < s.n; i++)
		if (sleeb_tunables_validate(&s.entries[i].orig, NULL) < 0)
			abort();

	/* Names: storable (remember() accepts them again), no duplicates. */
	for (size_t i = 0; i < s.n; i++) {
		struct sleeb_state probe = { 0 };

		if (sleeb_state_find(&s, s.entries[i].cache) != &s.entries[i])
			abort();
		if (sleeb_state_remember(&probe, s.entries[i].cache, &s.entries[i].orig) != 1)
			abort();
		sleeb_state_done(&probe);
	}

	/* Save under another path and read it back: the same entries. */
	free(s.path);
	s.path = strdup(saved);
	if (!s.path)
		abort();
	if (sleeb_state_save(&s, &err) < 0)
		abort();
	if (sleeb_state_load(&t, saved, NULL, &err) != 0 || !same(&s, &t))
		abort();
	sleeb_state_done(&t);
	sleeb_state_done(&s);
	return 0;
}
