// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "record/control-client.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct control_client {
	struct nl_sock *sock;
	int family;
	char message[256];	/* extack message of the last error */
};

/* libnl error codes back to errno values. */
static int nl_to_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case 0: return 0;
	case NLE_PERM: return -EPERM;
	case NLE_INVAL: return -EINVAL;
	case NLE_BUSY: return -EBUSY;
	case NLE_NOMEM: return -ENOMEM;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	case NLE_AGAIN: return -EAGAIN;
	case NLE_OPNOTSUPP: return -EOPNOTSUPP;
	case NLE_NOACCESS: return -EACCES;
	case NLE_RANGE: return -ERANGE;
	case NLE_MSGSIZE: return -EMSGSIZE;
	default: return -EIO;
	}
}

struct control_client *control_client_open(void)
{
	struct control_client *c = calloc(1, sizeof(*c));
	int one = 1, ret;

	if (!c)
		return NULL;
	c->sock = nl_socket_alloc();
	if (!c->sock) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	ret = genl_connect(c->sock);
	if (ret < 0)
		goto fail;
	/* Error messages from the kernel (extack), without the echo. */
	setsockopt(nl_socket_get_fd(c->sock), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(c->sock), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sock, KTP_GENL_NAME);
	if (c->family < 0) {
		ret = c->family;
		goto fail;
	}
	/* Requests ask for their ack themselves; dumps end with DONE. */
	nl_socket_disable_auto_ack(c->sock);
	return c;
fail:
	nl_socket_free(c->sock);
	free(c);
	errno = -nl_to_errno(ret);
	return NULL;
}

void control_client_close(struct control_client *c)
{
	if (!c)
		return;
	nl_socket_free(c->sock);
	free(c);
}

const char *control_client_message(const struct control_client *c)
{
	return c->message;
}

/* One request in flight: what its callbacks collect. */
struct control_request {
	struct control_client *c;
	int done;
	int error;		/* -errno from the kernel's error ack */
	int (*on_msg)(struct nlattr **attrs, void *arg);
	void *arg;
	int cb_error;		/* on_msg's failure */
};

