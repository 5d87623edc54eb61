// SPDX-License-Identifier: GPL-2.0
/*
 * CPU samples: a PerfSample packet per sample, its callstack interned on
 * the sample sequence (function names, mappings with their build ids and
 * paths, frames, callstacks root first). Frames that do not resolve keep
 * their module or binary and offset as the name, never a blank. Interned
 * tables grow with distinct stacks only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/convert.h"
#include "util/hash.h"
#include "util/str-intern.h"
#include "util/u64-map.h"

/*
 * What makes a frame: a kernel address; or a file and an offset in it; or
 * an address in no known mapping.
 */
enum frame_kind { FK_KERNEL = 1, FK_FILE, FK_UNMAPPED };

struct frame_key {
	struct frame_key *next;	/* same hash */
	uint64_t kind, file, addr, iid;
};

struct stack_key {
	struct stack_key *next;	/* same hash */
	uint64_t iid;
	uint32_t n;
	uint64_t frames[];
};

/* What a packet must define before its sample can refer to it. */
struct pending {
	Perfetto__Protos__InternedString *names, *paths, *ids;
	Perfetto__Protos__Mapping *maps;
	Perfetto__Protos__Frame *frames;
	Perfetto__Protos__Callstack *stacks;
	size_t nnames, npaths, nids, nmaps, nframes, nstacks;
	uint64_t *frame_ids;	/* storage for the one new callstack */
	void **owned;		/* memory to free after the packet */
	size_t nowned;
};

struct pf_samples {
	struct convert_ctx *c;
	struct str_intern names;	/* function names: iid = id + 1 */
	struct str_intern mappings;	/* mapping keys: iid = id + 1 */
	struct u64_map frames;		/* hash -> struct frame_key chain */
	uint64_t next_frame_iid;
	struct u64_map stacks;		/* hash -> struct stack_key chain */
	uint64_t next_stack_iid;
	uint64_t next_string_iid;	/* paths and build ids */
	int started;
	struct pending pend;
};

#define MAX_FRAMES (2 * KTP_MAX_FRAMES)

static int pending_alloc(struct pending *p)
{
	p->names = calloc(MAX_FRAMES, sizeof(*p->names));
	p->paths = calloc(MAX_FRAMES, sizeof(*p->paths));
	p->ids = calloc(MAX_FRAMES, sizeof(*p->ids));
	p->maps = calloc(MAX_FRAMES, sizeof(*p->maps));
	p->frames = calloc(MAX_FRAMES, sizeof(*p->frames));
	p->stacks = calloc(1, sizeof(*p->stacks));
	p->frame_ids = calloc(MAX_FRAMES, sizeof(*p->frame_ids));
	p->owned = calloc(4 * MAX_FRAMES, sizeof(*p->owned));
	return p->names && p->paths && p->ids && p->maps && p->frames &&
	       p->stacks && p->frame_ids && p->owned ? 0 : -ENOMEM;
}

static void pending_free(struct pending *p)
{
	free(p->names);
	free(p->paths);
	free(p->ids);
	free(p->maps);
	free(p->frames);
	free(p->stacks);
	free(p->frame_ids);
	free(p->owned);
}

static void *samples_create(struct convert_ctx *c)
{
	struct pf_samples *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	str_intern_init(&s->names);
	str_intern_init(&s->mappings);
	u64_map_init(&s->frames);
	u64_map_init(&s->stacks);
	if (pending_alloc(&s->pend)) {
		pending_free(&s->pend);
		free(s);
		return NULL;
	}
	return s;
}

static Perfetto__Protos__InternedString *new_string(struct pf_samples *s,
						    Perfetto__Protos__InternedString *v,
						    size_t *n, uint64_t iid,
						    const void *data, size_t len)
{
	Perfetto__Protos__InternedString *is = &v[(*n)++];

	perfetto__protos__interned_string__init(is);
	is->has_iid = is->has_str = 1;
	is->iid = iid;
	is->str.data = (uint8_t *)data;
	is->str.len = len;
	(void)s;
	return is;
}

