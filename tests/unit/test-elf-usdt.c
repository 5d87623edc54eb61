// SPDX-License-Identifier: GPL-2.0
/*
 * USDT probes as record --probe usdt: reads them: this test binary has its
 * own (<sys/sdt.h>, with a semaphore), so the sites' file offsets and the
 * semaphore's are checked against where they are mapped at run time
 * (/proc/self/maps); argument texts against hand-decoded places.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sdt.h>

#include "ktprof_abi.h"
#include "symbols/elf-usdt.h"
#include "self-map.h"
#include "unit.h"

unsigned short unit_twice_semaphore __attribute__((section(".probes")));
volatile long unit_usdt_global = 7;

/* Two sites of unit:twice, each with a signed int and a global in memory. */
__attribute__((noinline)) int unit_usdt_sites(int x);
__attribute__((noinline)) int unit_usdt_sites(int x)
{
	int y = x * 3;

	STAP_PROBE2(unit, twice, y, unit_usdt_global);
	y += unit_usdt_global;
	STAP_PROBE2(unit, twice, y, unit_usdt_global);
	return y;
}

UNIT_TEST(finds_own_sites_and_semaphore)
{
	uint64_t sema_at = (uintptr_t)&unit_twice_semaphore, fn_at = (uintptr_t)unit_usdt_sites;
	struct usdt_site sites[4];
	struct self_map m;
	struct error err;
	uint64_t sema, fn;
	int n;

	CHECK_EQ(unit_usdt_sites(2), 13);
	n = elf_usdt_find("/proc/self/exe", "unit", "twice", sites, 4, &err);
	CHECK_EQ(n, 2);
	CHECK_EQ(find_self_map(sema_at, &m), 0);
	sema = self_map_offset(&m, sema_at);
	CHECK_EQ(sites[0].sema_offset, sema);
	CHECK_EQ(sites[1].sema_offset, sema);
	/* Both sites are in the function, in order, apart. */
	CHECK_EQ(find_self_map(fn_at, &m), 0);
	fn = self_map_offset(&m, fn_at);
	CHECK(sites[0].offset > fn && sites[0].offset < fn + 256);
	CHECK(sites[1].offset > sites[0].offset && sites[1].offset < fn + 256);
	CHECK_EQ(sites[0].nargs, 2);
	CHECK_EQ(sites[0].args[0].size, 4);
	CHECK_EQ(sites[0].args[0].is_signed, 1);
	CHECK_EQ(sites[0].args[1].size, 8);
	CHECK_EQ(sites[0].args[1].is_signed, 1);
	/* The global from the site's ip: the same place from both sites. */
	if (sites[0].args[1].loc == USDT_MEM && sites[0].args[1].reg == KTP_REG_IP) {
		CHECK_EQ(sites[0].offset + sites[0].args[1].disp,
			 sites[1].offset + sites[1].args[1].disp);
	}
}

UNIT_TEST(refuses_unknown_probe)
{
	struct usdt_site sites[4];
	struct error err;

	CHECK_EQ(elf_usdt_find("/proc/self/exe", "unit", "never", sites, 4, &err), -ENOENT);
	CHECK(strstr(error_msg(&err), "no USDT probe unit:never") != NULL);
	CHECK_EQ(elf_usdt_find("/proc/self/exe", "unit", "twice", sites, 1, &err), -E2BIG);
	CHECK_EQ(elf_usdt_find("/dev/null", "unit", "twice", sites, 4, &err) < 0, 1);
}

UNIT_TEST(parses_argument_places)
{
	struct usdt_arg a;
	struct error err;
	char sym[64];

	CHECK_EQ(elf_usdt_parse_arg("-4@%r13d", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.loc, USDT_REG);
	CHECK_EQ(a.reg, KTP_REG_R13);
	CHECK_EQ(a.size, 4);
	CHECK_EQ(a.is_signed, 1);
	CHECK_EQ(elf_usdt_parse_arg("8@%rdi", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.reg, KTP_REG_DI);
	CHECK_EQ(a.is_signed, 0);
	CHECK_EQ(elf_usdt_parse_arg("1@%sil", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.reg, KTP_REG_SI);
	CHECK_EQ(a.size, 1);
	CHECK_EQ(elf_usdt_parse_arg("-4@$-3", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.loc, USDT_CONST);
	CHECK_EQ(a.disp, -3);
	CHECK_EQ(elf_usdt_parse_arg("-4@-20(%rbp)", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.loc, USDT_MEM);
	CHECK_EQ(a.reg, KTP_REG_BP);
	CHECK_EQ(a.disp, -20);
	CHECK_STR(sym, "");
	CHECK_EQ(elf_usdt_parse_arg("2@0x18(%rsp)", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.reg, KTP_REG_SP);
	CHECK_EQ(a.disp, 0x18);
	CHECK_EQ(elf_usdt_parse_arg("8@(%r9)", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.reg, KTP_REG_R9);
	CHECK_EQ(a.disp, 0);
	CHECK_EQ(elf_usdt_parse_arg("8@counter+8(%rip)", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.reg, KTP_REG_IP);
	CHECK_STR(sym, "counter");
	CHECK_EQ(a.disp, 8);
	CHECK_EQ(elf_usdt_parse_arg("%rax", &a, sym, sizeof(sym), &err), 0);
	CHECK_EQ(a.size, 8);
	/* What a probe cannot read is refused, each with its reason. */
	CHECK_EQ(elf_usdt_parse_arg("8@(%rax,%rbx,8)", &a, sym, sizeof(sym), &err), -EINVAL);
	CHECK(strstr(error_msg(&err), "index register") != NULL);
	CHECK_EQ(elf_usdt_parse_arg("1@%ah", &a, sym, sizeof(sym), &err), -EINVAL);
	CHECK_EQ(elf_usdt_parse_arg("3@%rax", &a, sym, sizeof(sym), &err), -EINVAL);
	CHECK_EQ(elf_usdt_parse_arg("8@%r16", &a, sym, sizeof(sym), &err), -EINVAL);
	CHECK_EQ(elf_usdt_parse_arg("8@x(%rbx)", &a, sym, sizeof(sym), &err), -EINVAL);
	CHECK_EQ(elf_usdt_parse_arg("8@$z", &a, sym, sizeof(sym), &err), -EINVAL);
}

UNIT_MAIN()
