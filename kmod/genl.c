// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "ktprof", the recorder's control channel: start a
 * session with a configuration, stop, flush, and read stats and meta. Every
 * operation needs CAP_PERFMON or CAP_SYS_ADMIN, as perf does for the same
 * power, and calls the same session functions as the debugfs files.
 *
 * Handlers run under genetlink's cb_lock (read), which every family's
 * registration (a module load) takes for writing: while a handler waits,
 * that writer waits, and every other genetlink user (nl80211, devlink,
 * ethtool) queues behind it. What takes ktp_lock may wait long (a start
 * allocating its buffers, a stop waiting for file reads, a selftest), so
 * those handlers only check and copy the request and hand it to a work
 * item (ktp_ctl_wq, in order), which does it and sends the reply and the
 * ack. The handler returns -EINTR, for which netlink_rcv_skb() sends no
 * ack of its own. The requester sees no difference: it waits for the ack,
 * in recvmsg(), holding nothing. The stats dump takes no lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/utsname.h>
#include <linux/netlink.h>
#include <net/net_namespace.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "compat.h"
#include "ktprof.h"

static struct genl_family ktp_genl_family;

/* Requests done outside the handlers, in order; closing: refused. */
static struct workqueue_struct *ktp_ctl_wq;
static bool ktp_ctl_closing;

/*
 * A request whose work may wait. It holds the request's skb (and its
 * sender's socket) to ack it the way netlink_rcv_skb() would have.
 */
struct ktp_genl_req {
	struct work_struct work;
	struct list_head node;		/* a start with an owner: the notifier */
	struct sk_buff *skb;
	struct nlmsghdr *nlh;		/* in @skb */
	struct sock *ssk;		/* the sender's socket, held */
	u32 portid;
	u8 cmd;
	struct ktp_config *cfg;		/* KTP_CMD_START */
	u32 owner_portid;		/* KTP_CMD_START: stops with this socket */
	bool owner_gone;		/* that socket closed before the start */
};

/* Starts with an owner not done yet, which the owner may outlive. */
static DEFINE_SPINLOCK(ktp_genl_reqs_lock);
static LIST_HEAD(ktp_genl_reqs);

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

static void ktp_owner_gone(u32 portid)
{
	WRITE_ONCE(ktp_owner_gone_portid, portid);
	schedule_work(&ktp_owner_gone_work);
}

static int ktp_netlink_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;
	struct ktp_genl_req *req;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net) || !n->portid)
		return NOTIFY_DONE;
	/* A start not done yet: it stops its session once done. */
	spin_lock(&ktp_genl_reqs_lock);
	list_for_each_entry(req, &ktp_genl_reqs, node)
		if (req->owner_portid == n->portid)
			req->owner_gone = true;
	spin_unlock(&ktp_genl_reqs_lock);
	/* A start done: its owner is set (before it left the list). */
	if (n->portid == READ_ONCE(ktp_session.owner_portid))
		ktp_owner_gone(n->portid);
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
	[KTP_A_CLOCK] = NLA_POLICY_MAX(NLA_U32, KTP_CLOCK_TSC),
	[KTP_A_SAMPLES] = { .type = NLA_NUL_STRING, .len = KTP_EVENT_LIST_MAX - 1 },
	[KTP_A_COUNTERS] = { .type = NLA_NUL_STRING, .len = KTP_EVENT_LIST_MAX - 1 },
	[KTP_A_SAMPLE_PIDS] = { .type = NLA_BINARY,
				.len = KTP_MAX_SAMPLE_PIDS * sizeof(u32) },
	[KTP_A_SAMPLE_COMM] = { .type = NLA_NUL_STRING, .len = TASK_COMM_LEN - 1 },
	[KTP_A_STOP_WITH_OWNER] = { .type = NLA_FLAG },
	[KTP_A_STACKS] = NLA_POLICY_MASK(NLA_U32, KTP_STACKS_ALL),
	[KTP_A_SAMPLE_CGROUP] = { .type = NLA_U64 },
	[KTP_A_PROBES] = { .type = NLA_BINARY,
			   .len = KTP_MAX_PROBE_SITES * sizeof(struct ktp_probe_spec) },
};

static const struct nla_policy ktp_empty_policy[KTP_A_MAX + 1] = {};

static int ktp_genl_get_meta_now(struct ktp_genl_req *req);

static void ktp_genl_req_free(struct ktp_genl_req *req)
{
	sock_put(req->ssk);
	kfree_skb(req->skb);
	if (req->cfg)
		ktp_dyn_free(req->cfg->dyn);
	kfree(req->cfg);
	kfree(req);
}

/* A start with an owner has left the list: did the owner go meanwhile? */
static void ktp_genl_req_started(struct ktp_genl_req *req, bool started)
{
	bool gone;

	spin_lock(&ktp_genl_reqs_lock);
	gone = req->owner_gone;
	list_del(&req->node);
	spin_unlock(&ktp_genl_reqs_lock);
	if (started && gone)
		ktp_owner_gone(req->owner_portid);
}

