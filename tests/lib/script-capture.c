// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "capture/capture-meta.h"
#include "capture/capture-write.h"
#include "script-capture.h"
#include "script.h"

int script_capture_write(const char *script_path, const char *out)
{
	static struct script s;
	struct meta m = {
		.abi_major = KTP_ABI_MAJOR, .abi_minor = KTP_ABI_MINOR,
		.kernel = "unit", .machine = "x86_64", .have_session = 1,
		.session_id = 1, .clock_boot = 1000000000ull, .events = KTP_EV_ALL,
	};
	struct capture_meta_info info = { .meta = &m, .recorder = "unit test" };
	struct capture_writer *w;
	FILE *f = fopen(script_path, "r");
	unsigned int i;
	int ret;

	if (!f)
		return -1;
	ret = script_read(&s, f, m.clock_boot, 0);
	fclose(f);
	if (ret) {
		printf("    %s: %s\n", script_path, s.error);
		return -1;
	}
	m.nr_cpus = s.nr_cpus;
	info.stop_ns = s.stop;
	w = capture_writer_open(out, 0);
	ret = w ? capture_meta_write(w, &info) : -1;
	for (i = 0; i < s.nr_cpus; i++) {
		if (!ret)
			ret = capture_writer_add(w, KTPC_STREAM, i, s.cpu[i].buf, s.cpu[i].len, 1);
		stream_writer_fini(&s.cpu[i]);
	}
	if (!ret)
		return capture_writer_close(w);
	if (w)
		capture_writer_abort(w);
	return -1;
}
