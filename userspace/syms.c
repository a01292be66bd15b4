// SPDX-License-Identifier: GPL-2.0
/*
 * Why a kprobe's symbol is missing: a typo (the nearest kallsyms names), a
 * module that is not loaded, __init code (freed after load: only the
 * module's .ko still names it) or, failing those, inlined or static.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "syms.h"

#define KP_NAME_MAX	256

/* edits allowed for a name of len characters */
static unsigned int sym_limit(size_t len)
{
	return 1 + (unsigned int)(len / 8);
}

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * Optimal string alignment distance (insert, delete, substitute, swap
 * two neighbours), or limit + 1 as soon as it must exceed limit.
 */
unsigned int kp_name_dist(const char *a, size_t la, const char *b,
			  size_t lb, unsigned int limit)
{
	unsigned int r0[KP_NAME_MAX + 1], r1[KP_NAME_MAX + 1];
	unsigned int r2[KP_NAME_MAX + 1];
	unsigned int *pp = r0, *p = r1, *c = r2, *t, best;
	size_t i, j;

	if (la > KP_NAME_MAX || lb > KP_NAME_MAX)
		return limit + 1;

	for (j = 0; j <= lb; j++)
		p[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		c[0] = (unsigned int)i;
		best = c[0];
		for (j = 1; j <= lb; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];

			c[j] = min3(p[j] + 1, c[j - 1] + 1, p[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < c[j])
				c[j] = pp[j - 2] + 1;
			if (c[j] < best)
				best = c[j];
		}
		if (best > limit)
			return limit + 1;
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb] > limit ? limit + 1 : p[lb];
}

static int sug_before(const struct kp_suggest *x, unsigned int dist,
		      const char *name)
{
	return x->dist < dist || (x->dist == dist && strcmp(x->name, name) < 0);
}

/* at p, after blanks, a token of at most max bytes into out; NULL if none */
static const char *scan_tok(const char *p, char *out, size_t max)
{
	size_t i = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	while (*p && !isspace((unsigned char)*p) && i < max)
		out[i++] = *p++;
	out[i] = '\0';
	return p;
}

/*
 * sscanf(line, "%*s %c %255s %71s", type, sym, m) without sscanf, which
 * costs seconds over a kernel's 150 000 kallsyms lines on a slow machine.
 */
static int sym_fields(const char *p, char *type, char *sym, char *m)
{
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return -1;
	while (*p && !isspace((unsigned char)*p))
		p++;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	*type = *p++;
	p = scan_tok(p, sym, KP_NAME_MAX - 1);
	if (!p)
		return 1;
	return scan_tok(p, m, 71) ? 3 : 2;
}

unsigned int kp_sym_suggest(FILE *f, const char *mod, const char *name,
			    struct kp_suggest *out, unsigned int max)
{
	char line[512], sym[KP_NAME_MAX], m[72], disp[KP_SUGGEST_LEN], type;
	size_t len = strlen(name), ls;
	unsigned int limit = sym_limit(len), n = 0, d, i;
	int fields;

	if (!max || len >= KP_NAME_MAX)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		m[0] = '\0';
		fields = sym_fields(line, &type, sym, m);
		if (fields < 2 || (type != 't' && type != 'T' && type != 'W'))
			continue;
		/* "[mod]" -> "mod" */
		if (fields == 3 && m[0] == '[' && strchr(m, ']')) {
			memmove(m, m + 1, strlen(m));
			*strchr(m, ']') = '\0';
		} else {
			m[0] = '\0';
		}
		/* "vmlinux": the names without a module */
		if (mod && strcmp(strcmp(mod, "vmlinux") ? mod : "", m))
			continue;
		ls = strlen(sym);
		/*
		 * "foo" for "foo.isra.0" or "foo.constprop.0" is one edit;
		 * else the length alone bounds the distance: most names stop
		 * there.
		 */
		if (ls > len && sym[len] == '.' && !strncmp(sym, name, len))
			d = 1;
		else if (ls > len + limit || ls + limit < len)
			continue;
		else
			d = kp_name_dist(name, len, sym, ls, limit);
		if (d > limit)
			continue;
		snprintf(disp, sizeof(disp), m[0] ? "%s [%s]" : "%s", sym, m);
		for (i = 0; i < n && strcmp(out[i].name, disp); i++)
			;
		if (i < n)
			continue;	/* a static name defined twice */
		/* full and this one is not better than the last: skip */
		if (n == max && sug_before(&out[max - 1], d, disp))
			continue;
		if (n < max)
			n++;
		/* insert sorted; when full the last one falls off */
		for (i = n - 1; i > 0 && !sug_before(&out[i - 1], d, disp); i--)
			out[i] = out[i - 1];
		snprintf(out[i].name, sizeof(out[i].name), "%s", disp);
		out[i].dist = d;
	}
	return n;
}