/* A request, done: its reply, if any, then its ack. */
static void ktp_genl_req_fn(struct work_struct *work)
{
	struct ktp_genl_req *req = container_of(work, struct ktp_genl_req, work);
	struct netlink_ext_ack extack = {}, *ext = &extack;
	char err[128] = "";
	int ret = -EOPNOTSUPP;

	if (READ_ONCE(ktp_ctl_closing)) {
		ret = -ENODEV;
		snprintf(err, sizeof(err), "the module is being unloaded");
		if (req->cmd == KTP_CMD_START && req->owner_portid)
			ktp_genl_req_started(req, false);
		goto ack;
	}
	switch (req->cmd) {
	case KTP_CMD_START:
		ret = ktp_session_start(req->cfg, req->owner_portid, err,
					sizeof(err));
		req->cfg->dyn = NULL;	/* the start took it */
		if (ret == -EBUSY)
			snprintf(err, sizeof(err), "a session is already running");
		if (req->owner_portid)
			ktp_genl_req_started(req, !ret);
		break;
	case KTP_CMD_STOP:
		ret = ktp_session_stop();
		if (ret)
			snprintf(err, sizeof(err), "no session is running");
		break;
	case KTP_CMD_FLUSH:
		ret = ktp_session_flush();
		if (ret)
			snprintf(err, sizeof(err), "no session");
		break;
	case KTP_CMD_GET_META:
		ret = ktp_genl_get_meta_now(req);
		break;
	}
ack:
	if (ret && err[0])
		ktp_set_err_msg(ext, err);
	/* What netlink_rcv_skb() does after a handler. */
	if (ret || (req->nlh->nlmsg_flags & NLM_F_ACK))
		netlink_ack(req->skb, req->nlh, ret, ext);
	ktp_genl_req_free(req);
}

/*
 * Hand a request to ktp_ctl_wq (with @cfg for a start, which it then
 * owns): -EINTR, for no ack now; or an error to ack now.
 */
static int ktp_genl_defer(struct sk_buff *skb, struct genl_info *info,
			  struct ktp_config *cfg, u32 owner_portid)
{
	struct ktp_genl_req *req = kzalloc_obj(*req, GFP_KERNEL);

	if (!req) {
		if (cfg)
			ktp_dyn_free(cfg->dyn);
		kfree(cfg);
		return -ENOMEM;
	}
	INIT_WORK(&req->work, ktp_genl_req_fn);
	INIT_LIST_HEAD(&req->node);
	req->skb = skb_get(skb);
	/* netlink_ack() only reads it, but takes it non-const. */
	req->nlh = (struct nlmsghdr *)info->nlhdr;
	req->ssk = NETLINK_CB(skb).sk;
	sock_hold(req->ssk);
	req->portid = info->snd_portid;
	req->cmd = info->genlhdr->cmd;
	req->cfg = cfg;
	req->owner_portid = owner_portid;
	if (owner_portid) {
		spin_lock(&ktp_genl_reqs_lock);
		list_add_tail(&req->node, &ktp_genl_reqs);
		spin_unlock(&ktp_genl_reqs_lock);
	}
	queue_work(ktp_ctl_wq, &req->work);
	return -EINTR;
}

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
	if (a[KTP_A_CLOCK])
		cfg->clock = nla_get_u32(a[KTP_A_CLOCK]);
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
	if (a[KTP_A_SAMPLE_CGROUP])
		cfg->sample_cgroup_id = nla_get_u64(a[KTP_A_SAMPLE_CGROUP]);
	if (a[KTP_A_STACKS]) {
		cfg->stacks = nla_get_u32(a[KTP_A_STACKS]);
		if (cfg->stacks == KTP_STACKS_USER) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[KTP_A_STACKS],
					    "user stacks need offcpu or waker");
			ret = -EINVAL;
			goto out;
		}
	}
	if (a[KTP_A_PROBES]) {
		unsigned int len = nla_len(a[KTP_A_PROBES]);
		struct ktp_dyn_set *dyn;

		if (!len || len % sizeof(struct ktp_probe_spec)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[KTP_A_PROBES],
					    "malformed probe list");
			ret = -EINVAL;
			goto out;
		}
		/* Here, where the sender's credentials are. */
		dyn = ktp_dyn_prepare(nla_data(a[KTP_A_PROBES]),
				      len / sizeof(struct ktp_probe_spec),
				      netlink_capable(skb, CAP_SYS_ADMIN),
				      err, sizeof(err));
		if (IS_ERR(dyn)) {
			ret = PTR_ERR(dyn);
			goto out_msg;
		}
		cfg->dyn = dyn;
	}
	/* The start itself may wait: not here (see the top). */
	return ktp_genl_defer(skb, info, cfg,
			      nla_get_flag(a[KTP_A_STOP_WITH_OWNER]) ?
			      info->snd_portid : 0);
out_msg:
	if (ret && err[0])
		ktp_set_err_msg(info->extack, err);
out:
	ktp_dyn_free(cfg->dyn);
	kfree(cfg);
	return ret;
}

