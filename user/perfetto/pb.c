// SPDX-License-Identifier: GPL-2.0
#include "perfetto/pb.h"

uint32_t pb_field_number(const ProtobufCMessageDescriptor *desc, const char *name)
{
	const ProtobufCFieldDescriptor *f =
		protobuf_c_message_descriptor_get_field_by_name(desc, name);

	/*
	 * 0 is never a field number: a proto/ that lacked a field the
	 * encoders write would give bytes protobuf-c does not, which the
	 * encoder unit tests compare for every message written this way.
	 */
	return f ? f->id : 0;
}
