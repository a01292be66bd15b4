# SPDX-License-Identifier: GPL-2.0
#
# kprofctl: out-of-tree module (Kbuild) + CLI (userspace/).
#
#   make                      module against KDIR, and the CLI
#   make KDIR=... ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-   cross build
#   make W=1 / make C=2       extra warnings / sparse on the module
#   make check                unit tests, the source's shape, build checks,
#                             VM suite (arm64 6.1, 6.12, 6.1-rt, 6.1-stock,
#                             6.1-debug; amd64 6.1), the device-tree,
#                             install, flame graph, capture, top, report
#                             and Prometheus (prom-test, prom-guest-test)
#   make structure-test       source shape: file lengths, no call cycle
#                             between CLI files, commands call no command
#   make demo                 boot an arm64 VM, profile the example driver
#   make bench                instruction-count benchmark in the VM
#   make dtbs                 device-tree overlays (dts/*.dtbo, dtc -@)
#   make install              module (modules_install), CLI, man page, udev
#                             rule, bash completion (DESTDIR, PREFIX)
#   make dkms-install         register with DKMS: rebuilt on kernel upgrades

KDIR ?= /lib/modules/$(shell uname -r)/build
PROVE ?= prove --timer
# longest first: vm-test runs two at a time (prove -j2).  16 KiB pages
# and 7.3-RT are compile-checked here and run by name (tests/vm/suite
# arm64-6.12-16k), as is 7.3 (tests/README.md says why)
VM_KERNELS ?= arm64-6.1-debug arm64-6.12 arm64-6.1 arm64-6.1-rt amd64-6.1 \
	arm64-6.1-stock
BUILD_KERNELS ?= $(VM_KERNELS) arm64-6.12-16k arm64-7.3-rt

.PHONY: all module cli clean deps unit build-check vm-test dt-test \
	install-test flame-test capture-test top-test report-test check demo \
	structure-test mirror-test guest-sh-test prom-test prom-guest-test \
	bench help dtbs install dkms-install dkms-remove

all: module cli

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

