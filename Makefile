# SPDX-License-Identifier: GPL-2.0
#
# ktprof top-level Makefile.
#
#   make                 kmod/ktprof.ko (against KDIR) and user/ktprof
#   make modules-all     the module against every test kernel, -Werror
#   make check           setup, build, unit tests, VM tests on all kernels
#   make check-busy      make check with a CPU hog on every host core
#   make unit            unit tests only (ASan + UBSan)
#   make vm-test         VM tests only (KERNELS="6.12 6.1 7.3 scx", TESTS=...)
#   make demo            the end-to-end demo in a VM
#   make bench           benchmarks (not part of check)
#   make fuzz            the libFuzzer harnesses, FUZZ_SECONDS each
#   make man             man pages into build/man/, bash completion into build/
#   make install         ktprof, man pages, completion, docs, DKMS module source
#                        (PREFIX=/usr/local, DESTDIR); make uninstall undoes it
#   make deb             Debian packages ktprof and ktprof-dkms in build/deb/

# Default: the primary test kernel (newest installed Debian 6.12). On a real
# host: make KDIR=/lib/modules/$(uname -r)/build
KDIR ?= $(or $(shell scripts/kernels.sh 6.12 2>/dev/null | cut -d' ' -f3),/lib/modules/$(shell uname -r)/build)

# The test kernels VM tests and modules-all use (scripts/kernels.sh names).
KERNELS ?= 6.12 6.1 7.3 scx

CC ?= gcc
NPROC := $(shell nproc 2>/dev/null || echo 1)
BUILD := build
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wno-format-nonliteral
CFLAGS ?= -O2 -g
# trace-cmd's trace.dat (capture/tracedat.c): Debian's libtracecmd and
# libtraceevent; their headers as system headers (not held to our warnings).
TRACECMD_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags libtracecmd libtraceevent 2>/dev/null))
TRACECMD_LIBS := $(shell pkg-config --libs libtracecmd libtraceevent 2>/dev/null)
USER_CFLAGS := $(CFLAGS) $(CPPFLAGS) -std=gnu11 -D_GNU_SOURCE $(WARN) -Iuser -Ikmod/include/uapi -I$(BUILD)/proto \
	$(shell pkg-config --cflags libnl-3.0 libnl-genl-3.0 libprotobuf-c json-c sqlite3 ncursesw 2>/dev/null) \
	$(TRACECMD_CFLAGS)
USER_LIBS := $(shell pkg-config --libs libnl-genl-3.0 libnl-3.0 libprotobuf-c json-c sqlite3 ncursesw 2>/dev/null) \
	$(TRACECMD_LIBS) \
	-lelf -ldeflate -lz -lpthread -lm
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

