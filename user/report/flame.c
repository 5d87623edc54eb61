// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame.h"
#include "report/render.h"
#include "util/hash.h"

#define FLAME_ROW 16

void flame_init(struct flame *t, unsigned int max_depth)
{
	memset(t, 0, sizeof(*t));
	t->max_depth = max_depth;
	u64_map_init(&t->children);
}

static void nodes_free(struct flame_node *n)
{
	while (n) {
		struct flame_node *next = n->next;

		nodes_free(n->child);
		free(n);
		n = next;
	}
}

void flame_fini(struct flame *t)
{
	nodes_free(t->root.child);
	u64_map_fini(&t->children);
	memset(t, 0, sizeof(*t));
}

static uint64_t child_key(const struct flame_node *parent, const char *name, uint32_t tgid)
{
	const void *k[3] = { parent, name, (const void *)(uintptr_t)tgid };

	return hash_fnv1a(k, sizeof(k), HASH_FNV1A_SEED);
}

/*
 * The child @name (@tgid) of @n, made if new. Found by hash, not by
 * walking the siblings: the root has a child per process, tens of
 * thousands on a busy build host.
 */
static struct flame_node *child(struct flame *t, struct flame_node *n, const char *name,
				uint32_t tgid)
{
	uint64_t key = child_key(n, name, tgid);
	struct flame_node *c = u64_map_get(&t->children, key);

	if (c && c->parent == n && c->name == name && c->tgid == tgid)
		return c;
	if (c) {
		/* Another node of the same hash: the siblings, rarely. */
		for (c = n->child; c; c = c->next)
			if (c->name == name && c->tgid == tgid)
				return c;
	}
	c = calloc(1, sizeof(*c));
	if (!c || (!u64_map_get(&t->children, key) && u64_map_put(&t->children, key, c))) {
		free(c);
		t->nomem = 1;
		return NULL;
	}
	c->name = name;
	c->tgid = tgid;
	c->parent = n;
	c->next = n->child;
	n->child = c;
	return c;
}

int flame_add(struct flame *t, uint32_t tgid, const char *const *frames, uint32_t n,
	      uint64_t weight)
{
	struct flame_node *node = &t->root;
	uint32_t i;

	node->count += weight;
	node = child(t, node, NULL, tgid);
	for (i = 0; node && i < n && i < t->max_depth; i++) {
		node->count += weight;
		node = child(t, node, frames[i], 0);
	}
	if (node)
		node->count += weight;
	if (i + 1 > t->depth)
		t->depth = i + 1;
	return t->nomem ? -ENOMEM : 0;
}

static void draw(FILE *f, const struct flame *t, const struct flame_style *s,
		 const struct flame_node *n, double x, double scale, unsigned int depth,
		 double bottom)
{
	const struct flame_node *c;
	char proc[32], label[160], weight[48];
	const char *name;
	double w = n->count * scale;
	uint64_t h;

	if (w < 0.4)
		return;
	if (depth) {
		name = n->name ? n->name : s->process(s->ctx, n->tgid, proc, sizeof(proc));
		h = hash_fnv1a(name, strlen(name), HASH_FNV1A_SEED);
		fprintf(f, "<g><title>");
		html_esc(f, name);
		fprintf(f, " (%s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.1f\" "
			"width=\"%.2f\" height=\"%d\" fill=\"hsl(%u,75%%,%u%%)\" rx=\"1\"/>",
			s->weight(n->count, weight, sizeof(weight)),
			render_pct(n->count, t->root.count), x,
			bottom - depth * FLAME_ROW, w - 0.3, FLAME_ROW - 1,
			(unsigned int)(h % 40 + 10), (unsigned int)(h / 40 % 15 + 55));
		if (w > 30) {
			snprintf(label, sizeof(label), "%.*s", (int)(w / 6.2), name);
			fprintf(f, "<text class=\"flame\" x=\"%.1f\" y=\"%.1f\">", x + 3,
				bottom - depth * FLAME_ROW + 11);
			html_esc(f, label);
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
	}
	for (c = n->child; c; c = c->next) {
		draw(f, t, s, c, x, scale, depth + 1, bottom);
		x += c->count * scale;
	}
}

void flame_html(FILE *f, const struct flame *t, const struct flame_style *s)
{
	double height;

	if (!t->root.count)
		return;
	height = (t->depth + 2) * FLAME_ROW + 40;
	html_figure_open(f, s->id, HTML_W, (int)height, s->label);
	draw(f, t, s, &t->root, 10, (HTML_W - 20.0) / t->root.count, 0, height - 30);
	svg_text(f, HTML_W / 2, height - 8, "middle", "title", s->axis);
	html_figure_close(f, s->caption);
}
