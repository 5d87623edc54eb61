// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "ktprof", the recorder's control channel: start a
 * session with a configuration, stop, flush, and read stats and meta. Every
 * operation needs CAP_PERFMON or CAP_SYS_ADMIN, as perf does for the same
 * power, and calls the same session functions as the debugfs files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/utsname.h>
#include <linux/netlink.h>
#include <net/net_namespace.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "compat.h"
#include "ktprof.h"

static struct genl_family ktp_genl_family;

/*
 * A session started over netlink belongs to that socket: when it closes
 * (the recorder exits, even killed with SIGKILL) the session stops, so a
 * dead recorder never leaves the module tracing.
 */
static struct work_struct ktp_owner_gone_work;
static u32 ktp_owner_gone_portid;

static void ktp_owner_gone_fn(struct work_struct *work)
{
	u32 portid = READ_ONCE(ktp_owner_gone_portid);
	u64 id;

	mutex_lock(&ktp_lock);
	if (portid && portid == ktp_session.owner_portid) {
		ktp_session.owner_portid = 0;
		/* That session, not one started after it went away. */
		id = ktp_session.id;
		mutex_unlock(&ktp_lock);
		if (!ktp_session_stop_id(id))
			pr_info("recorder (netlink port %u) went away: session stopped\n",
				portid);
		return;
	}
	mutex_unlock(&ktp_lock);
}

static int ktp_netlink_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net) || !n->portid ||
	    n->portid != READ_ONCE(ktp_session.owner_portid))
		return NOTIFY_DONE;
	WRITE_ONCE(ktp_owner_gone_portid, n->portid);
	schedule_work(&ktp_owner_gone_work);
	return NOTIFY_DONE;
}

static struct notifier_block ktp_netlink_nb = {
	.notifier_call = ktp_netlink_event,
};

/*
 * What perf asks for the same power (system-wide tracing, kernel stacks):
 * CAP_PERFMON or CAP_SYS_ADMIN, of the socket's opener and of the sender,
 * as netlink_capable() checks. CAP_NET_ADMIN alone is not enough.
 */
static bool ktp_genl_permitted(struct sk_buff *skb,
			       struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_PERFMON) ||
	    netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG(extack, "needs CAP_PERFMON or CAP_SYS_ADMIN");
	return false;
}

static const struct nla_policy ktp_start_policy[KTP_A_MAX + 1] = {
	[KTP_A_EVENTS] = { .type = NLA_U32 },
	[KTP_A_SUBBUF_SIZE] = { .type = NLA_U32 },
	[KTP_A_N_SUBBUFS] = { .type = NLA_U32 },
	[KTP_A_CPUS] = { .type = NLA_NUL_STRING, .len = 4095 },
	[KTP_A_OVERWRITE] = { .type = NLA_U8 },
	[KTP_A_SAMPLES] = { .type = NLA_NUL_STRING, .len = KTP_EVENT_LIST_MAX - 1 },
	[KTP_A_COUNTERS] = { .type = NLA_NUL_STRING, .len = KTP_EVENT_LIST_MAX - 1 },
	[KTP_A_SAMPLE_PIDS] = { .type = NLA_BINARY,
				.len = KTP_MAX_SAMPLE_PIDS * sizeof(u32) },
	[KTP_A_SAMPLE_COMM] = { .type = NLA_NUL_STRING, .len = TASK_COMM_LEN - 1 },
	[KTP_A_STOP_WITH_OWNER] = { .type = NLA_FLAG },
};

static const struct nla_policy ktp_empty_policy[KTP_A_MAX + 1] = {};