int kp_mod_loaded(FILE *f, const char *mod)
{
	char line[512], m[72];

	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%71s", m) == 1 && !strcmp(m, mod))
			return 1;
	return 0;
}

/* the ELF file's bytes, at most 256 MiB */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long sz = -1;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END))
		sz = ftell(f);
	if (sz > 0 && sz < (256L << 20) && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)sz);
		if (buf && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)sz;
	}
	fclose(f);
	return buf;
}

static int in_file(size_t len, uint64_t off, uint64_t size)
{
	return off <= len && size <= len - off;
}

/* a native 64-bit object (the kernels kprofctl runs on) */
static int ko_init_sym(const uint8_t *b, size_t len, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)b;
	const Elf64_Shdr *sh, *symtab = NULL, *strtab;
	const char *shstr;
	const Elf64_Sym *sym;
	uint64_t i, nsym;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || !eh->e_shnum ||
	    eh->e_shstrndx >= eh->e_shnum ||
	    !in_file(len, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh)) ||
	    eh->e_shoff % sizeof(uint64_t))
		return -1;
	sh = (const void *)(b + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = &sh[i];
	if (!symtab || symtab->sh_link >= eh->e_shnum ||
	    symtab->sh_entsize != sizeof(*sym) ||
	    !in_file(len, symtab->sh_offset, symtab->sh_size) ||
	    symtab->sh_offset % sizeof(uint64_t))
		return -1;
	strtab = &sh[symtab->sh_link];
	if (!in_file(len, strtab->sh_offset, strtab->sh_size) ||
	    !in_file(len, sh[eh->e_shstrndx].sh_offset,
		     sh[eh->e_shstrndx].sh_size))
		return -1;
	shstr = (const char *)b + sh[eh->e_shstrndx].sh_offset;
	sym = (const void *)(b + symtab->sh_offset);
	nsym = symtab->sh_size / sizeof(*sym);
	for (i = 0; i < nsym; i++) {
		const Elf64_Sym *y = &sym[i];
		const char *sn;

		if (ELF64_ST_TYPE(y->st_info) != STT_FUNC ||
		    y->st_name >= strtab->sh_size ||
		    y->st_shndx == SHN_UNDEF || y->st_shndx >= eh->e_shnum ||
		    sh[y->st_shndx].sh_name >= sh[eh->e_shstrndx].sh_size)
			continue;
		sn = (const char *)b + strtab->sh_offset + y->st_name;
		if (strnlen(sn, strtab->sh_size - y->st_name) != strlen(name) ||
		    strcmp(sn, name))
			continue;
		/* .init.text, .init.text.unlikely...: freed after init */
		sn = shstr + sh[y->st_shndx].sh_name;
		return strnlen(sn, sh[eh->e_shstrndx].sh_size -
				   sh[y->st_shndx].sh_name) >= 6 &&
		       !strncmp(sn, ".init.", 6);
	}
	return 0;
}