/* Stop, flush, meta: permitted, then done by ktp_genl_req_fn(). */
static int ktp_genl_deferred(struct sk_buff *skb, struct genl_info *info)
{
	if (!ktp_genl_permitted(skb, info->extack))
		return -EPERM;
	return ktp_genl_defer(skb, info, NULL, 0);
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
	    nla_put_u8(msg, KTP_A_OVERWRITE, s->cfg.overwrite) ||
	    nla_put_u32(msg, KTP_A_CLOCK, s->clock) ||
	    nla_put_u32(msg, KTP_A_STACKS, s->cfg.stacks))
		return -EMSGSIZE;
	{
		u64 st[2 * KTP_MAX_PROBES];
		unsigned int n = ktp_dyn_stats(st, KTP_MAX_PROBES);

		if (n && nla_put(msg, KTP_A_PROBE_STATS, n * 2 * sizeof(u64), st))
			return -EMSGSIZE;
	}
	if (s->cfg.events & ~ktp_events_unavailable() & KTP_EV_SCX) {
		char hooks[128];

		ktp_scx_hooks(hooks, sizeof(hooks));
		if (nla_put_string(msg, KTP_A_SCX_HOOKS, hooks))
			return -EMSGSIZE;
	}
	return 0;
}

/* The meta reply, from the work item (as genlmsg_reply() would). */
static int ktp_genl_get_meta_now(struct ktp_genl_req *req)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, req->portid, req->nlh->nlmsg_seq,
			  &ktp_genl_family, 0, KTP_CMD_GET_META);
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
	return genlmsg_unicast(&init_net, msg, req->portid);
err:
	nlmsg_free(msg);
	return ret;
}

static int ktp_put_cpu_stats(struct sk_buff *msg, int cpu)
{
	struct ktp_cpu *kc = per_cpu_ptr(&ktp_cpus, cpu);
	u64 st[KTP_NR_STATS], dropped[KTP_REC_NR_TYPES];
	struct nlattr *nest;
	unsigned int i, t;

	ktp_cpu_stats(kc, st);
	for (t = 0; t < KTP_REC_NR_TYPES; t++)
		dropped[t] = ktp_cpu_dropped(kc, t);
	nest = nla_nest_start(msg, KTP_A_CPU_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, KTP_CA_CPU, cpu))
		goto cancel;
	for (i = 0; i < KTP_NR_STATS; i++)
		if (nla_put_u64_64bit(msg, ktp_stat_descs[i].attr, st[i], KTP_CA_PAD))
			goto cancel;
	if (nla_put(msg, KTP_CA_DROPPED, sizeof(dropped), dropped))
		goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* Before a dump: refused here, the requester gets the error as its ack. */
static int ktp_genl_stats_start(struct netlink_callback *cb)
{
	return ktp_genl_permitted(cb->skb, cb->extack) ? 0 : -EPERM;
}

/*
 * One message per CPU that has a buffer; cb->args[0] is the next CPU. No
 * lock, since the first part runs under cb_lock (see the top): the
 * counters are read as they are, which a start clears meanwhile.
 */
static int ktp_genl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	int cpu;

	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++) {
		void *hdr;

		if (!cpu_possible(cpu) ||
		    READ_ONCE(ktp_session.state) == KTP_SESSION_IDLE ||
		    !per_cpu_ptr(&ktp_cpus, cpu)->stats[KTP_STAT_SUBBUFS])
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
		.doit = ktp_genl_deferred,
	},
	{
		.cmd = KTP_CMD_FLUSH,
		.policy = ktp_empty_policy,
		.maxattr = KTP_A_MAX,
		.doit = ktp_genl_deferred,
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
		.doit = ktp_genl_deferred,
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
	 * Not under the global genl mutex, which a long operation would hold;
	 * ktp_ctl_wq orders the operations (see the top).
	 */
	.parallel_ops = true,
};

int ktp_genl_init(void)
{
	int ret;

	INIT_WORK(&ktp_owner_gone_work, ktp_owner_gone_fn);
	ktp_ctl_wq = alloc_ordered_workqueue("ktprof_ctl", 0);
	if (!ktp_ctl_wq)
		return -ENOMEM;
	ret = netlink_register_notifier(&ktp_netlink_nb);
	if (ret)
		goto out_wq;
	ret = genl_register_family(&ktp_genl_family);
	if (ret)
		goto out_notifier;
	return 0;
out_notifier:
	netlink_unregister_notifier(&ktp_netlink_nb);
out_wq:
	destroy_workqueue(ktp_ctl_wq);
	return ret;
}

/* No new requests; those queued are refused (acked with ENODEV). */
void ktp_genl_exit(void)
{
	genl_unregister_family(&ktp_genl_family);
	WRITE_ONCE(ktp_ctl_closing, true);
	destroy_workqueue(ktp_ctl_wq);
	netlink_unregister_notifier(&ktp_netlink_nb);
	cancel_work_sync(&ktp_owner_gone_work);
}

MODULE_ALIAS_GENL_FAMILY(KTP_GENL_NAME);
