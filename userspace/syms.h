/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a kprobe's symbol was not found (the module answers -ENOENT): read
 * from /proc/kallsyms (names only: they are readable without
 * CAP_SYSLOG), /proc/modules and the modules' .ko files.
 */
#ifndef KPROFCTL_SYMS_H
#define KPROFCTL_SYMS_H

#include <stdint.h>
#include <stdio.h>

#define KP_SUGGEST_LEN	192

struct kp_suggest {
	char name[KP_SUGGEST_LEN];	/* "sym" or "sym [mod]" */
	unsigned int dist;		/* edits from the name asked for */
};

/*
 * The text symbols of kallsyms (f) within a few edits of name (more for
 * longer names; a transposition is one), best first, ties by name; one
 * entry per name and module.  mod: that module's only ("vmlinux": the
 * kernel's), NULL: all.  Returns how many (at most max) are in out.
 */
unsigned int kp_sym_suggest(FILE *f, const char *mod, const char *name,
			    struct kp_suggest *out, unsigned int max);

/*
 * Optimal string alignment distance between a[0..la) and b[0..lb) (each
 * at most 256 long; a swap of neighbours is one edit), or limit + 1 once
 * it must exceed limit.
 */
unsigned int kp_name_dist(const char *a, size_t la, const char *b,
			  size_t lb, unsigned int limit);

/* 1 if /proc/modules (f) lists module mod, else 0 */
int kp_mod_loaded(FILE *f, const char *mod);

/*
 * 1 if the ELF object at path (.ko, or .ko.xz, .ko.zst, .ko.gz through
 * xz, zstd or gzip -dc) defines function name in an .init section (freed
 * after load), 0 if not, -1 if it cannot tell (unreadable, no tool).
 */
int kp_ko_init_sym(const char *path, const char *name);

/*
 * stderr: why the symbol of spec (kprobe:[MOD:]SYM[+OFF] or kretprobe:)
 * is missing; 0 if nothing more specific than "not found" is known.
 */
int kp_sym_diagnose(const char *what, const char *spec);

/* kernel text symbols by address, from /proc/kallsyms */
struct kp_sym {
	uint64_t addr;
	char *name;
};

struct kp_syms {
	struct kp_sym *v;
	size_t n;
	int visible;		/* the reader may see kernel addresses */
	char *buf;		/* the file, which the names point into */
};

/* path's text symbols, if its addresses are not hidden (kptr_restrict) */
void kp_syms_load(struct kp_syms *s, const char *path);
void kp_syms_free(struct kp_syms *s);
/* the symbol addr is in, NULL when hidden or unknown */
const struct kp_sym *kp_sym_find(const struct kp_syms *s, uint64_t addr);
/* "func+0x1c", or "" when hidden or unknown */
void kp_sym_name(const struct kp_syms *s, uint64_t addr, char *buf,
		 size_t len);

#endif
