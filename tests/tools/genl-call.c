// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: one operation of the module's netlink family, through the
 * same client library the recorder uses. Prints the result; the exit status
 * is 0 on success, else the errno value (EPERM = 1, ...), 100 for usage.
 *
 * usage: genl-call meta | stats | stop | flush | resolve FAMILY
 *        genl-call start [events=MASK] [subbuf=N] [n=N] [cpus=LIST] [overwrite=0|1] [owned=0|1]
 *                        [samples=SPECS] [counters=SPECS] [comm=NAME]
 *
 * "resolve FAMILY" needs no module: one CTRL_CMD_GETFAMILY round trip, the
 * family's id printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "record/control-client.h"

/* A generic netlink family's id, from nlctrl: 0 or an errno value. */
static int resolve(const char *family)
{
	struct nl_sock *sk = nl_socket_alloc();
	int id = -NLE_NOMEM;

	if (sk && !(id = genl_connect(sk)))
		id = genl_ctrl_resolve(sk, family);
	nl_socket_free(sk);
	if (id < 0) {
		printf("resolve %s: %s\n", family, nl_geterror(id));
		return id == -NLE_OBJ_NOTFOUND ? ENOENT : EIO;
	}
	printf("resolve %s: id %d\n", family, id);
	return 0;
}

static int report(struct control_client *c, const char *op, int ret)
{
	if (ret) {
		printf("%s: error %d (%s) %s\n", op, -ret, strerror(-ret),
		       control_client_message(c));
		return -ret;
	}
	printf("%s: ok\n", op);
	return 0;
}

int main(int argc, char **argv)
{
	struct session_config cfg = { .overwrite = -1 };
	struct cpu_stats *st;
	struct meta m;
	struct control_client *c;
	unsigned int n, i;
	int ret;

	if (argc < 2)
		return 100;
	if (!strcmp(argv[1], "resolve"))
		return argc == 3 ? resolve(argv[2]) : 100;
	c = control_client_open();
	if (!c) {
		printf("open: error %d (%s)\n", errno, strerror(errno));
		return errno;
	}
	if (!strcmp(argv[1], "meta")) {
		ret = control_client_get_meta(c, &m);
		if (!ret)
			printf("abi=%u.%u kernel=%s nr_cpus=%u state=%s events=0x%x unavailable=0x%x session=%" PRIu64 "\n",
			       m.abi_major, m.abi_minor, m.kernel, m.nr_cpus, m.state,
			       m.events, m.events_unavailable, m.session_id);
		ret = report(c, "meta", ret);
	} else if (!strcmp(argv[1], "stats")) {
		ret = control_client_get_stats(c, &st, &n);
		for (i = 0; !ret && i < n; i++)
			printf("cpu=%u records=%" PRIu64 " bytes=%" PRIu64 " lost=%" PRIu64
			       " samples=%" PRIu64 "\n", st[i].cpu, st[i].records,
			       st[i].bytes, st[i].lost, st[i].samples);
		if (!ret)
			free(st);
		ret = report(c, "stats", ret);
	} else if (!strcmp(argv[1], "stop")) {
		ret = report(c, "stop", control_client_stop(c));
	} else if (!strcmp(argv[1], "flush")) {
		ret = report(c, "flush", control_client_flush(c));
	} else if (!strcmp(argv[1], "start")) {
		for (i = 2; i < (unsigned int)argc; i++) {
			char *v = strchr(argv[i], '=');

			if (!v)
				return 100;
			*v++ = '\0';
			if (!strcmp(argv[i], "events"))
				cfg.events = strtoul(v, NULL, 0);
			else if (!strcmp(argv[i], "subbuf"))
				cfg.subbuf_size = strtoul(v, NULL, 0);
			else if (!strcmp(argv[i], "n"))
				cfg.n_subbufs = strtoul(v, NULL, 0);
			else if (!strcmp(argv[i], "cpus"))
				cfg.cpus = v;
			else if (!strcmp(argv[i], "overwrite"))
				cfg.overwrite = atoi(v);
			else if (!strcmp(argv[i], "samples"))
				cfg.samples = v;
			else if (!strcmp(argv[i], "counters"))
				cfg.counters = v;
			else if (!strcmp(argv[i], "comm"))
				cfg.sample_comm = v;
			else if (!strcmp(argv[i], "owned"))
				cfg.stop_with_owner = atoi(v);
			else
				return 100;
		}
		ret = report(c, "start", control_client_start(c, &cfg));
	} else {
		ret = 100;
	}
	control_client_close(c);
	return ret;
}