/* Keep @mem until the packet is written. */
static void *own(struct pf_samples *s, void *mem)
{
	if (mem)
		s->pend.owned[s->pend.nowned++] = mem;
	return mem;
}

/* The mapping iid of a frame: per module, or per binary file. */
static int mapping_iid(struct pf_samples *s, const struct frame *f, uint64_t *iid)
{
	struct pending *p = &s->pend;
	Perfetto__Protos__Mapping *m;
	char key[64];
	const char *path;
	uint32_t id;
	int is_new, ret;

	if (f->kernel)
		snprintf(key, sizeof(key), "k:%s", f->object);
	else if (f->mapped)
		snprintf(key, sizeof(key), "u:%" PRIx64, f->file_key);
	else
		snprintf(key, sizeof(key), "u:?");
	ret = str_intern(&s->mappings, key, &id, &is_new);
	if (ret)
		return ret;
	*iid = id + 1;
	if (!is_new)
		return 0;
	m = &p->maps[p->nmaps++];
	perfetto__protos__mapping__init(m);
	m->has_iid = 1;
	m->iid = *iid;
	path = f->kernel ? (strcmp(f->object, "[kernel]") ? f->object : "[kernel.kallsyms]") :
		f->mapped ? f->path : "[unknown]";
	m->n_path_string_ids = 1;
	m->path_string_ids = own(s, malloc(sizeof(uint64_t)));
	if (!m->path_string_ids)
		return -ENOMEM;
	m->path_string_ids[0] = ++s->next_string_iid;
	new_string(s, p->paths, &p->npaths, s->next_string_iid,
		   own(s, strdup(path)), strlen(path));
	if (!f->kernel && f->mapped && f->build_id_len) {
		char *hex = own(s, malloc(2 * f->build_id_len + 1));
		unsigned int i;

		if (!hex)
			return -ENOMEM;
		for (i = 0; i < f->build_id_len; i++)
			snprintf(hex + 2 * i, 3, "%02x", f->build_id[i]);
		m->has_build_id = 1;
		m->build_id = ++s->next_string_iid;
		new_string(s, p->ids, &p->nids, m->build_id, hex, 2 * f->build_id_len);
	}
	return 0;
}

static struct frame_key *find_frame(struct pf_samples *s, uint64_t h, uint64_t kind,
				    uint64_t file, uint64_t addr)
{
	struct frame_key *k;

	for (k = u64_map_get(&s->frames, h); k; k = k->next)
		if (k->kind == kind && k->file == file && k->addr == addr)
			return k;
	return NULL;
}

/* The frame iid of one address; kernel frames are found before symbolizing. */
static int frame_iid(struct pf_samples *s, uint32_t pid, uint64_t ip, int kernel,
		     uint64_t *iid)
{
	struct pending *p = &s->pend;
	uint64_t kind, file = 0, addr = ip, map, h;
	Perfetto__Protos__Frame *fr;
	struct frame_key *k;
	char name[512];
	struct frame f;
	uint32_t nid;
	int ret, is_new;

	if (kernel) {
		kind = FK_KERNEL;
	} else {
		symbolizer_frame(s->c->model->sym, pid, ip, 0, &f);
		kind = f.mapped ? FK_FILE : FK_UNMAPPED;
		if (f.mapped) {
			file = f.file_key;
			addr = f.file_offset;
		}
	}
	h = hash_fnv1a(&addr, sizeof(addr), hash_fnv1a(&file, sizeof(file), kind));
	k = find_frame(s, h, kind, file, addr);
	if (k) {
		*iid = k->iid;
		return 0;
	}
	if (kernel)
		symbolizer_frame(s->c->model->sym, pid, ip, 1, &f);
	ret = mapping_iid(s, &f, &map);
	if (ret)
		return ret;
	if (s->c->opt.symbols && f.resolved)
		frame_str(&f, 0, name, sizeof(name));
	else if (f.kernel)
		snprintf(name, sizeof(name), "[%s]+0x%" PRIx64,
			 f.object[0] == '[' ? "kernel" : f.object, ip);
	else
		snprintf(name, sizeof(name), f.object[0] == '[' ? "%s+0x%" PRIx64 :
			 "[%s]+0x%" PRIx64, f.object, f.mapped ? f.file_offset : ip);
	ret = str_intern(&s->names, name, &nid, &is_new);
	if (ret)
		return ret;
	if (is_new)
		new_string(s, p->names, &p->nnames, nid + 1, str_intern_get(&s->names, nid),
			   strlen(str_intern_get(&s->names, nid)));
	k = malloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	*k = (struct frame_key){ u64_map_get(&s->frames, h), kind, file, addr,
				 ++s->next_frame_iid };
	if (u64_map_put(&s->frames, h, k)) {
		free(k);
		return -ENOMEM;
	}
	*iid = k->iid;
	fr = &p->frames[p->nframes++];
	perfetto__protos__frame__init(fr);
	fr->has_iid = fr->has_function_name_id = fr->has_mapping_id = fr->has_rel_pc = 1;
	fr->iid = *iid;
	fr->function_name_id = nid + 1;
	fr->mapping_id = map;
	fr->rel_pc = addr;
	return 0;
}