/* a compressed module through its decompressor (xz, zstd or gzip -dc) */
static uint8_t *slurp_cmd(const char *tool, const char *path, size_t *len)
{
	char *argv[] = { (char *)tool, "-dc", "--", (char *)path, NULL };
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = malloc(cap), *nb;
	posix_spawn_file_actions_t fa;
	int fd[2], st = 1, ok = 0;
	ssize_t r;
	pid_t pid;

	if (!buf || pipe2(fd, O_CLOEXEC)) {
		free(buf);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	if (!posix_spawnp(&pid, tool, &fa, NULL, argv, environ)) {
		close(fd[1]);
		fd[1] = -1;
		ok = 1;
		while (ok && (r = read(fd[0], buf + n, cap - n)) != 0) {
			if (r < 0) {
				ok = errno == EINTR;
				continue;
			}
			n += (size_t)r;
			if (n < cap)
				continue;
			/* at most 256 MiB, as for an uncompressed one */
			nb = cap < (256u << 20) ? realloc(buf, cap * 2) : NULL;
			ok = nb != NULL;
			if (nb) {
				buf = nb;
				cap *= 2;
			}
		}
		close(fd[0]);
		fd[0] = -1;
		ok = waitpid(pid, &st, 0) == pid && ok && WIFEXITED(st) &&
		     !WEXITSTATUS(st);
	}
	posix_spawn_file_actions_destroy(&fa);
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	if (!ok) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static int ends_with(const char *s, const char *tail)
{
	size_t ls = strlen(s), lt = strlen(tail);

	return ls >= lt && !strcmp(s + ls - lt, tail);
}

int kp_ko_init_sym(const char *path, const char *name)
{
	size_t len = 0;
	uint8_t *b;
	int ret;

	if (ends_with(path, ".ko.xz"))
		b = slurp_cmd("xz", path, &len);
	else if (ends_with(path, ".ko.zst"))
		b = slurp_cmd("zstd", path, &len);
	else if (ends_with(path, ".ko.gz"))
		b = slurp_cmd("gzip", path, &len);
	else
		b = slurp(path, &len);

	if (!b)
		return -1;
	ret = ko_init_sym(b, len, name);
	free(b);
	return ret;
}

/*
 * Where modinfo -n finds module mod: its line in modules.dep (a path
 * relative to /lib/modules/RELEASE, or absolute), '-' and '_' alike.  0,
 * or -1 if not listed.
 */
static int ko_path(const char *mod, char *out, size_t len)
{
	char dir[300], line[4096], base[128], *ko;
	struct utsname u;
	const char *p, *slash;
	size_t bl, i;
	FILE *f;
	int ret = -1;

	if (uname(&u))
		return -1;
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	snprintf(line, sizeof(line), "%s/modules.dep", dir);
	f = fopen(line, "r");
	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		p = strchr(line, ':');
		if (!p)
			continue;
		slash = memrchr(line, '/', (size_t)(p - line));
		slash = slash ? slash + 1 : line;
		bl = (size_t)(p - slash);
		if (bl >= sizeof(base))
			continue;
		/* mod.ko, mod.ko.xz, mod.ko.zst, mod.ko.gz; '-' is '_' */
		memcpy(base, slash, bl);
		base[bl] = '\0';
		ko = strstr(base, ".ko");
		if (!ko || (ko[3] && ko[3] != '.'))
			continue;
		*ko = '\0';
		for (i = 0; base[i]; i++)
			if (base[i] == '-')
				base[i] = '_';
		if (strcmp(base, mod))
			continue;
		snprintf(out, len, "%s%s%.*s", line[0] == '/' ? "" : dir,
			 line[0] == '/' ? "" : "/", (int)(p - line), line);
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * ftrace keeps the names of a module's freed __init functions in
 * /proc/kallsyms while any ftrace_ops is registered, though nothing can
 * probe them.  1 if kallsyms lists name of module mod (any module if NULL,
 * its name into mods) at an address in one of that module's .init
 * sections (/sys/module/MOD/sections: the nearest section start below);
 * 0 if not, or if the addresses are hidden (no CAP_SYSLOG).
 */
static int freed_init_listed(const char *mod, const char *name, char *mods,
			     size_t len)
{
	char line[512], sym[KP_NAME_MAX], m[72], path[160], best[64] = "";
	unsigned long long addr = 0, a, below = 0;
	struct dirent *d;
	FILE *f;
	DIR *dir;
	char type;

	f = fopen("/proc/kallsyms", "r");
	while (f && !addr && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s [%71[^]]]", &a, &type, sym,
			   m) != 4 || strcmp(sym, name) || (mod && strcmp(m, mod)))
			continue;
		addr = a;
		snprintf(mods, len, "%s", m);
	}
	if (f)
		fclose(f);
	if (!addr)
		return 0;
	snprintf(path, sizeof(path), "/sys/module/%s/sections", mods);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] != '.' || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, "..") ||
		    snprintf(path, sizeof(path), "/sys/module/%s/sections/%s",
			     mods, d->d_name) >= (int)sizeof(path))
			continue;
		f = fopen(path, "r");
		if (f && fscanf(f, "%llx", &a) == 1 && a <= addr && a > below) {
			below = a;
			snprintf(best, sizeof(best), "%.63s", d->d_name);
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return !strncmp(best, ".init", 5);
}

