// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "decode/meta.h"
#include "ktprof_abi.h"
#include "unit.h"

static const char good[] =
	"abi=1.0\nversion=0.1\nkernel=6.12.1-test\nmachine=x86_64\nnr_cpus=4\n"
	"cpus_online=0-3\nstate=stopped\nevents_unavailable=ipi\n"
	"session_id=42\nclock_boottime_ns=100\nclock_monotonic_ns=90\n"
	"clock_realtime_ns=1700000000000000000\nevents=sched,irq,softirq,wq\n"
	"subbuf_size=262144\nn_subbufs=8\noverwrite=0\ncpus=0-3\n"
	"samples=cpu-clock@999hz\ncounters=\nfuture_key=whatever\n";

UNIT_TEST(parses_module_meta)
{
	struct meta m;
	char buf[64];

	CHECK_EQ(meta_parse(good, &m), 0);
	CHECK_EQ(m.abi_major, 1);
	CHECK_STR(m.kernel, "6.12.1-test");
	CHECK_EQ(m.nr_cpus, 4);
	CHECK_EQ(m.session_id, 42);
	CHECK_EQ(m.clock_real, 1700000000000000000ull);
	CHECK_EQ(m.events, KTP_EV_SCHED | KTP_EV_IRQ | KTP_EV_SOFTIRQ | KTP_EV_WQ);
	CHECK_EQ(m.events_unavailable, KTP_EV_IPI);
	CHECK_EQ(m.subbuf_size, 262144);
	CHECK_STR(m.samples, "cpu-clock@999hz");
	CHECK_STR(meta_events_str(m.events, buf, sizeof(buf)), "sched,irq,softirq,wq");
}

UNIT_TEST(rejects_bad_meta)
{
	struct meta m;

	CHECK_EQ(meta_parse("abi=1.0\n", &m), -EINVAL);	/* incomplete */
	CHECK_EQ(meta_parse("abi=1.0\nkernel=x\nnr_cpus=two\n", &m), -EINVAL);
	CHECK_EQ(meta_parse("no equals sign\n", &m), -EINVAL);
	CHECK_EQ(meta_parse("abi=2.0\nkernel=x\nnr_cpus=1\n", &m), -EPROTONOSUPPORT);
	CHECK_EQ(m.abi_major, 2);
	CHECK_EQ(meta_parse("abi=1.0\nkernel=x\nnr_cpus=1\nevents=sched,bogus\n", &m),
		 -EINVAL);
}

UNIT_MAIN()