static int ktp_genl_start(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct ktp_config *cfg;
	char err[128] = "";
	int ret;

	if (!ktp_genl_permitted(skb, info->extack))
		return -EPERM;

	cfg = kzalloc_obj(*cfg, GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	/* Module parameters are the defaults; they were checked at load. */
	ret = ktp_config_from_params(cfg);
	if (ret)
		goto out;
	if (a[KTP_A_EVENTS]) {
		cfg->events = nla_get_u32(a[KTP_A_EVENTS]) & KTP_EV_ALL;
		if (!cfg->events) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[KTP_A_EVENTS],
					    "no known event group");
			ret = -EINVAL;
			goto out;
		}
	}
	if (a[KTP_A_SUBBUF_SIZE])
		cfg->subbuf_size = nla_get_u32(a[KTP_A_SUBBUF_SIZE]);
	if (a[KTP_A_N_SUBBUFS])
		cfg->n_subbufs = nla_get_u32(a[KTP_A_N_SUBBUFS]);
	if (ktp_check_geometry(cfg->subbuf_size, cfg->n_subbufs)) {
		NL_SET_ERR_MSG(info->extack,
			       "bad buffer geometry: 4 KiB..64 MiB sub-buffers (multiple of 4), 2..4096 of them, at most 1 GiB per CPU");
		ret = -EINVAL;
		goto out;
	}
	if (a[KTP_A_OVERWRITE])
		cfg->overwrite = nla_get_u8(a[KTP_A_OVERWRITE]);
	if (a[KTP_A_CPUS] && *(char *)nla_data(a[KTP_A_CPUS])) {
		if (cpulist_parse(nla_data(a[KTP_A_CPUS]), &cfg->cpus) ||
		    !cpumask_intersects(&cfg->cpus, cpu_possible_mask)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[KTP_A_CPUS],
					    "bad CPU list");
			ret = -EINVAL;
			goto out;
		}
	}
	if (a[KTP_A_SAMPLES] || a[KTP_A_COUNTERS]) {
		ret = ktp_config_set_samples(cfg,
			a[KTP_A_SAMPLES] ? nla_data(a[KTP_A_SAMPLES]) : "",
			a[KTP_A_COUNTERS] ? nla_data(a[KTP_A_COUNTERS]) : "",
			err, sizeof(err));
		if (ret)
			goto out_msg;
	}
	if (a[KTP_A_SAMPLE_PIDS]) {
		const u32 *pids = nla_data(a[KTP_A_SAMPLE_PIDS]);
		unsigned int i, n = nla_len(a[KTP_A_SAMPLE_PIDS]) / sizeof(u32);

		for (i = 0; i < n; i++)
			cfg->sample_pids[i] = pids[i];
		cfg->nr_sample_pids = n;
	}
	if (a[KTP_A_SAMPLE_COMM])
		strscpy(cfg->sample_comm, nla_data(a[KTP_A_SAMPLE_COMM]),
			sizeof(cfg->sample_comm));
	ret = ktp_session_start(cfg, nla_get_flag(a[KTP_A_STOP_WITH_OWNER]) ?
				info->snd_portid : 0, err, sizeof(err));
	if (ret == -EBUSY)
		snprintf(err, sizeof(err), "a session is already running");
out_msg:
	if (ret && err[0])
		ktp_set_err_msg(info->extack, err);
out:
	kfree(cfg);
	return ret;
}

static int ktp_genl_stop(struct sk_buff *skb, struct genl_info *info)
{
	int ret;

	if (!ktp_genl_permitted(skb, info->extack))
		return -EPERM;
	ret = ktp_session_stop();
	if (ret)
		NL_SET_ERR_MSG(info->extack, "no session is running");
	return ret;
}

static int ktp_genl_flush(struct sk_buff *skb, struct genl_info *info)
{
	int ret;

	if (!ktp_genl_permitted(skb, info->extack))
		return -EPERM;
	ret = ktp_session_flush();
	if (ret)
		NL_SET_ERR_MSG(info->extack, "no session");
	return ret;
}

static int ktp_put_meta(struct sk_buff *msg)
{
	struct ktp_session *s = &ktp_session;

	if (nla_put_u32(msg, KTP_A_ABI_MAJOR, KTP_ABI_MAJOR) ||
	    nla_put_u32(msg, KTP_A_ABI_MINOR, KTP_ABI_MINOR) ||
	    nla_put_u32(msg, KTP_A_STATE, s->state) ||
	    nla_put_string(msg, KTP_A_RELEASE, init_utsname()->release) ||
	    nla_put_u32(msg, KTP_A_NR_CPUS, nr_cpu_ids) ||
	    nla_put_u32(msg, KTP_A_EVENTS_UNAVAIL, ktp_events_unavailable()))
		return -EMSGSIZE;
	if (s->state == KTP_SESSION_IDLE)
		return 0;
	if (nla_put_u64_64bit(msg, KTP_A_SESSION_ID, s->id, KTP_A_PAD) ||
	    nla_put_u64_64bit(msg, KTP_A_CLOCK_BOOT, s->clock_boot, KTP_A_PAD) ||
	    nla_put_u64_64bit(msg, KTP_A_CLOCK_MONO, s->clock_mono, KTP_A_PAD) ||
	    nla_put_u64_64bit(msg, KTP_A_CLOCK_REAL, s->clock_real, KTP_A_PAD) ||
	    nla_put_u32(msg, KTP_A_EVENTS,
			s->cfg.events & ~ktp_events_unavailable()) ||
	    nla_put_u32(msg, KTP_A_SUBBUF_SIZE, s->cfg.subbuf_size) ||
	    nla_put_u32(msg, KTP_A_N_SUBBUFS, s->cfg.n_subbufs) ||
	    nla_put_u8(msg, KTP_A_OVERWRITE, s->cfg.overwrite))
		return -EMSGSIZE;
	return 0;
}

static int ktp_genl_get_meta(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	if (!ktp_genl_permitted(skb, info->extack))
		return -EPERM;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ktp_genl_family, 0,
				KTP_CMD_GET_META);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err;
	}
	mutex_lock(&ktp_lock);
	ret = ktp_put_meta(msg);
	mutex_unlock(&ktp_lock);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return ret;
}

