// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof: BPF-free scheduler tracing and CPU profiling.
 *
 * Module init/exit: creates /sys/kernel/debug/ktprof/ and removes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>

static struct dentry *ktp_debugfs_dir;

static int __init ktp_init(void)
{
	ktp_debugfs_dir = debugfs_create_dir("ktprof", NULL);
	if (IS_ERR(ktp_debugfs_dir)) {
		pr_err("cannot create debugfs directory: %ld\n",
		       PTR_ERR(ktp_debugfs_dir));
		return PTR_ERR(ktp_debugfs_dir);
	}
	return 0;
}

static void __exit ktp_exit(void)
{
	debugfs_remove_recursive(ktp_debugfs_dir);
}

module_init(ktp_init);
module_exit(ktp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ktprof: BPF-free scheduler tracing and CPU profiling");