static int stack_iid(struct pf_samples *s, const uint64_t *frames, uint32_t n,
		     uint64_t *iid)
{
	uint64_t h = hash_fnv1a(frames, n * sizeof(*frames), HASH_FNV1A_SEED);
	struct stack_key *head = u64_map_get(&s->stacks, h), *k;
	Perfetto__Protos__Callstack *cs;

	for (k = head; k; k = k->next) {
		if (k->n == n && !memcmp(k->frames, frames, n * sizeof(*frames))) {
			*iid = k->iid;
			return 0;
		}
	}
	k = malloc(sizeof(*k) + n * sizeof(*frames));
	if (!k)
		return -ENOMEM;
	k->next = head;
	k->iid = ++s->next_stack_iid;
	k->n = n;
	memcpy(k->frames, frames, n * sizeof(*frames));
	if (u64_map_put(&s->stacks, h, k)) {
		free(k);
		return -ENOMEM;
	}
	*iid = k->iid;
	cs = &s->pend.stacks[s->pend.nstacks++];
	perfetto__protos__callstack__init(cs);
	cs->has_iid = 1;
	cs->iid = k->iid;
	memcpy(s->pend.frame_ids, frames, n * sizeof(*frames));
	cs->frame_ids = s->pend.frame_ids;
	cs->n_frame_ids = n;
	return 0;
}

static void pending_reset(struct pending *p)
{
	size_t i;

	for (i = 0; i < p->nowned; i++)
		free(p->owned[i]);
	p->nnames = p->npaths = p->nids = p->nmaps = p->nframes = p->nstacks = 0;
	p->nowned = 0;
}

/*
 * Sample @ev (its record @r) as a packet, with the names, frames and stacks
 * it interned; apart from samples_event() so that the other events skip
 * this set-up of protobuf-c messages.
 */
