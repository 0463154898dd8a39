/* SPDX-License-Identifier: GPL-2.0-only */
/* Forgetting learned sizes (sleeb/learned-forget.h). */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/learned-forget.h"

/* The index of key in s, or s->n. */
static size_t index_of(const struct sleeb_state *s, const char *key)
{
	size_t i = 0;

	while (i < s->n && strcmp(s->entries[i].cache, key) != 0)
		i++;
	return i;
}

const char *sleeb_learned_key(const struct sleeb_state *s, const struct sleeb_sysfs_list *l, const char *name)
{
	const struct sleeb_state_entry *e = sleeb_state_find(s, name);
	const char *id;

	if (e)
		return e->cache;
	id = l ? sleeb_sysfs_list_id(l, name) : NULL;
	e = id ? sleeb_state_find(s, id) : NULL;
	return e ? e->cache : NULL;
}

/* Marks the entries the names ask for in drop[]; -ENOENT for the first
 * name without one. */
static int mark(const struct sleeb_state *s, const struct sleeb_sysfs_list *l, char *const *names, size_t n,
		bool *drop, struct sleeb_error *err)
{
	for (size_t i = 0; i < s->n && n == 0; i++)
		drop[i] = true;
	for (size_t i = 0; i < n; i++) {
		const char *key = sleeb_learned_key(s, l, names[i]);

		if (key) {
			drop[index_of(s, key)] = true;
			continue;
		}
		/* A cache that exists but never learned a size is not a typo:
		 * say which of the two it is. */
		if (l && sleeb_sysfs_list_id(l, names[i]))
			return sleeb_error_set(err, ENOENT, "%s: no learned size (%zu cache%s %s one); nothing forgotten",
					       names[i], s->n, s->n == 1 ? "" : "s", s->n == 1 ? "has" : "have");
		return sleeb_error_set(err, ENOENT, "%s: no such cache, and no learned size under that name; nothing "
				       "forgotten", names[i]);
	}
	return 0;
}

int sleeb_learned_forget(struct sleeb_state *s, const struct sleeb_sysfs_list *l, char *const *names, size_t n,
			 struct sleeb_state *dropped, struct sleeb_error *err)
{
	/* Both lists borrow s's strings until the save has succeeded. */
	struct sleeb_state keep = { .path = s->path, .header = s->header }, gone = { 0 };
	bool *drop = calloc(s->n + 1, sizeof(*drop));
	int r;

	if (dropped)
		*dropped = (struct sleeb_state) { 0 };

	keep.entries = calloc(s->n + 1, sizeof(*keep.entries));
	gone.entries = calloc(s->n + 1, sizeof(*gone.entries));
	if (!drop || !keep.entries || !gone.entries) {
		r = sleeb_error_set(err, ENOMEM, "%s: out of memory", s->path);
		goto out;
	}
	r = mark(s, l, names, n, drop, err);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < s->n; i++) {
		if (drop[i])
			gone.entries[gone.n++] = s->entries[i];
		else
			keep.entries[keep.n++] = s->entries[i];
	}
	/* Nothing to drop: the file stays as it is, byte for byte. */
	if (gone.n > 0) {
		r = sleeb_state_save(&keep, err);
		if (r < 0)
			goto out;
	}
	free(s->entries);
	s->entries = keep.entries;
	s->n = keep.n;
	keep.entries = NULL;
	if (dropped) {
		*dropped = gone;
		gone.entries = NULL;
	} else
		for (size_t i = 0; i < gone.n; i++)
			free(gone.entries[i].cache);
	r = (int) (dropped ? dropped->n : gone.n);
out:
	free(keep.entries);
	free(gone.entries);
	free(drop);
	return r;
}

char *sleeb_learned_forgot_text(const struct sleeb_state *dropped)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (dropped->n == 0)
		fputs("no learned sizes to forget\n", f);
	for (size_t i = 0; i < dropped->n; i++) {
		const struct sleeb_tunables *v = &dropped->entries[i].orig;

		fprintf(f, "forgot %s: queue %u batch %u shared %u\n", dropped->entries[i].cache,
			v->v[SLEEB_TUNABLE_QUEUE], v->v[SLEEB_TUNABLE_BATCH], v->v[SLEEB_TUNABLE_SHARED]);
	}
	/* What the user would otherwise have to guess: nothing is written
	 * to the kernel by forgetting. */
	if (dropped->n > 0)
		fprintf(f, "%s current size%s left as %s; sleebd starts %s from the policy from now on\n",
			dropped->n == 1 ? "its" : "their", dropped->n == 1 ? "" : "s", dropped->n == 1 ? "it is" : "they are",
			dropped->n == 1 ? "it" : "them");
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
