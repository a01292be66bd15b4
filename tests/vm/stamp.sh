# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Build stamps, sourced by tests/vm/run and tests/build-check: a build is
# redone only when what it is made from has changed, its files' contents
# (not their times: several checkouts share this cache), the kernel tree
# and the compiler.  Needs KDIR, ARCH, CROSS_COMPILE (tests/vm/kernels path).

kprof_kernel_id() { # -> this kernel tree's identity
	echo "$KDIR $(cat "$KDIR/.config" "$KDIR/Module.symvers" 2>/dev/null | sha256sum)"
}
stamp() { # KERNEL DIR PATH... -> one hash
	local kid=$1 dir=$2
	shift 2
	(
		echo "$kid $ARCH $CROSS_COMPILE ${SYSROOT:-} ${MHD_STATIC:-}"
		cd "$dir" && find "$@" -type f ! -name '*.o' ! -name '*.ko' \
			! -name '*.mod' ! -name '*.mod.c' ! -name '*.cmd' ! -name '*.a' \
			! -name modules.order ! -name Module.symvers \
			! -path userspace/kprofctl -print0 |
			LC_ALL=C sort -z | xargs -0 sha256sum
	) | sha256sum | cut -d ' ' -f 1
}
module_stamp() { # TOP -> the hash of kprofctl.ko's sources for this kernel
	stamp "$(kprof_kernel_id)" "$1" Kbuild Makefile module include uapi
}
fresh() { # STAMPFILE HASH: the build there was made from these inputs
	[ -f "$1" ] && [ "$(cat "$1")" = "$2" ]
}
