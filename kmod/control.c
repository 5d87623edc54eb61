// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs control files under /sys/kernel/debug/ktprof/, root only:
 *   control   write start, stop or flush; read the session state
 *   stats     per-CPU records, bytes, average record size, drops by type;
 *             unbuffered: times a traced CPU came up without a relay
 *             buffer (CPU hotplug during the start), so was not traced
 *   meta      ABI, kernel, CPUs, start clocks, events, buffer geometry
 *   selftest  write N: N selftest records on the writing CPU; "nmi N":
 *             the same as in NMI context (staged); "nmi-nested N": the
 *             same, every other one pushed to the staging ring from
 *             inside the next one's push, as an NMI that interrupts it;
 *             "nmi-sample N": N samples of the writer as an NMI takes
 *             them; "files-deferred N": another CPU counts 20 N
 *             files_deferred of its own while the writer counts N for it
 *             (none may be lost); read the last result
 *   load      write RATE: selftest records at RATE a second on every
 *             traced CPU until 0 or the session's stop (load.c); read
 *             the rate and the last load's written, dropped, missed
 *   marker    write TEXT: a MARK record with the writer's pid, like
 *             ftrace's trace_marker ("B TEXT"/"E TEXT": a span's begin
 *             and end; marker.c); ENODATA with no session running
 * A shell-only VM init script can capture with these and `cat`.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#include "compat.h"
#include "ktprof.h"

struct dentry *ktp_debugfs_dir;
static struct dentry *ktp_control_files[6];

static const char * const ktp_rec_names[] = KTP_REC_NAMES;
static_assert(ARRAY_SIZE(ktp_rec_names) == KTP_REC_NR_TYPES);

/* Last selftest result, under ktp_lock. */
static struct {
	bool valid;
	unsigned int cpu;
	u64 requested, written, dropped;
} ktp_last_selftest;

/* A short command from user space, NUL-terminated and trimmed. */
static int ktp_copy_cmd(char *buf, size_t size, const char __user *ubuf,
			size_t count)
{
	if (count == 0 || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);
	return 0;
}

static int ktp_start_from_params(void)
{
	struct ktp_config *cfg;
	char err[128] = "";
	int ret;

	cfg = kzalloc_obj(*cfg, GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	ret = ktp_config_from_params(cfg);
	if (!ret)
		ret = ktp_session_start(cfg, 0, err, sizeof(err));
	/* The writer only gets an errno: the reason goes to the log. */
	if (ret && err[0])
		pr_err("start failed: %s\n", err);
	kfree(cfg);
	return ret;
}

static ssize_t ktp_control_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char cmd[16];
	int ret;

	/* As for netlink: the power of perf needs what perf asks for. */
	if (!perfmon_capable())
		return -EPERM;
	ret = ktp_copy_cmd(cmd, sizeof(cmd), ubuf, count);
	if (ret)
		return ret;
	if (!strcmp(cmd, "start"))
		ret = ktp_start_from_params();
	else if (!strcmp(cmd, "stop"))
		ret = ktp_session_stop();
	else if (!strcmp(cmd, "flush"))
		ret = ktp_session_flush();
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static int ktp_control_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n",
		   ktp_session_state_name(READ_ONCE(ktp_session.state)));
	return 0;
}

DEFINE_SHOW_STORE_ATTRIBUTE(ktp_control);

/* "key=name,name": the names of @mask's bits, by @name_of. */
static void ktp_show_bits(struct seq_file *m, const char *key, u32 mask,
			  const char *(*name_of)(unsigned int bit))
{
	const char *sep = "";
	unsigned int bit;

	seq_printf(m, "%s=", key);
	for (bit = 0; name_of(bit); bit++) {
		if (mask & (1U << bit)) {
			seq_printf(m, "%s%s", sep, name_of(bit));
			sep = ",";
		}
	}
	seq_putc(m, '\n');
}

static void ktp_show_events(struct seq_file *m, const char *key, u32 mask)
{
	ktp_show_bits(m, key, mask, ktp_event_group_name);
}

static void ktp_show_specs(struct seq_file *m, const char *key,
			   const struct ktp_event_spec *specs, unsigned int n,
			   bool sampling)
{
	unsigned int i;

	seq_printf(m, "%s=", key);
	for (i = 0; i < n; i++) {
		seq_printf(m, "%s%s", i ? "," : "", specs[i].name);
		if (sampling && specs[i].freq)
			seq_printf(m, "@%lluhz", specs[i].rate);
		else if (sampling)
			seq_printf(m, "@period=%llu", specs[i].rate);
	}
	seq_putc(m, '\n');
}