static int write_sample(struct pf_samples *s, const struct event *ev, const struct ktp_sample *r)
{
	struct pending *p = &s->pend;
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__PerfSample ps = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
	Perfetto__Protos__InternedData id = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__InternedString *namep[MAX_FRAMES], *pathp[MAX_FRAMES], *idp[MAX_FRAMES];
	Perfetto__Protos__Mapping *mapp[MAX_FRAMES];
	Perfetto__Protos__Frame *framep[MAX_FRAMES];
	Perfetto__Protos__Callstack *stackp[1];
	const uint8_t *ips = (const uint8_t *)ev->rec + sizeof(struct ktp_sample);
	uint64_t frames[MAX_FRAMES], ip, callstack = 0;
	uint32_t n = 0, i;
	int ret = 0;

	/* Root first: the user stack's outermost frame down to the kernel leaf. */
	for (i = r->nr_user; !ret && i-- > 0;) {
		memcpy(&ip, ips + 8 * (r->nr_kernel + i), 8);
		ret = frame_iid(s, r->pid, ip, 0, &frames[n++]);
	}
	for (i = r->nr_kernel; !ret && i-- > 0;) {
		memcpy(&ip, ips + 8 * i, 8);
		ret = frame_iid(s, r->pid, ip, 1, &frames[n++]);
	}
	if (!ret && n)
		ret = stack_iid(s, frames, n, &callstack);
	if (ret)
		goto out;
	for (i = 0; i < p->nnames; i++)
		namep[i] = &p->names[i];
	for (i = 0; i < p->npaths; i++)
		pathp[i] = &p->paths[i];
	for (i = 0; i < p->nids; i++)
		idp[i] = &p->ids[i];
	for (i = 0; i < p->nmaps; i++)
		mapp[i] = &p->maps[i];
	for (i = 0; i < p->nframes; i++)
		framep[i] = &p->frames[i];
	stackp[0] = p->stacks;
	id.n_function_names = p->nnames;
	id.function_names = namep;
	id.n_mapping_paths = p->npaths;
	id.mapping_paths = pathp;
	id.n_build_ids = p->nids;
	id.build_ids = idp;
	id.n_mappings = p->nmaps;
	id.mappings = mapp;
	id.n_frames = p->nframes;
	id.frames = framep;
	id.n_callstacks = p->nstacks;
	id.callstacks = stackp;

	pkt.has_timestamp = 1;
	pkt.timestamp = r->ts;
	pkt.has_trusted_packet_sequence_id = pkt.has_sequence_flags = 1;
	pkt.trusted_packet_sequence_id = PF_SEQ_SAMPLES;
	pkt.sequence_flags = PF_SEQ_NEEDS_INCREMENTAL_STATE |
			     (s->started ? 0 : PF_SEQ_INCREMENTAL_STATE_CLEARED);
	s->started = 1;
	if (p->nnames || p->npaths || p->nmaps || p->nframes || p->nstacks)
		pkt.interned_data = &id;
	ps.has_cpu = ps.has_pid = ps.has_tid = ps.has_cpu_mode = 1;
	ps.cpu = ev->cpu;
	ps.pid = r->pid;
	ps.tid = r->tid;
	ps.cpu_mode = ev->flags & KTP_SAMPLE_USER ? 2 : 1;
	if (callstack) {
		ps.has_callstack_iid = 1;
		ps.callstack_iid = callstack;
	}
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
	pkt.perf_sample = &ps;
	ret = pf_out_packet(s->c->out, &pkt);
out:
	pending_reset(p);
	return ret;
}

static int samples_event(void *view, const struct event *ev)
{
	struct pf_samples *s = view;
	struct ktp_sample r;

	if (ev->type != KTP_REC_SAMPLE)
		return 0;
	memcpy(&r, ev->rec, sizeof(r));
	if (!convert_selected(s->c, r.tid) || !model_in_window(s->c->model, r.ts))
		return 0;
	return write_sample(s, ev, &r);
}

static int samples_finish(void *view)
{
	(void)view;
	return 0;
}

static void samples_destroy(void *view)
{
	struct pf_samples *s = view;
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!s)
		return;
	while (u64_map_next(&s->stacks, &i, &k, &v)) {
		struct stack_key *sk = v;

		while (sk) {
			struct stack_key *next = sk->next;

			free(sk);
			sk = next;
		}
	}
	u64_map_fini(&s->stacks);
	i = 0;
	while (u64_map_next(&s->frames, &i, &k, &v)) {
		struct frame_key *fk = v;

		while (fk) {
			struct frame_key *next = fk->next;

			free(fk);
			fk = next;
		}
	}
	u64_map_fini(&s->frames);
	str_intern_fini(&s->names);
	str_intern_fini(&s->mappings);
	pending_reset(&s->pend);
	pending_free(&s->pend);
	free(s);
}

const struct convert_view pf_samples_view = {
	.name = "samples",
	.create = samples_create,
	.event = samples_event,
	.finish = samples_finish,
	.destroy = samples_destroy,
};
