// SPDX-License-Identifier: GPL-2.0
/* What the commands that run a session (record, top) do with the module first. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "decode/meta.h"
#include "ktprof_abi.h"
#include "record/control-client.h"

/* Connect to the module, loading it with --load if needed. */
struct control_client *cmd_module_connect(const char *cmd, const char *load, int *loaded)
{
	struct control_client *ctl = control_client_open();
	int fd;

	if (ctl || errno != ENOENT)
		goto out;
	if (!load) {
		cmd_error(cmd, "the ktprof module is not loaded: insmod ktprof.ko first, or use --load PATH");
		return NULL;
	}
	fd = open(load, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
		cmd_error(cmd, "cannot load %s: %s", load, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	*loaded = 1;
	ctl = control_client_open();
out:
	if (!ctl)
		cmd_error(cmd, "cannot reach the module over netlink: %s%s",
			  strerror(errno), errno == EPERM ? " (run as root)" : "");
	return ctl;
}

int cmd_module_check(const char *cmd, struct control_client *ctl, int want_probes)
{
	struct meta m;
	int ret = control_client_get_meta(ctl, &m);

	if (ret) {
		cmd_error(cmd, "module metadata: %s%s", strerror(-ret),
			  ret == -EPERM ? " (run as root)" : "");
		return ret;
	}
	if (m.abi_major != KTP_ABI_MAJOR) {
		cmd_error(cmd, "the module writes record ABI %u.%u; this ktprof reads %u.x",
			  m.abi_major, m.abi_minor, KTP_ABI_MAJOR);
		return -EPROTO;
	}
	/* Probes' specs changed size at 1.7 (USDT, stacks): an older one refuses them. */
	if (want_probes && m.abi_minor < 7) {
		cmd_error(cmd, "--probe needs the module of this ktprof (record ABI 1.7; it writes %u.%u): reload it",
			  m.abi_major, m.abi_minor);
		return -EPROTO;
	}
	if (!strcmp(m.state, "running")) {
		cmd_error(cmd, "a session is already running (stop it: echo stop > /sys/kernel/debug/ktprof/control)");
		return -EBUSY;
	}
	return 0;
}
