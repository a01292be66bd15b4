// SPDX-License-Identifier: GPL-2.0
/* Symbol diagnosis: the nearest kallsyms names to a missing one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "syms.h"

static char path[512];

static const char *fixture(const char *name)
{
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;

	snprintf(path, sizeof(path), "%.*s/fixtures/%s", dir,
		 slash ? __FILE__ : ".", name);
	return path;
}

/* the suggestions for name (in mod), "a(1) b(2)" */
static void suggest_is(const char *mod, const char *name, unsigned int max,
		       const char *want)
{
	struct kp_suggest s[8];
	char got[512] = "";
	unsigned int n, i;
	FILE *f = fopen(fixture("kallsyms"), "r");

	CHECK(f, "open %s", path);
	if (!f)
		return;
	n = kp_sym_suggest(f, mod, name, s, max);
	fclose(f);
	for (i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s(%u)",
			 i ? " " : "", s[i].name, s[i].dist);
	CHECK(!strcmp(got, want), "suggest %s:%s: got '%s' want '%s'",
	      mod ? mod : "", name, got, want);
}

static void test_rank(void)
{
	/* a transposition is one edit; duplicates once; data not at all */
	suggest_is(NULL, "vfs_raed", 8, "vfs_read(1) vfs_readv(2) vfs_rend(2)");
	/* exact: distance 0 first */
	suggest_is(NULL, "vfs_read", 8, "vfs_read(0) vfs_readv(1) vfs_rend(1)");
	/* best first, ties by name, the module shown */
	suggest_is(NULL, "kprof_test_nopp", 8,
		   "kprof_test_nop [kprof_test](1) kprof_test_nop [other_mod](1) "
		   "kprof_test_loop [kprof_test](2) kprof_test_nap(2)");
	suggest_is(NULL, "kprof_test_nopp", 2,
		   "kprof_test_nop [kprof_test](1) kprof_test_nop [other_mod](1)");
	/* MOD:SYM: that module's names only */
	suggest_is("kprof_test", "kprof_test_nopp", 8,
		   "kprof_test_nop [kprof_test](1) kprof_test_loop [kprof_test](2)");
	suggest_is("kprof_test", "vfs_read", 8, "");
	suggest_is("vmlinux", "vfs_raed", 8, "vfs_read(1) vfs_readv(2) vfs_rend(2)");
	/* a compiler's clone: its base name is one edit away */
	suggest_is(NULL, "dw_mci_request", 8,
		   "dw_mci_request.isra.0(1)");
	/* nothing near: nothing (the bound grows with the name's length) */
	suggest_is(NULL, "kprof_test_clamp_calls", 8, "");
	suggest_is(NULL, "xyz", 8, "");
	suggest_is(NULL, "vfs", 8, "");
}

static void test_modules(void)
{
	FILE *f = fopen(fixture("modules"), "r");

	CHECK(f, "open modules fixture");
	if (!f)
		return;
	CHECK(kp_mod_loaded(f, "kprof_test") == 1, "kprof_test loaded");
	rewind(f);
	CHECK(kp_mod_loaded(f, "kprof") == 0, "a prefix is not a module");
	rewind(f);
	CHECK(kp_mod_loaded(f, "snd_hda_intel") == 1, "the last line");
	fclose(f);
}

/* init code of this very program: what __init is in a .ko */
__attribute__((section(".init.text.kp_unit"), noinline, used))
int kp_unit_init_fn(int x);
int kp_unit_init_fn(int x)
{
	return x + 1;
}

static void test_ko(void)
{
	char gz[] = "/tmp/kp_unit_XXXXXX.ko.gz", cmd[512];
	int fd;

	CHECK(kp_ko_init_sym("/proc/self/exe", "kp_unit_init_fn") == 1,
	      "a function in .init.text.* is init code");
	CHECK(kp_ko_init_sym("/proc/self/exe", "main") == 0,
	      "main is not init code");
	CHECK(kp_ko_init_sym("/proc/self/exe", "kp_no_such_fn") == 0,
	      "a missing name is not init code");
	CHECK(kp_ko_init_sym(fixture("kallsyms"), "main") == -1,
	      "not ELF: cannot tell");
	CHECK(kp_ko_init_sym("/nonexistent.ko", "main") == -1,
	      "no file: cannot tell");
	/* a compressed module goes through its decompressor */
	fd = mkstemps(gz, 6);
	CHECK(fd >= 0, "mkstemps");
	if (fd < 0)
		return;
	close(fd);
	snprintf(cmd, sizeof(cmd), "gzip -c /proc/%d/exe >%s", (int)getpid(), gz);
	CHECK(!system(cmd), "%s", cmd);
	CHECK(kp_ko_init_sym(gz, "kp_unit_init_fn") == 1, ".ko.gz: init code");
	CHECK(kp_ko_init_sym(gz, "main") == 0, ".ko.gz: main is not");
	unlink(gz);
}

/* kp_syms_load: text symbols only, by address, aliases and modules */
static void name_is(const struct kp_syms *s, uint64_t addr, const char *want)
{
	char got[300];

	kp_sym_name(s, addr, got, sizeof(got));
	CHECK(!strcmp(got, want), "%#" PRIx64 ": got '%s' want '%s'", addr,
	      got, want);
}

static void test_load(void)
{
	struct kp_syms s;

	kp_syms_load(&s, fixture("kallsyms-addr"));
	CHECK(s.visible, "addresses visible");
	CHECK(s.n == 12, "12 text symbols (t and T) (got %zu)", s.n);
	name_is(&s, 0xffff800008010000ull, "_head+0x0");
	name_is(&s, 0xffff800008010404ull, "vfs_read_alias+0x4");
	name_is(&s, 0xffff800008010490ull, "vfs_read_alias+0x90");
	/* W, D and b are not text */
	name_is(&s, 0xffff800008010500ull, "vfs_read_alias+0x100");
	name_is(&s, 0xffff80000801071cull, "helper.isra.0+0x1c");
	name_is(&s, 0xffff800000a01044ull, "kprof_test_spin+0x4");
	name_is(&s, 0xffff800000a00f10ull, "kprof_test_init+0x10");
	name_is(&s, 0xffff800000b000a0ull, "mydrv_xfer+0xa0");
	name_is(&s, 0xffff800000000000ull, "");
	name_is(&s, 0xffff800008020008ull,
		"a_name_of_exactly_two_hundred_and_fifty_six_characters_is_cut_"
		"to_255_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxx+0x8");
	name_is(&s, 0xffff800008031000ull, "last_text+0x1000");
	kp_syms_free(&s);

	/* kptr_restrict: all zero, nothing kept */
	kp_syms_load(&s, fixture("kallsyms"));
	CHECK(!s.visible && !s.n, "hidden addresses: no symbols (%zu)", s.n);
	name_is(&s, 0x1000, "");
	kp_syms_free(&s);

	kp_syms_load(&s, fixture("no-such-file"));
	CHECK(!s.visible && !s.n, "missing file: no symbols");
	kp_syms_free(&s);
}

int main(void)
{
	CHECK(kp_unit_init_fn(1) == 2, "the init function runs");
	test_rank();
	test_load();
	test_modules();
	test_ko();
	return unit_done("test_syms");
}
