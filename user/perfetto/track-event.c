// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>

#include "perfetto.pb-c.h"
#include "perfetto/pb.h"
#include "perfetto/track-event.h"

/* Field numbers, read once from the generated descriptors. */
static struct {
	uint32_t pkt_ts, pkt_seq, pkt_flags, pkt_track_event;
	uint32_t ev_ann, ev_type, ev_name_iid, ev_track, ev_name, ev_flows, ev_term, ev_stack;
	uint32_t ev_counter;
	uint32_t cs_frames, fr_name;
	uint32_t an_name_iid, an_bool, an_uint, an_int, an_str, an_name;
} fn;
static pthread_once_t fn_once = PTHREAD_ONCE_INIT;

static void resolve_fields(void)
{
	const ProtobufCMessageDescriptor *p = &perfetto__protos__trace_packet__descriptor;
	const ProtobufCMessageDescriptor *e = &perfetto__protos__track_event__descriptor;
	const ProtobufCMessageDescriptor *a = &perfetto__protos__debug_annotation__descriptor;
	const ProtobufCMessageDescriptor *cs = &perfetto__protos__inline_callstack__descriptor;
	const ProtobufCMessageDescriptor *fr = &perfetto__protos__inline_callstack__frame__descriptor;

	fn.pkt_ts = pb_field_number(p, "timestamp");
	fn.pkt_seq = pb_field_number(p, "trusted_packet_sequence_id");
	fn.pkt_flags = pb_field_number(p, "sequence_flags");
	fn.pkt_track_event = pb_field_number(p, "track_event");
	fn.ev_ann = pb_field_number(e, "debug_annotations");
	fn.ev_type = pb_field_number(e, "type");
	fn.ev_name_iid = pb_field_number(e, "name_iid");
	fn.ev_track = pb_field_number(e, "track_uuid");
	fn.ev_name = pb_field_number(e, "name");
	fn.ev_flows = pb_field_number(e, "flow_ids");
	fn.ev_term = pb_field_number(e, "terminating_flow_ids");
	fn.ev_stack = pb_field_number(e, "callstack");
	fn.ev_counter = pb_field_number(e, "counter_value");
	fn.cs_frames = pb_field_number(cs, "frames");
	fn.fr_name = pb_field_number(fr, "function_name");
	fn.an_name_iid = pb_field_number(a, "name_iid");
	fn.an_bool = pb_field_number(a, "bool_value");
	fn.an_uint = pb_field_number(a, "uint_value");
	fn.an_int = pb_field_number(a, "int_value");
	fn.an_str = pb_field_number(a, "string_value");
	fn.an_name = pb_field_number(a, "name");
}

static void encode_ann(struct pb_buf *b, const struct track_event_ann *a)
{
	size_t m = pb_open(b, fn.ev_ann);

	if (a->name_iid)
		pb_uint(b, fn.an_name_iid, a->name_iid);
	if (a->kind == TRACK_EVENT_BOOL)
		pb_uint(b, fn.an_bool, a->u);
	else if (a->kind == TRACK_EVENT_UINT)
		pb_uint(b, fn.an_uint, a->u);
	else if (a->kind == TRACK_EVENT_INT)	/* int64: the two's complement as a varint */
		pb_uint(b, fn.an_int, a->u);
	else if (a->s)
		pb_string(b, fn.an_str, a->s);
	if (!a->name_iid && a->name)
		pb_string(b, fn.an_name, a->name);
	pb_close(b, m);
}

/*
 * Fields by ascending number, as protobuf-c orders them: TracePacket
 * timestamp 8, sequence id 10, track_event 11, sequence_flags 13;
 * TrackEvent annotations 4, type 9, name_iid 10, track_uuid 11, name 23,
 * counter_value 30, flows 47 and 48, callstack 55. (The unit test holds the bytes equal to
 * protobuf-c's.)
 */
void track_event_encode(const struct track_event *e, struct pb_buf *out)
{
	struct pb_buf b = *out;
	unsigned int i;
	size_t m;

	pthread_once(&fn_once, resolve_fields);
	pb_uint(&b, fn.pkt_ts, e->ts);
	pb_uint(&b, fn.pkt_seq, e->seq_id);
	m = pb_open(&b, fn.pkt_track_event);
	for (i = 0; i < e->nann; i++)
		encode_ann(&b, &e->ann[i]);
	pb_uint(&b, fn.ev_type, e->type);
	if (e->name_iid)
		pb_uint(&b, fn.ev_name_iid, e->name_iid);
	pb_uint(&b, fn.ev_track, e->track);
	if (!e->name_iid && e->name)
		pb_string(&b, fn.ev_name, e->name);
	/* int64 on the wire as a varint of its two's complement. */
	if (e->type == TRACK_EVENT_COUNTER)
		pb_uint(&b, fn.ev_counter, (uint64_t)e->counter);
	for (i = 0; i < e->nflows; i++)
		pb_fixed64(&b, fn.ev_flows, e->flows[i]);
	for (i = 0; i < e->nterm; i++)
		pb_fixed64(&b, fn.ev_term, e->term[i]);
	if (e->nframes) {
		size_t cs = pb_open(&b, fn.ev_stack);

		for (i = 0; i < e->nframes; i++) {
			size_t f = pb_open(&b, fn.cs_frames);

			pb_string(&b, fn.fr_name, e->frames[i]);
			pb_close(&b, f);
		}
		pb_close(&b, cs);
	}
	pb_close(&b, m);
	pb_uint(&b, fn.pkt_flags, e->seq_flags);
	*out = b;
}
