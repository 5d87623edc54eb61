// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "perfetto/pb.h"

uint32_t pb_field_number(const ProtobufCMessageDescriptor *desc, const char *name)
{
	const ProtobufCFieldDescriptor *f =
		protobuf_c_message_descriptor_get_field_by_name(desc, name);

	if (!f) {
		/* A build whose proto/ lacks a field the encoder writes. */
		fprintf(stderr, "ktprof: internal error: %s has no field %s\n",
			desc->name, name);
		abort();
	}
	return f->id;
}