PROTOS := $(wildcard proto/*.proto)
PROTO_C := $(patsubst proto/%.proto,$(BUILD)/proto/%.pb-c.c,$(PROTOS))
PROTO_H := $(PROTO_C:.c=.h)

# user/ in layers (docs/design.md): everything but the commands (user/cmd/)
# and main (user/ktprof.c) is the library, libktprof.a, which the binary,
# the unit tests and the test tools link.
LAYERS := util decode capture symbols model perfetto report tables record mcp top
LIB_SRC := $(foreach d,$(LAYERS),$(wildcard user/$(d)/*.c))
CMD_SRC := user/ktprof.c $(wildcard user/cmd/*.c)
LIB_OBJ := $(patsubst user/%.c,$(BUILD)/user/%.o,$(LIB_SRC)) \
	$(patsubst %.c,%.o,$(PROTO_C))
CMD_OBJ := $(patsubst user/%.c,$(BUILD)/user/%.o,$(CMD_SRC))
SAN_OBJ := $(patsubst user/%.c,$(BUILD)/san/%.o,$(LIB_SRC)) \
	$(patsubst $(BUILD)/proto/%.c,$(BUILD)/san/proto-%.o,$(PROTO_C))
SAN_CMD_OBJ := $(patsubst user/%.c,$(BUILD)/san/%.o,$(CMD_SRC))
LIB := $(BUILD)/libktprof.a
SAN_LIB := $(BUILD)/libktprof-san.a

# Test-support code (synthetic streams), linked into unit tests and tools.
TESTLIB_SRC := $(wildcard tests/lib/*.c)
TESTLIB_OBJ := $(patsubst tests/lib/%.c,$(BUILD)/testlib/%.o,$(TESTLIB_SRC))
SAN_TESTLIB_OBJ := $(patsubst tests/lib/%.c,$(BUILD)/san/testlib-%.o,$(TESTLIB_SRC))

UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRC))
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(TOOL_SRC))
# libFuzzer harnesses (tests/fuzz/fuzz-*.c): clang, with the library built
# a third time, instrumented for coverage, under ASan + UBSan.
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
# clang, unlike gcc, counts { NULL } as missing the other fields.
FUZZ_CFLAGS := $(USER_CFLAGS) -O1 -g $(FUZZ_SAN) -Wno-missing-field-initializers
FUZZ_OBJ := $(patsubst user/%.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRC)) \
	$(patsubst $(BUILD)/proto/%.c,$(BUILD)/fuzz/obj/proto-%.o,$(PROTO_C))
FUZZ_LIB := $(BUILD)/libktprof-fuzz.a
FUZZ_SRC := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 600

WORKLOAD_SRC := $(wildcard tests/workloads/*.c)
WORKLOAD_BIN := $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WORKLOAD_SRC))

.PHONY: all module user modules-all unit vm-test check check-busy demo bench clean setup \
	tests-bin checkpatch fuzz fuzz-bin

all: module user

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

user: user/ktprof

user/ktprof: $(CMD_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CMD_OBJ) $(LIB) $(USER_LIBS)

# The binary under ASan + UBSan, for the command-line tests of bad input.
$(BUILD)/ktprof-san: $(SAN_CMD_OBJ) $(SAN_LIB)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $(SAN_CMD_OBJ) $(SAN_LIB) $(USER_LIBS)

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(SAN_LIB): $(SAN_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/proto/%.pb-c.c $(BUILD)/proto/%.pb-c.h: proto/%.proto
	@mkdir -p $(BUILD)/proto
	protoc-c --proto_path=proto --c_out=$(BUILD)/proto $<

# Generated code is not ours: compile it without -Werror.
$(BUILD)/proto/%.pb-c.o: $(BUILD)/proto/%.pb-c.c
	$(CC) $(CFLAGS) -I$(BUILD)/proto -c -o $@ $<

$(BUILD)/user/%.o: user/%.c $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/san/%.o: user/%.c $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/san/proto-%.o: $(BUILD)/proto/%.c
	@mkdir -p $(BUILD)/san
	$(CC) $(SAN_FLAGS) -I$(BUILD)/proto -c -o $@ $<

$(BUILD)/san/testlib-%.o: tests/lib/%.c | $(BUILD)/testlib
	$(CC) $(USER_CFLAGS) $(SAN_FLAGS) -Itests/lib -MMD -MP -c -o $@ $<

$(BUILD)/testlib/%.o: tests/lib/%.c | $(BUILD)/testlib
	$(CC) $(USER_CFLAGS) -Itests/lib -MMD -MP -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c tests/unit/unit.h $(SAN_LIB) $(SAN_TESTLIB_OBJ) | $(BUILD)/unit
	$(CC) $(USER_CFLAGS) $(SAN_FLAGS) -Itests/unit -Itests/lib -o $@ $< \
		$(SAN_TESTLIB_OBJ) $(SAN_LIB) $(USER_LIBS)

$(BUILD)/tools/%: tests/tools/%.c $(LIB) $(TESTLIB_OBJ) | $(BUILD)/tools
	$(CC) $(USER_CFLAGS) -Itests/lib -o $@ $< $(TESTLIB_OBJ) $(LIB) $(USER_LIBS)

# A FUSE daemon (libfuse3) for vm/fuse-file: not a client of the library.
$(BUILD)/tools/fuse-gate: tests/tools/fuse-gate.c | $(BUILD)/tools
	$(CC) $(CFLAGS) $(CPPFLAGS) -std=gnu11 -D_GNU_SOURCE $(WARN) \
		$(shell pkg-config --cflags fuse3) -o $@ $< $(shell pkg-config --libs fuse3)

$(FUZZ_LIB): $(FUZZ_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/fuzz/obj/%.o: user/%.c $(PROTO_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(BUILD)/fuzz/obj/proto-%.o: $(BUILD)/proto/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -I$(BUILD)/proto -c -o $@ $<

$(BUILD)/fuzz/obj/fuzz.o: tests/fuzz/fuzz.c tests/fuzz/fuzz.h $(PROTO_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h tests/fuzz/pack.h \
		$(BUILD)/fuzz/obj/fuzz.o $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Itests/fuzz -o $@ $< \
		$(BUILD)/fuzz/obj/fuzz.o $(FUZZ_LIB) $(USER_LIBS)

# What the fuzz suite needs: the harnesses, and gen-capture and the
# workloads for their seed corpora.
fuzz-bin: $(FUZZ_BIN) $(TOOL_BIN) $(WORKLOAD_BIN)

fuzz: fuzz-bin
	@tests/fuzz/run.sh --seconds $(FUZZ_SECONDS)

# Workloads are test subjects: frame pointers on, symbols kept.
$(BUILD)/workloads/%: tests/workloads/%.c | $(BUILD)/workloads
	$(CC) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -o $@ $< -lpthread

$(BUILD)/unit $(BUILD)/tools $(BUILD)/workloads $(BUILD)/testlib:
	mkdir -p $@

tests-bin: user $(BUILD)/ktprof-san $(UNIT_BIN) $(TOOL_BIN) $(WORKLOAD_BIN)

modules-all:
	@scripts/build-module.sh $(KERNELS)

unit: $(UNIT_BIN)
	@tests/run-unit.sh $(UNIT_BIN)

vm-test: tests-bin modules-all
	@tests/vm/run.sh $(addprefix --kernel ,$(KERNELS)) $(TESTS)

setup:
	@scripts/setup.sh

check-busy:
	@scripts/setup.sh
	@scripts/busy.sh $(MAKE) --no-print-directory check

# The user-space builds (the library three times over: plain, sanitized,
# fuzzing) on every core; the kernel builds (scripts/build-module.sh, the
# debug kernel) and the package one after another, each parallel inside.
check: export KTPROF_CHECK_START := $(shell date +%s)
check:
	@scripts/setup.sh
	@$(MAKE) --no-print-directory -j$(NPROC) all tests-bin fuzz-bin
	@$(MAKE) --no-print-directory modules-all deb
	@tests/run-all.sh

demo:
	@scripts/setup.sh
	@$(MAKE) --no-print-directory user tests-bin modules-all KERNELS=6.12
	@scripts/demo.sh

bench:
	@scripts/setup.sh --bench
	@$(MAKE) --no-print-directory user tests-bin modules-all
	@tests/bench/run.sh

# Man pages and bash completion, made from the option tables that make
# --help (ktprof help --man, --completion) and from the module's source
# (scripts/man-module.sh). Dated by SOURCE_DATE_EPOCH (dpkg-buildpackage
# sets it), else by the last commit, so that a build is reproducible.
VERSION := $(shell sed -n 's/^\#define KTP_VERSION_STRING "\(.*\)"/\1/p' kmod/include/uapi/ktprof_abi.h)
MAN_CMDS := record top import info dump convert report mark diff sql export mcp
MAN_PAGES := $(BUILD)/man/ktprof.1 $(patsubst %,$(BUILD)/man/ktprof-%.1,$(MAN_CMDS)) \
	$(BUILD)/man/ktprof.ko.4
COMPLETION := $(BUILD)/completion/ktprof
MAN_EPOCH = $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null))

.PHONY: man
man: $(MAN_PAGES) $(COMPLETION)

$(BUILD)/man/ktprof.1: user/ktprof | $(BUILD)/man
	SOURCE_DATE_EPOCH=$(MAN_EPOCH) user/ktprof help --man > $@.tmp && mv $@.tmp $@

$(BUILD)/man/ktprof-%.1: user/ktprof | $(BUILD)/man
	SOURCE_DATE_EPOCH=$(MAN_EPOCH) user/ktprof help --man $* > $@.tmp && mv $@.tmp $@

$(BUILD)/man/ktprof.ko.4: scripts/man-module.sh $(wildcard kmod/*.c) kmod/include/uapi/ktprof_abi.h \
		| $(BUILD)/man
	SOURCE_DATE_EPOCH=$(MAN_EPOCH) scripts/man-module.sh $(VERSION) > $@.tmp && mv $@.tmp $@

$(COMPLETION): user/ktprof | $(BUILD)/completion
	user/ktprof help --completion bash > $@.tmp && mv $@.tmp $@

$(BUILD)/man $(BUILD)/completion:
	mkdir -p $@

# make install: the tool, its man pages, completion and docs under PREFIX,
# and the module's source with dkms.conf under /usr/src for DKMS (`dkms
# install ktprof/$(VERSION)` builds it for a kernel). DESTDIR stages it all.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/ktprof
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
DKMS_DIR ?= /usr/src/ktprof-$(VERSION)
INSTALL ?= install
DKMS_SRC := Kbuild kmod/Kbuild $(filter-out %.mod.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h) \
	kmod/include/uapi/ktprof_abi.h
DOCS := README.md $(wildcard docs/*.md)

.PHONY: install uninstall
install: user man
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man4 \
		$(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(DOCDIR)/docs
	$(INSTALL) -m 0755 user/ktprof $(DESTDIR)$(BINDIR)/ktprof
	$(INSTALL) -m 0644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 0644 $(filter %.4,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man4/
	$(INSTALL) -m 0644 $(COMPLETION) $(DESTDIR)$(BASH_COMPLETION_DIR)/ktprof
	$(INSTALL) -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 $(filter docs/%,$(DOCS)) $(DESTDIR)$(DOCDIR)/docs/
	for f in $(DKMS_SRC); do \
		$(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DKMS_DIR)/$$f || exit 1; \
	done
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > $(DESTDIR)$(DKMS_DIR)/dkms.conf
	chmod 0644 $(DESTDIR)$(DKMS_DIR)/dkms.conf

# Only what install wrote, and the directories that are ktprof's own.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ktprof $(DESTDIR)$(BASH_COMPLETION_DIR)/ktprof \
		$(patsubst $(BUILD)/man/%,$(DESTDIR)$(MANDIR)/man1/%,$(filter %.1,$(MAN_PAGES))) \
		$(patsubst $(BUILD)/man/%,$(DESTDIR)$(MANDIR)/man4/%,$(filter %.4,$(MAN_PAGES)))
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DKMS_DIR)

# make deb: the packages ktprof and ktprof-dkms (debian/) in build/deb/,
# then lintian on them. dpkg-buildpackage writes into the parent of the tree
# it builds, so it builds a copy of the tracked files in build/deb/, on
# every core (debhelper runs one job unless DEB_BUILD_OPTIONS says parallel=N).
DEB_DIR := $(BUILD)/deb
DEB_TREE := $(DEB_DIR)/ktprof-$(VERSION)

.PHONY: deb
deb:
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_TREE)
	git ls-files -z | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C $(DEB_TREE)
	cd $(DEB_TREE) && MAKEFLAGS= DEB_BUILD_OPTIONS="parallel=$(NPROC) $(DEB_BUILD_OPTIONS)" \
		dpkg-buildpackage -us -uc -b
	lintian --info $(DEB_DIR)/*.changes

checkpatch:
	@scripts/checkpatch.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf $(BUILD) user/ktprof

.SECONDARY:

-include $(wildcard $(BUILD)/user/*.d $(BUILD)/user/*/*.d $(BUILD)/san/*.d \
	$(BUILD)/san/*/*.d $(BUILD)/testlib/*.d $(BUILD)/fuzz/obj/*.d $(BUILD)/fuzz/obj/*/*.d)