cli:
	$(MAKE) -C userspace

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	rm -f dts/*.dtbo

# ---- device tree --------------------------------------------------------
DTC ?= dtc
DTBOS := $(patsubst %.dtso,%.dtbo,$(wildcard dts/*.dtso))

dtbs: $(DTBOS)

dts/%.dtbo: dts/%.dtso
	$(DTC) -@ -I dts -O dtb -o $@ $<

# ---- install ------------------------------------------------------------
# The module goes where modules_install puts it (INSTALL_MOD_PATH follows
# DESTDIR); the rest under PREFIX, except udev and sysusers files, which
# udev and systemd only read from /etc and /usr/lib.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
COMPLDIR = $(PREFIX)/share/bash-completion/completions
UDEVDIR ?= /etc/udev/rules.d
SYSUSERSDIR ?= /usr/lib/sysusers.d
DKMS_SRC = $(DESTDIR)/usr/src/kprofctl-$(VERSION)

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=extra modules_install
	install -D -m 0755 userspace/kprofctl $(DESTDIR)$(BINDIR)/kprofctl
	install -D -m 0644 userspace/kprofctl.8 $(DESTDIR)$(MANDIR)/man8/kprofctl.8
	install -D -m 0644 userspace/kprofctl.bash-completion \
		$(DESTDIR)$(COMPLDIR)/kprofctl
	install -D -m 0644 userspace/60-kprofctl.rules \
		$(DESTDIR)$(UDEVDIR)/60-kprofctl.rules
	install -D -m 0644 userspace/kprofctl.sysusers \
		$(DESTDIR)$(SYSUSERSDIR)/kprofctl.conf
	@if [ -z "$(DESTDIR)" ]; then \
		getent group kprof >/dev/null || groupadd --system kprof; \
		depmod -a $$(basename $$(dirname $(KDIR)) 2>/dev/null) 2>/dev/null || true; \
		echo "installed; members of group kprof may read statistics"; \
	fi

# The DKMS source tree: what Kbuild needs, nothing else.
dkms-src:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/module/compat $(DKMS_SRC)/uapi/linux \
		$(DKMS_SRC)/include/kprofctl
	install -m 0644 Kbuild dkms.conf $(DKMS_SRC)/
	install -m 0644 module/*.c module/*.h module/*.S $(DKMS_SRC)/module/
	install -m 0755 module/compat-gen.sh $(DKMS_SRC)/module/
	install -m 0644 module/compat/*.c $(DKMS_SRC)/module/compat/
	install -m 0644 uapi/linux/kprofctl.h $(DKMS_SRC)/uapi/linux/
	install -m 0644 include/kprofctl/*.h $(DKMS_SRC)/include/kprofctl/

dkms-install: dkms-src
	dkms add -m kprofctl -v $(VERSION)
	dkms build -m kprofctl -v $(VERSION)
	dkms install -m kprofctl -v $(VERSION)

dkms-remove:
	dkms remove -m kprofctl -v $(VERSION) --all
	rm -rf $(DKMS_SRC)

# Debian packages for the tests and the VM (installs them when root).
deps:
	tests/deps

# Userspace unit tests (ASan + UBSan).
unit: deps
	$(MAKE) -C userspace test

# Module builds against every guest kernel and x86_64 with W=1 and
# sparse: any diagnostic fails.
build-check: deps
	tests/build-check $(BUILD_KERNELS)

# VM_EXTRA: more tests for the same prove run (check adds dt-test, the
# Prometheus guest and install-test, which take a core a suite left)
vm-test: deps
	$(PROVE) -v $(addprefix tests/vm/t/,$(addsuffix .t,$(VM_KERNELS))) \
		$(VM_EXTRA) || \
		{ tests/vm/failures $(VM_KERNELS); exit 1; }

# Overlays, binding, fdtoverlay onto the Rock 5B DTB, QEMU -dtb boots.
dt-test: deps
	$(PROVE) -v tests/dt/check

# make install into a DESTDIR, and the DKMS source tree, checked.
install-test: deps
	$(PROVE) -v tests/install/check

# kprofctl flamegraph's SVG in headless Chromium: widths, search, zoom.
flame-test: deps cli
	$(PROVE) -v tests/flame/check

# Captures after the VM suites: the guests' files against the schema and
# shown by this machine's CLI; the reader under libFuzzer (FUZZ_SECONDS);
# diff's answers and gates on the committed captures (tests/capture/gates).
capture-test: deps cli
	VM_KERNELS="$(VM_KERNELS)" $(PROVE) -v tests/capture/check tests/capture/gates

# kprofctl top's screen under tmux: keys, refresh, a recording replayed.
top-test: deps cli
	$(PROVE) -v tests/top/check

# kprofctl report's page in headless Chromium: known samples, a guest's
# captures, forty probes of every kind on two clusters
# (REPORT_PNG=tests/example/report.png keeps its screenshot); show, top and
# report on committed captures with no device (tests/show/check).
report-test: deps cli
	$(PROVE) -v tests/report/check tests/report/capture tests/report/many \
		tests/show/check

# export and serve against promtool, a real Prometheus and node_exporter,
# and bad HTTP clients, from a committed capture (tests/prom/check)
prom-test: deps cli
	$(PROVE) -v tests/prom/check

# the same Prometheus scraping serve in an amd64-6.1 guest through
# tests/vm/run --forward (one boot; tests/prom/guest)
prom-guest-test: deps
	$(PROVE) -v tests/prom/guest

# the source tree's shape on the host (tests/structure/check): no file over
# 800 lines, no call cycle between userspace files (read from the objects),
# no command file called by another command file or the library; README.md
# as a new user reads it (tests/readme/lint)
structure-test: deps
	$(PROVE) -v tests/structure/check tests/readme/lint

# tests/vm/guest/tap.sh's fifo_open under the guest's busybox sh, on the host
guest-sh-test: deps
	$(PROVE) -v tests/vm/tapsh

# tests/vm/kernels takes its Debian mirrors from the system's apt sources
mirror-test:
	$(PROVE) -v tests/vm/mirrors

# build-check has fetched every kernel, so the VM suites may run two at a
# time: under icount each guest is one host thread.  dt-test's boots and
# install-test's module builds join them (they need no suite's output);
# top-test's timed screens stay out of the crowd.
check: unit structure-test mirror-test guest-sh-test build-check
	$(MAKE) vm-test PROVE="$(PROVE) -j2" \
		VM_EXTRA="tests/dt/check tests/prom/guest tests/install/check"
	$(MAKE) flame-test capture-test top-test report-test prom-test

# ends with a profile of mydrv; its flame graph goes to $(DEMO_OUT)
DEMO_OUT ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kprofctl/demo
demo: deps
	mkdir -p $(DEMO_OUT)
	bash -o pipefail -c 'tests/vm/run --kernel arm64-6.1 \
		--kmod tests/example/mydrv --script tests/demo.sh | tee "$$1"' \
		_ $(DEMO_OUT)/demo.log
	tests/demo-flame $(DEMO_OUT)/demo.log $(DEMO_OUT)

bench: deps
	tests/bench/run arm64-6.1 arm64-6.12 arm64-7.3 amd64-6.1

help:
	@sed -n '3,20p' Makefile
