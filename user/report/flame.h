/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flame graph: stacks merged into a tree, below the root a node per
 * process, then the frames root first, each as wide as the weight under
 * it (samples, nanoseconds off the CPU); drawn as an HTML figure.
 */
#ifndef KTPROF_FLAME_H
#define KTPROF_FLAME_H

#include <stdint.h>
#include <stdio.h>

#include "util/u64-map.h"

struct flame_node {
	const char *name;	/* NULL: the process level */
	uint32_t tgid;
	uint64_t count;		/* the weight under it */
	struct flame_node *child, *next, *parent;
};

struct flame {
	struct flame_node root;
	unsigned int max_depth, depth;
	int nomem;
	struct u64_map children;	/* hash of (parent, name, tgid) -> a node */
};

void flame_init(struct flame *t, unsigned int max_depth);
void flame_fini(struct flame *t);

/*
 * Add a stack of process @tgid: @frames root first, names interned (equal
 * names are the same pointer); frames past max_depth are cut. 0, -ENOMEM.
 */
int flame_add(struct flame *t, uint32_t tgid, const char *const *frames, uint32_t n,
	      uint64_t weight);

/* How the figure reads: its process boxes' names, its weights, its words. */
struct flame_style {
	const char *(*process)(void *ctx, uint32_t tgid, char *buf, size_t len);
	void *ctx;
	const char *(*weight)(uint64_t w, char *buf, size_t len);	/* "12 samples" */
	const char *id, *label, *axis, *caption;
};

/* The tree as an HTML figure (nothing when it weighs nothing). */
void flame_html(FILE *f, const struct flame *t, const struct flame_style *s);

#endif
