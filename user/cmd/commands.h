/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommand entry points. Each returns an exit status: 0 ok, 1 failure,
 * 2 usage error.
 */
#ifndef KTPROF_COMMANDS_H
#define KTPROF_COMMANDS_H

int cmd_convert(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