/* Keep the error and the kernel's NLMSGERR_ATTR_MSG, if any. */
static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct control_request *r = arg;
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);
	struct nlattr *attrs[NLMSGERR_ATTR_MAX + 1];
	int hdrlen = sizeof(*err);

	(void)nla;
	r->error = err->error;
	r->done = 1;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hdrlen += err->msg.nlmsg_len - NLMSG_HDRLEN;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    !nlmsg_parse(nlh, hdrlen, attrs, NLMSGERR_ATTR_MAX, NULL) &&
	    attrs[NLMSGERR_ATTR_MSG])
		snprintf(r->c->message, sizeof(r->c->message), "%s",
			 nla_get_string(attrs[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

static int on_done(struct nl_msg *msg, void *arg)
{
	struct control_request *r = arg;

	(void)msg;
	r->done = 1;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct control_request *r = arg;
	struct nlattr *attrs[KTP_A_MAX + 1];
	int ret;

	if (!r->on_msg)
		return NL_OK;
	ret = genlmsg_parse(nlmsg_hdr(msg), 0, attrs, KTP_A_MAX, NULL);
	if (ret >= 0)
		ret = r->on_msg(attrs, r->arg);
	if (ret < 0 && !r->cb_error)
		r->cb_error = ret;
	return NL_OK;
}

/*
 * Send @msg and collect the answer: replies go to @on_msg; it ends with the
 * ack (doit) or NLMSG_DONE (dump). Returns 0 or -errno.
 */
static int transact(struct control_client *c, struct nl_msg *msg,
		    int (*on_msg)(struct nlattr **, void *), void *arg)
{
	struct control_request r = { .c = c, .on_msg = on_msg, .arg = arg };
	struct nl_cb *cb;
	int ret;

	c->message[0] = '\0';
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
	ret = nl_send_auto(c->sock, msg);
	nlmsg_free(msg);
	while (ret >= 0 && !r.done)
		ret = nl_recvmsgs(c->sock, cb);
	nl_cb_put(cb);
	if (r.error)
		return r.error;
	if (ret < 0)
		return nl_to_errno(ret);
	return r.cb_error;
}

static struct nl_msg *new_request(struct control_client *c, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0, flags,
			 cmd, KTP_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int simple(struct control_client *c, uint8_t cmd)
{
	struct nl_msg *msg = new_request(c, cmd, NLM_F_ACK);

	return msg ? transact(c, msg, NULL, NULL) : -ENOMEM;
}

int control_client_start(struct control_client *c, const struct session_config *cfg)
{
	struct nl_msg *msg = new_request(c, KTP_CMD_START, NLM_F_ACK);

	if (!msg)
		return -ENOMEM;
	if ((cfg->events && nla_put_u32(msg, KTP_A_EVENTS, cfg->events)) ||
	    (cfg->subbuf_size &&
	     nla_put_u32(msg, KTP_A_SUBBUF_SIZE, cfg->subbuf_size)) ||
	    (cfg->n_subbufs && nla_put_u32(msg, KTP_A_N_SUBBUFS, cfg->n_subbufs)) ||
	    (cfg->cpus && nla_put_string(msg, KTP_A_CPUS, cfg->cpus)) ||
	    (cfg->overwrite >= 0 &&
	     nla_put_u8(msg, KTP_A_OVERWRITE, cfg->overwrite)) ||
	    (cfg->clock && nla_put_u32(msg, KTP_A_CLOCK, cfg->clock)) ||
	    (cfg->samples && nla_put_string(msg, KTP_A_SAMPLES, cfg->samples)) ||
	    (cfg->counters && nla_put_string(msg, KTP_A_COUNTERS, cfg->counters)) ||
	    (cfg->nr_sample_pids &&
	     nla_put(msg, KTP_A_SAMPLE_PIDS, cfg->nr_sample_pids * sizeof(uint32_t),
		     cfg->sample_pids)) ||
	    (cfg->sample_comm &&
	     nla_put_string(msg, KTP_A_SAMPLE_COMM, cfg->sample_comm)) ||
	    (cfg->sample_cgroup &&
	     nla_put_u64(msg, KTP_A_SAMPLE_CGROUP, cfg->sample_cgroup)) ||
	    (cfg->stacks && nla_put_u32(msg, KTP_A_STACKS, cfg->stacks)) ||
	    (cfg->nr_probes &&
	     nla_put(msg, KTP_A_PROBES, cfg->nr_probes * sizeof(*cfg->probes), cfg->probes)) ||
	    (cfg->stop_with_owner && nla_put_flag(msg, KTP_A_STOP_WITH_OWNER))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return transact(c, msg, NULL, NULL);
}

int control_client_stop(struct control_client *c)
{
	return simple(c, KTP_CMD_STOP);
}

int control_client_flush(struct control_client *c)
{
	return simple(c, KTP_CMD_FLUSH);
}

static uint64_t get_u64(struct nlattr **a, int type)
{
	return a[type] ? nla_get_u64(a[type]) : 0;
}

static uint32_t get_u32(struct nlattr **a, int type)
{
	return a[type] ? nla_get_u32(a[type]) : 0;
}

static int parse_meta(struct nlattr **a, void *arg)
{
	static const char *const states[] = { "idle", "running", "stopped" };
	struct meta *m = arg;
	uint32_t state;

	memset(m, 0, sizeof(*m));
	if (!a[KTP_A_ABI_MAJOR] || !a[KTP_A_RELEASE] || !a[KTP_A_NR_CPUS])
		return -EPROTO;
	m->abi_major = get_u32(a, KTP_A_ABI_MAJOR);
	m->abi_minor = get_u32(a, KTP_A_ABI_MINOR);
	snprintf(m->kernel, sizeof(m->kernel), "%s",
		 nla_get_string(a[KTP_A_RELEASE]));
	m->nr_cpus = get_u32(a, KTP_A_NR_CPUS);
	state = get_u32(a, KTP_A_STATE);
	snprintf(m->state, sizeof(m->state), "%s", state < 3 ? states[state] : "?");
	m->events_unavailable = get_u32(a, KTP_A_EVENTS_UNAVAIL);
	if (a[KTP_A_SESSION_ID]) {
		m->have_session = 1;
		m->session_id = get_u64(a, KTP_A_SESSION_ID);
		m->clock_boot = get_u64(a, KTP_A_CLOCK_BOOT);
		m->clock_mono = get_u64(a, KTP_A_CLOCK_MONO);
		m->clock_real = get_u64(a, KTP_A_CLOCK_REAL);
		m->events = get_u32(a, KTP_A_EVENTS);
		if (a[KTP_A_SCX_HOOKS])
			snprintf(m->scx_hooks, sizeof(m->scx_hooks), "%s",
				 nla_get_string(a[KTP_A_SCX_HOOKS]));
		m->subbuf_size = get_u32(a, KTP_A_SUBBUF_SIZE);
		m->n_subbufs = get_u32(a, KTP_A_N_SUBBUFS);
		m->overwrite = a[KTP_A_OVERWRITE] ? nla_get_u8(a[KTP_A_OVERWRITE]) : 0;
		/* A module before ABI 1.8 stamps with boot time. */
		snprintf(m->clock, sizeof(m->clock), "%s",
			 get_u32(a, KTP_A_CLOCK) == KTP_CLOCK_TSC ? "tsc" : "boot");
	}
	return 0;
}

int control_client_get_meta(struct control_client *c, struct meta *m)
{
	struct nl_msg *msg = new_request(c, KTP_CMD_GET_META, NLM_F_ACK);
	int ret;

	if (!msg)
		return -ENOMEM;
	m->nr_cpus = 0;
	ret = transact(c, msg, parse_meta, m);
	if (!ret && !m->nr_cpus)
		ret = -EPROTO;	/* acked without a reply */
	return ret;
}

struct probe_stats_acc {
	uint64_t *v;
	unsigned int max, n;
};

static int parse_probe_stats(struct nlattr **a, void *arg)
{
	struct probe_stats_acc *acc = arg;
	unsigned int n;

	if (!a[KTP_A_PROBE_STATS])
		return NL_OK;
	n = nla_len(a[KTP_A_PROBE_STATS]) / (2 * sizeof(uint64_t));
	acc->n = n < acc->max ? n : acc->max;
	memcpy(acc->v, nla_data(a[KTP_A_PROBE_STATS]), acc->n * 2 * sizeof(uint64_t));
	return NL_OK;
}

int control_client_probe_stats(struct control_client *c, uint64_t *v, unsigned int max,
			       unsigned int *n)
{
	struct nl_msg *msg = new_request(c, KTP_CMD_GET_META, NLM_F_ACK);
	struct probe_stats_acc acc = { v, max, 0 };
	int ret;

	if (!msg)
		return -ENOMEM;
	ret = transact(c, msg, parse_probe_stats, &acc);
	*n = acc.n;
	return ret;
}

struct stats_acc {
	struct cpu_stats *v;
	unsigned int n, cap;
};

static int parse_cpu_stats(struct nlattr **a, void *arg)
{
	/* Counters too short for a u64 make the reply bad, not read past. */
#define U64(NAME, NR, name, help) [KTP_CA_##NAME] = { .type = NLA_U64 },
	static struct nla_policy policy[KTP_CA_MAX + 1] = {
		[KTP_CA_CPU] = { .type = NLA_U32 },
		KTP_CPU_STATS(U64)
	};
#undef U64
	struct nlattr *ca[KTP_CA_MAX + 1];
	struct stats_acc *acc = arg;
	struct cpu_stats *s;

	if (!a[KTP_A_CPU_STATS] ||
	    nla_parse_nested(ca, KTP_CA_MAX, a[KTP_A_CPU_STATS], policy) < 0 ||
	    !ca[KTP_CA_CPU])
		return -EPROTO;
	if (acc->n == acc->cap) {
		unsigned int cap = acc->cap ? acc->cap * 2 : 16;
		struct cpu_stats *nv = realloc(acc->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		acc->v = nv;
		acc->cap = cap;
	}
	s = &acc->v[acc->n++];
	memset(s, 0, sizeof(*s));
	s->cpu = nla_get_u32(ca[KTP_CA_CPU]);
	/* A counter an older module does not send stays 0. */
#define GET(NAME, NR, name, help) s->name = get_u64(ca, KTP_CA_##NAME);
	KTP_CPU_STATS(GET)
#undef GET
	if (ca[KTP_CA_DROPPED]) {
		size_t len = nla_len(ca[KTP_CA_DROPPED]);

		/* A newer module may know more types: keep ours. */
		if (len > sizeof(s->dropped))
			len = sizeof(s->dropped);
		memcpy(s->dropped, nla_data(ca[KTP_CA_DROPPED]), len);
	}
	return 0;
}

int control_client_get_stats(struct control_client *c, struct cpu_stats **stats,
		      unsigned int *n)
{
	struct nl_msg *msg = new_request(c, KTP_CMD_GET_STATS, NLM_F_DUMP);
	struct stats_acc acc = { 0 };
	int ret;

	if (!msg)
		return -ENOMEM;
	ret = transact(c, msg, parse_cpu_stats, &acc);
	if (ret) {
		free(acc.v);
		return ret;
	}
	*stats = acc.v;
	*n = acc.n;
	return 0;
}