/* 1 if module mod's .ko defines name in its init code, -1: no .ko read */
static int mod_init_sym(const char *mod, const char *name)
{
	char path[4400];

	if (ko_path(mod, path, sizeof(path)))
		return -1;
	return kp_ko_init_sym(path, name);
}

/* MOD:SYM with SYM in another module or the kernel: the spec naming it */
static int sym_elsewhere(const char *what, const char *kind, const char *mod,
			 const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct kp_suggest o;
	char *in;

	if (!f)
		return 0;
	o.dist = 1;
	kp_sym_suggest(f, NULL, name, &o, 1);
	fclose(f);
	if (o.dist)
		return 0;
	in = strstr(o.name, " [");
	if (in) {
		in += 2;
		in[strcspn(in, "]")] = '\0';
	}
	fprintf(stderr, "kprofctl: %s: %s is not in module %s but in %s%s: "
		"%s:%s%s%s\n", what, name, mod, in ? "module " : "the kernel",
		in ? in : "", kind, in ? in : "", in ? ":" : "", name);
	return 1;
}

static int say_init(const char *what, const char *name, const char *mod,
		    const char *kind)
{
	fprintf(stderr, "kprofctl: %s: %s is __init code of %s, freed after "
		"load: use %s:%s:%s --defer and reload the module\n", what, name,
		mod, kind, mod, name);
	return 1;
}

int kp_sym_diagnose(const char *what, const char *spec)
{
	char buf[512], line[512], mods[72], *sym, *name, *mod = NULL, *plus;
	struct kp_suggest s[3];
	unsigned int n, i, best;
	int hit;
	const char *kind;
	FILE *f;

	if (!strncmp(spec, "kprobe:", 7))
		kind = "kprobe";
	else if (!strncmp(spec, "kretprobe:", 10))
		kind = "kretprobe";
	else
		return 0;
	snprintf(buf, sizeof(buf), "%s", strchr(spec, ':') + 1);
	sym = buf;
	plus = strchr(sym, '+');
	if (plus)
		*plus = '\0';
	name = strchr(sym, ':');
	if (name) {
		*name++ = '\0';
		mod = sym;
	} else {
		name = sym;
	}
	if (mod && strcmp(mod, "vmlinux")) {
		f = fopen("/proc/modules", "r");
		if (f && !kp_mod_loaded(f, mod)) {
			fclose(f);
			fprintf(stderr, "kprofctl: %s: module %s is not loaded: "
				"add --defer to attach when it loads\n", what, mod);
			return 1;
		}
		if (f)
			fclose(f);
	}
	/* init code: kallsyms forgot it, the module's .ko still names it */
	hit = 0;
	if (mod && strcmp(mod, "vmlinux")) {
		snprintf(mods, sizeof(mods), "%.71s", mod);
		hit = mod_init_sym(mods, name);
	} else if (!mod) {
		f = fopen("/proc/modules", "r");
		while (f && hit != 1 && fgets(line, sizeof(line), f))
			hit = sscanf(line, "%71s", mods) == 1 ?
			      mod_init_sym(mods, name) : 0;
		if (f)
			fclose(f);
		hit = hit == 1;	/* which module's .ko is missing is unknown */
	}
	if (hit == 1)
		return say_init(what, name, mods, kind);
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;
	n = kp_sym_suggest(f, mod, name, s, 3);
	fclose(f);
	if (n && !s[0].dist) {
		if (freed_init_listed(mod, name, mods, sizeof(mods)))
			return say_init(what, name, mods, kind);
		return 0;	/* it is there: something else is missing */
	}
	if (mod && sym_elsewhere(what, kind, mod, name))
		return 1;
	fprintf(stderr, "kprofctl: %s: %s not found in /proc/kallsyms: ", what,
		name);
	if (!n) {
		fprintf(stderr, "inlined or static?\n");
	} else {
		for (best = 1; best < n && s[best].dist == s[0].dist; best++)
			;
		fprintf(stderr, "did you mean ");
		for (i = 0; i < best; i++)
			fprintf(stderr, "%s%s", !i ? "" :
				i + 1 < best ? ", " : " or ", s[i].name);
		fprintf(stderr, "?\n");
	}
	if (hit < 0)
		fprintf(stderr, "  (or __init code of %s, freed after load: its .ko, "
			"not found where modinfo -n looks,\n  would tell; then "
			"use --defer and reload the module)\n", mods);
	return 1;
}

