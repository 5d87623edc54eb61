// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof: BPF-free scheduler tracing and CPU profiling.
 *
 * Module init/exit and parameters. The parameters are the defaults of every
 * session started from debugfs or at load (autostart=1); the recorder sends
 * its own configuration over netlink. A bad parameter fails the load with
 * -EINVAL and a one-line reason in the kernel log.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

#include "chain.h"
#include "compat.h"
#include "ktprof.h"

static bool ktp_param_autostart;
module_param_named(autostart, ktp_param_autostart, bool, 0444);
MODULE_PARM_DESC(autostart, "start a session at load (default 0)");

char *ktp_param_events = "sched,irq,softirq,ipi,wq,scx";
module_param_named(events, ktp_param_events, charp, 0444);
MODULE_PARM_DESC(events,
		 "event groups: comma list of sched,irq,softirq,ipi,wq,scx,power,wakeup or all (default all but power and wakeup; those this kernel has)");

unsigned int ktp_param_subbuf_size = 256 << 10;
module_param_named(subbuf_size, ktp_param_subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "relay sub-buffer size in bytes (default 262144)");

unsigned int ktp_param_n_subbufs = 8;
module_param_named(n_subbufs, ktp_param_n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "relay sub-buffers per CPU (default 8)");

char *ktp_param_cpus = "";
module_param_named(cpus, ktp_param_cpus, charp, 0444);
MODULE_PARM_DESC(cpus, "CPUs to trace, a CPU list such as 0-3,6 (default all)");

char *ktp_param_samples = "cpu-clock@999hz";
module_param_named(samples, ktp_param_samples, charp, 0444);
MODULE_PARM_DESC(samples,
		 "CPU sample sources: EVENT[@NHz|@period=N],... or none; Hz up to 100000, N below 2^63 (default cpu-clock@999hz)");

char *ktp_param_stacks = "";
module_param_named(stacks, ktp_param_stacks, charp, 0444);
MODULE_PARM_DESC(stacks,
		 "stacks at switches and wakings: comma list of offcpu,waker,user or none (default none)");

char *ktp_param_counters = "";
module_param_named(counters, ktp_param_counters, charp, 0444);
MODULE_PARM_DESC(counters,
		 "counters read at each context switch: EVENT,... (default none)");

bool ktp_param_sample_defer;
module_param_named(sample_defer, ktp_param_sample_defer, bool, 0444);
MODULE_PARM_DESC(sample_defer,
		 "test: route software-event samples through the NMI staging path (default 0)");

bool ktp_param_sample_irqs_on;
module_param_named(sample_irqs_on, ktp_param_sample_irqs_on, bool, 0444);
MODULE_PARM_DESC(sample_irqs_on,
		 "test: enter task-context samples' handler with IRQs on, as older kernels do (default 0)");

bool ktp_param_stack_check;
module_param_named(stack_check, ktp_param_stack_check, bool, 0444);
MODULE_PARM_DESC(stack_check,
		 "test: unwind every stack taken without unwinding too, and count differences as stack_mismatch (default 0)");

unsigned int ktp_param_files_delay_ms;
module_param_named(files_delay_ms, ktp_param_files_delay_ms, uint, 0444);
MODULE_PARM_DESC(files_delay_ms,
		 "test: each CPU's first FILE records of a session this many ms late (default 0)");

bool ktp_param_overwrite;
module_param_named(overwrite, ktp_param_overwrite, bool, 0444);
MODULE_PARM_DESC(overwrite,
		 "flight recorder: keep the newest records when full (default 0: drop new ones)");

/* Read at each start, so that a shell can change it between sessions. */
char *ktp_param_clock = "auto";
module_param_named(clock, ktp_param_clock, charp, 0644);
MODULE_PARM_DESC(clock,
		 "records' clock: auto (the TSC where constant and nonstop), boot, tsc");

static int __init ktp_init(void)
{
	struct ktp_config *cfg;
	int ret;

	/* Check the parameters now, so that a bad one fails the load. */
	cfg = kzalloc_obj(*cfg, GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	ret = ktp_config_from_params(cfg);
	if (ret)
		goto out_cfg;

	ret = ktp_probes_init();
	if (ret)
		goto out_cfg;
	ktp_load_init();
	ret = ktp_relay_init();
	if (ret)
		goto out_cfg;
	ret = ktp_chain_init();
	if (ret)
		goto out_cfg;
	ret = ktp_control_init();
	if (ret) {
		pr_err("cannot create /sys/kernel/debug/ktprof: %d\n", ret);
		goto out_chain;
	}
	ret = ktp_hotplug_init();
	if (ret) {
		pr_err("cannot register the CPU hotplug callbacks: %d\n", ret);
		goto out_control;
	}
	ret = ktp_genl_init();
	if (ret) {
		pr_err("cannot register the generic netlink family: %d\n", ret);
		goto out_hotplug;
	}
	if (ktp_param_autostart) {
		char err[128] = "";

		ret = ktp_session_start(cfg, 0, err, sizeof(err));
		if (ret) {
			pr_err("autostart failed: %s (%d)\n", err, ret);
			goto out_genl;
		}
	}
	kfree(cfg);
	return 0;

out_genl:
	ktp_genl_exit();
out_hotplug:
	ktp_hotplug_exit();
out_control:
	ktp_control_exit();
out_chain:
	ktp_chain_exit();
out_cfg:
	kfree(cfg);
	return ret;
}

static void __exit ktp_exit(void)
{
	/* No new control calls, then stop, then the files go. */
	ktp_control_remove_files();
	ktp_genl_exit();
	ktp_session_teardown();
	ktp_hotplug_exit();
	ktp_control_exit();
	ktp_chain_exit();
}

module_init(ktp_init);
module_exit(ktp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ktprof: BPF-free scheduler tracing and CPU profiling");