static int ktp_put_cpu_stats(struct sk_buff *msg, int cpu)
{
	struct ktp_cpu *kc = per_cpu_ptr(&ktp_cpus, cpu);
	u64 dropped[KTP_REC_NR_TYPES];
	struct nlattr *nest;
	unsigned int t;

	for (t = 0; t < KTP_REC_NR_TYPES; t++)
		dropped[t] = ktp_cpu_dropped(kc, t);
	nest = nla_nest_start(msg, KTP_A_CPU_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, KTP_CA_CPU, cpu) ||
	    nla_put_u64_64bit(msg, KTP_CA_RECORDS, READ_ONCE(kc->records),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_BYTES, READ_ONCE(kc->bytes),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_LOST, ktp_cpu_lost(kc), KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_SUBBUFS, READ_ONCE(kc->subbufs),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_NESTED, READ_ONCE(kc->nested),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_OVERWRITTEN,
			      READ_ONCE(kc->overwritten), KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_SAMPLES, READ_ONCE(kc->samples),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_THROTTLED, READ_ONCE(kc->throttled),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_UNRESOLVED, READ_ONCE(kc->unresolved),
			      KTP_CA_PAD) ||
	    nla_put_u64_64bit(msg, KTP_CA_FILES_DEFERRED,
			      READ_ONCE(kc->files_deferred), KTP_CA_PAD) ||
	    nla_put(msg, KTP_CA_DROPPED, sizeof(dropped), dropped)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Before a dump: refused here, the requester gets the error as its ack. */
static int ktp_genl_stats_start(struct netlink_callback *cb)
{
	return ktp_genl_permitted(cb->skb, cb->extack) ? 0 : -EPERM;
}

/* One message per CPU that has a buffer; cb->args[0] is the next CPU. */
static int ktp_genl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	int cpu;

	mutex_lock(&ktp_lock);
	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++) {
		void *hdr;

		if (!cpu_possible(cpu) || ktp_session.state == KTP_SESSION_IDLE ||
		    !per_cpu_ptr(&ktp_cpus, cpu)->subbufs)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ktp_genl_family,
				  NLM_F_MULTI, KTP_CMD_GET_STATS);
		if (!hdr)
			break;
		if (ktp_put_cpu_stats(skb, cpu)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&ktp_lock);
	cb->args[0] = cpu;
	return skb->len;
}

static const struct genl_ops ktp_genl_ops[] = {
	{
		.cmd = KTP_CMD_START,
		.policy = ktp_start_policy,
		.maxattr = KTP_A_MAX,
		.doit = ktp_genl_start,
	},
	{
		.cmd = KTP_CMD_STOP,
		.policy = ktp_empty_policy,
		.maxattr = KTP_A_MAX,
		.doit = ktp_genl_stop,
	},
	{
		.cmd = KTP_CMD_FLUSH,
		.policy = ktp_empty_policy,
		.maxattr = KTP_A_MAX,
		.doit = ktp_genl_flush,
	},
	{
		.cmd = KTP_CMD_GET_STATS,
		.policy = ktp_empty_policy,
		.maxattr = KTP_A_MAX,
		.start = ktp_genl_stats_start,
		.dumpit = ktp_genl_stats_dump,
	},
	{
		.cmd = KTP_CMD_GET_META,
		.policy = ktp_empty_policy,
		.maxattr = KTP_A_MAX,
		.doit = ktp_genl_get_meta,
	},
};

static struct genl_family ktp_genl_family = {
	.name = KTP_GENL_NAME,
	.version = KTP_GENL_VERSION,
	.maxattr = KTP_A_MAX,
	.module = THIS_MODULE,
	.ops = ktp_genl_ops,
	.n_ops = ARRAY_SIZE(ktp_genl_ops),
	/* A new family: strict validation of every command. */
	.resv_start_op = KTP_CMD_UNSPEC,
	/*
	 * Not under the global genl mutex: a stop may wait for file reads
	 * (FILE records). ktp_lock orders the operations.
	 */
	.parallel_ops = true,
};

int ktp_genl_init(void)
{
	int ret;

	INIT_WORK(&ktp_owner_gone_work, ktp_owner_gone_fn);
	ret = netlink_register_notifier(&ktp_netlink_nb);
	if (ret)
		return ret;
	ret = genl_register_family(&ktp_genl_family);
	if (ret)
		netlink_unregister_notifier(&ktp_netlink_nb);
	return ret;
}

void ktp_genl_exit(void)
{
	genl_unregister_family(&ktp_genl_family);
	netlink_unregister_notifier(&ktp_netlink_nb);
	cancel_work_sync(&ktp_owner_gone_work);
}

MODULE_ALIAS_GENL_FAMILY(KTP_GENL_NAME);