/* ---- addresses to names ------------------------------------------------ */

static int sym_cmp(const void *a, const void *b)
{
	const struct kp_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* the whole of path, NUL-terminated, in *len bytes; NULL if unreadable */
static char *read_all(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap), *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	/* big reads: /proc/kallsyms is a seq_file, each read a pass over it */
	while ((r = read(fd, buf + n, cap - n - 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		n += (size_t)r;
		if (cap - n - 1 == 0) {
			b = realloc(buf, cap * 2);
			if (!b)
				goto fail;
			buf = b;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Parsed in place (a kernel's kallsyms is 100 000 lines and more, and
 * sscanf and a malloc per line cost seconds on a slow board): the names
 * point into s->buf.  A line is "ADDR TYPE NAME[\t[MOD]]"; only names up
 * to 255 bytes are kept whole, as they always were.
 */
void kp_syms_load(struct kp_syms *s, const char *path)
{
	size_t cap = 0, len, i;
	char *p, *end, *next;
	uint64_t addr;
	int sorted = 1, d;
	char type;

	memset(s, 0, sizeof(*s));
	s->buf = read_all(path, &len);
	if (!s->buf)
		return;
	for (p = s->buf, end = s->buf + len; p < end; p = next + 1) {
		char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		next = eol;	/* the next line, whatever this one holds */
		while (p < eol && isspace((unsigned char)*p))
			p++;
		addr = 0;
		for (i = 0; p < eol && (d = hexval(*p)) >= 0; p++, i++)
			addr = addr << 4 | (uint64_t)d;
		if (!i || i > 16)
			continue;
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (p == eol)
			continue;
		type = *p++;
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (p == eol)
			continue;
		if (addr)
			s->visible = 1;
		if (type != 't' && type != 'T')
			continue;
		for (i = 0; p + i < eol && !isspace((unsigned char)p[i]) && i < 255; i++)
			;
		if (s->n == cap) {
			struct kp_sym *v;

			cap = cap ? cap * 2 : 4096;
			v = realloc(s->v, cap * sizeof(*v));
			if (!v)
				break;
			s->v = v;
		}
		p[i] = '\0';	/* at most eol: the line's own end */
		if (s->n && addr < s->v[s->n - 1].addr)
			sorted = 0;
		s->v[s->n].addr = addr;
		s->v[s->n].name = p;
		s->n++;
	}
	if (!s->visible) {
		kp_syms_free(s);
		memset(s, 0, sizeof(*s));
		return;
	}
	/* the kernel's own part comes sorted; aliases keep their order */
	if (!sorted)
		qsort(s->v, s->n, sizeof(*s->v), sym_cmp);
}

void kp_syms_free(struct kp_syms *s)
{
	free(s->v);
	free(s->buf);
	s->v = NULL;
	s->buf = NULL;
	s->n = 0;
}

const struct kp_sym *kp_sym_find(const struct kp_syms *s, uint64_t addr)
{
	size_t lo = 0, hi = s->n;

	if (!s->visible || !s->n || addr < s->v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &s->v[lo];
}

void kp_sym_name(const struct kp_syms *s, uint64_t addr, char *buf,
		     size_t len)
{
	const struct kp_sym *k = kp_sym_find(s, addr);

	buf[0] = '\0';
	if (k)
		snprintf(buf, len, "%s+0x%" PRIx64, k->name, addr - k->addr);
}