static int ktp_meta_show(struct seq_file *m, void *v)
{
	struct ktp_session *s = &ktp_session;
	unsigned int i;

	mutex_lock(&ktp_lock);
	seq_printf(m, "abi=%u.%u\n", KTP_ABI_MAJOR, KTP_ABI_MINOR);
	seq_printf(m, "version=%s\n", KTP_VERSION_STRING);
	seq_printf(m, "kernel=%s\n", init_utsname()->release);
	seq_printf(m, "machine=%s\n", init_utsname()->machine);
	seq_printf(m, "nr_cpus=%u\n", nr_cpu_ids);
	seq_printf(m, "cpus_online=%*pbl\n", cpumask_pr_args(cpu_online_mask));
	seq_printf(m, "state=%s\n", ktp_session_state_name(s->state));
	ktp_show_events(m, "events_unavailable", ktp_events_unavailable());
	if (s->state != KTP_SESSION_IDLE) {
		seq_printf(m, "session_id=%llu\n", s->id);
		seq_printf(m, "clock_boottime_ns=%llu\n", s->clock_boot);
		seq_printf(m, "clock_monotonic_ns=%llu\n", s->clock_mono);
		seq_printf(m, "clock_realtime_ns=%llu\n", s->clock_real);
		ktp_show_events(m, "events", s->cfg.events &
				~ktp_events_unavailable());
		seq_printf(m, "subbuf_size=%u\n", s->cfg.subbuf_size);
		seq_printf(m, "n_subbufs=%u\n", s->cfg.n_subbufs);
		seq_printf(m, "overwrite=%d\n", s->cfg.overwrite);
		seq_printf(m, "clock=%s\n", ktp_clock_name(s->clock));
		seq_printf(m, "cpus=%*pbl\n", cpumask_pr_args(&s->cfg.cpus));
		ktp_show_specs(m, "samples", s->cfg.samples, s->cfg.nr_samples,
			       true);
		ktp_show_specs(m, "counters", s->cfg.counters,
			       s->cfg.nr_counters, false);
		seq_puts(m, "sample_pids=");
		for (i = 0; i < s->cfg.nr_sample_pids; i++)
			seq_printf(m, "%s%d", i ? "," : "", s->cfg.sample_pids[i]);
		seq_printf(m, "\nsample_comm=%s\n", s->cfg.sample_comm);
		seq_printf(m, "sample_cgroup=%llu\n", s->cfg.sample_cgroup_id);
		ktp_show_bits(m, "stacks", s->cfg.stacks, ktp_stack_kind_name);
		if (s->cfg.events & ~ktp_events_unavailable() & KTP_EV_SCX) {
			char hooks[128];

			ktp_scx_hooks(hooks, sizeof(hooks));
			seq_printf(m, "scx_hooks=%s\n", hooks);
		}
	}
	mutex_unlock(&ktp_lock);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(ktp_meta);

/* Two decimals of a ratio, without floating point. */
static void ktp_show_avg(struct seq_file *m, u64 bytes, u64 records)
{
	u64 centi = records ? div64_u64(bytes * 100, records) : 0;

	seq_printf(m, " avg_bytes=%llu.%02llu", div_u64(centi, 100),
		   centi % 100);
}

static int ktp_stats_show(struct seq_file *m, void *v)
{
	u64 records = 0, bytes = 0, lost = 0, written[KTP_REC_NR_TYPES] = {};
	u64 st[KTP_NR_STATS];
	unsigned int i, t;
	int cpu;

	mutex_lock(&ktp_lock);
	seq_printf(m, "state=%s\n", ktp_session_state_name(ktp_session.state));
	if (ktp_session.state == KTP_SESSION_IDLE)
		goto out;
	seq_printf(m, "session_id=%llu\n", ktp_session.id);
	for_each_possible_cpu(cpu) {
		struct ktp_cpu *kc = per_cpu_ptr(&ktp_cpus, cpu);

		ktp_cpu_stats(kc, st);
		if (!st[KTP_STAT_SUBBUFS])
			continue;
		records += st[KTP_STAT_RECORDS];
		bytes += st[KTP_STAT_BYTES];
		lost += st[KTP_STAT_LOST];
		for (t = 0; t < KTP_REC_NR_TYPES; t++)
			written[t] += READ_ONCE(kc->written[t]);
		seq_printf(m, "cpu=%d", cpu);
		for (i = 0; i < KTP_NR_STATS; i++) {
			seq_printf(m, " %s=%llu", ktp_stat_descs[i].key, st[i]);
			/* Derived, after bytes: where it has always been. */
			if (i == KTP_STAT_BYTES)
				ktp_show_avg(m, st[KTP_STAT_BYTES],
					     st[KTP_STAT_RECORDS]);
		}
		seq_putc(m, '\n');
		if (!st[KTP_STAT_LOST])
			continue;
		seq_printf(m, "cpu=%d dropped", cpu);
		for (t = 0; t < KTP_REC_NR_TYPES; t++)
			if (ktp_cpu_dropped(kc, t))
				seq_printf(m, " %s=%llu", ktp_rec_names[t],
					   ktp_cpu_dropped(kc, t));
		seq_putc(m, '\n');
	}
	seq_printf(m, "total records=%llu bytes=%llu", records, bytes);
	ktp_show_avg(m, bytes, records);
	seq_printf(m, " lost=%llu\n", lost);
	seq_puts(m, "total written");
	for (t = 1; t < KTP_REC_NR_TYPES; t++)
		if (written[t])
			seq_printf(m, " %s=%llu", ktp_rec_names[t], written[t]);
	seq_putc(m, '\n');
	/* CPUs relay gave no buffer, which have no line above. */
	seq_printf(m, "unbuffered=%d\n", atomic_read(&ktp_session.unbuffered));
out:
	mutex_unlock(&ktp_lock);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(ktp_stats);

static ssize_t ktp_selftest_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	u64 n, written = 0, dropped = 0;
	unsigned int cpu = 0;
	char buf[32], *num = buf;
	enum ktp_selftest_mode mode = KTP_SELFTEST_RECORDS;
	int ret;

	if (!perfmon_capable())
		return -EPERM;
	ret = ktp_copy_cmd(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	/* The NMI modes: see ktp_session_selftest(). */
	if (!strncmp(buf, "nmi ", 4)) {
		mode = KTP_SELFTEST_NMI;
		num = skip_spaces(buf + 4);
	} else if (!strncmp(buf, "nmi-nested ", 11)) {
		mode = KTP_SELFTEST_NMI_NESTED;
		num = skip_spaces(buf + 11);
	} else if (!strncmp(buf, "nmi-sample ", 11)) {
		mode = KTP_SELFTEST_NMI_SAMPLES;
		num = skip_spaces(buf + 11);
	} else if (!strncmp(buf, "files-deferred ", 15)) {
		mode = KTP_SELFTEST_FILES_DEFERRED;
		num = skip_spaces(buf + 15);
	}
	ret = kstrtou64(num, 0, &n);
	if (ret)
		return ret;
	ret = ktp_session_selftest(n, mode, &cpu, &written, &dropped);
	if (ret)
		return ret;
	mutex_lock(&ktp_lock);
	ktp_last_selftest.valid = true;
	ktp_last_selftest.cpu = cpu;
	ktp_last_selftest.requested = n;
	ktp_last_selftest.written = written;
	ktp_last_selftest.dropped = dropped;
	mutex_unlock(&ktp_lock);
	return count;
}

static int ktp_selftest_show(struct seq_file *m, void *v)
{
	mutex_lock(&ktp_lock);
	if (ktp_last_selftest.valid)
		seq_printf(m, "cpu=%u requested=%llu written=%llu dropped=%llu\n",
			   ktp_last_selftest.cpu, ktp_last_selftest.requested,
			   ktp_last_selftest.written,
			   ktp_last_selftest.dropped);
	mutex_unlock(&ktp_lock);
	return 0;
}

DEFINE_SHOW_STORE_ATTRIBUTE(ktp_selftest);

static ssize_t ktp_load_file_write(struct file *file,
				   const char __user *ubuf, size_t count,
				   loff_t *ppos)
{
	char buf[32];
	u64 rate;
	int ret;

	if (!perfmon_capable())
		return -EPERM;
	ret = ktp_copy_cmd(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	ret = kstrtou64(buf, 0, &rate);
	if (ret)
		return ret;
	mutex_lock(&ktp_lock);
	ret = ktp_load_set(rate);
	mutex_unlock(&ktp_lock);
	return ret ? ret : count;
}

static int ktp_load_file_show(struct seq_file *m, void *v)
{
	mutex_lock(&ktp_lock);
	ktp_load_show(m);
	mutex_unlock(&ktp_lock);
	return 0;
}

DEFINE_SHOW_STORE_ATTRIBUTE(ktp_load_file);

int ktp_control_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "control", 0600, &ktp_control_fops },
		{ "stats", 0400, &ktp_stats_fops },
		{ "meta", 0400, &ktp_meta_fops },
		{ "selftest", 0600, &ktp_selftest_fops },
		{ "load", 0600, &ktp_load_file_fops },
		{ "marker", 0200, &ktp_marker_fops },
	};
	size_t i;

	static_assert(ARRAY_SIZE(files) == ARRAY_SIZE(ktp_control_files));
	ktp_debugfs_dir = debugfs_create_dir("ktprof", NULL);
	if (IS_ERR(ktp_debugfs_dir))
		return PTR_ERR(ktp_debugfs_dir);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ktp_control_files[i] = debugfs_create_file(files[i].name,
							   files[i].mode,
							   ktp_debugfs_dir,
							   NULL, files[i].fops);
		if (IS_ERR(ktp_control_files[i])) {
			int ret = PTR_ERR(ktp_control_files[i]);

			debugfs_remove_recursive(ktp_debugfs_dir);
			return ret;
		}
	}
	return 0;
}

/*
 * Remove the control files first (waiting for calls in progress), so no new
 * session can start while the module goes away; the directory goes last.
 */
void ktp_control_remove_files(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ktp_control_files); i++)
		debugfs_remove(ktp_control_files[i]);
}

void ktp_control_exit(void)
{
	debugfs_remove_recursive(ktp_debugfs_dir);
}
