// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec.h"
#include "pmu-events.h"

static int sym_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || s[0] == ':' || s[len - 1] == ':')
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.:$", s[i]))
			return 0;
	return 1;
}

const char *kp_type_name(uint32_t type)
{
	const struct kprof_kind *k = kprof_kind_by_type(type);

	if (type == KPROF_TYPE_KPROBE_SET)
		return "kprobe-set";
	if (type == KPROF_TYPE_KRETPROBE_SET)
		return "kretprobe-set";
	return k ? k->prefix : "unknown";
}

int kp_type_latency(uint32_t type)
{
	const struct kprof_kind *k = kprof_kind_by_type(type);

	return k && (k->flags & KPROF_KIND_LATENCY);
}

const char *kp_mech_name(uint32_t mech)
{
	switch (mech) {
	case KPROF_MECH_KPROBES: return "kprobes";
	case KPROF_MECH_FTRACE: return "ftrace";
	case KPROF_MECH_TRACEPOINT: return "tracepoint";
	case KPROF_MECH_PERF: return "perf";
	default: return "none";
	}
}

/* "via ftrace": a kretprobe's kprobes are kretprobes */
const char *kp_mech_label(uint32_t type, uint32_t mech)
{
	if (mech == KPROF_MECH_KPROBES && (type == KPROF_TYPE_KRETPROBE ||
					   type == KPROF_TYPE_KRETPROBE_SET))
		return "kretprobes";
	return kp_mech_name(mech);
}

const char *kp_owned_label(const struct kprof_probe_info *r)
{
	return r->flags & KPROF_ADD_OWNED ? ", temporary" : "";
}

const char *kp_state_name(uint32_t state)
{
	switch (state) {
	case KPROF_STATE_STOPPED: return "stopped";
	case KPROF_STATE_RUNNING: return "running";
	case KPROF_STATE_GONE: return "gone";
	case KPROF_STATE_PENDING: return "pending";
	default: return "unknown";
	}
}

int kp_is_pair(const char *name)
{
	const char *const *n;

	for (n = kprof_pair_names(); *n; n++)
		if (!strcmp(name, *n))
			return 1;
	return 0;
}

/* "a, b or c" from a NULL-terminated list */
static void join_or(const char *const *names, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; names[i] && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s",
				 !i ? "" : names[i + 1] ? ", " : " or ",
				 names[i]);
}

void kp_kinds_help(char *buf, size_t len)
{
	const struct kprof_kind *k;
	unsigned int nr, i;
	size_t used = 0;
	char pairs[128];

	k = kprof_kinds(&nr);
	for (i = 0; i < nr && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s",
				 i ? ", " : "", k[i].syntax);
	join_or(kprof_pair_names(), pairs, sizeof(pairs));
	if (used < len)
		snprintf(buf + used, len - used, "; KIND is %s", pairs);
}

/*
 * "kretprobes, kretprobe sets and pairs": the kinds whose rows have
 * @accept, each single kind followed by its set kind
 */
void kp_kinds_accepting(unsigned int accept, char *buf, size_t len)
{
	const struct kprof_kind *names[16], *set;
	const struct kprof_kind *k;
	unsigned int nr, i, n = 0;
	size_t used = 0;

	k = kprof_kinds(&nr);
	for (i = 0; i < nr && n + 2 <= 16; i++) {
		if (k[i].flags & KPROF_KIND_SET)
			continue;
		if (k[i].accepts & accept)
			names[n++] = &k[i];
		set = kprof_kind_by_prefix_set(k[i].prefix, strlen(k[i].prefix), 1);
		if (set && (set->accepts & accept))
			names[n++] = set;
	}
	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s%s",
				 !i ? "" : i + 1 < n ? ", " : " and ",
				 names[i]->prefix, names[i]->flags & KPROF_KIND_SET ?
				 " sets" : "s");
}

/* glob_match() syntax: names, '*', '?' and [...] classes ('!' or '-' in) */
static int glob_ok(const char *g, char *err, size_t errlen, const char *spec)
{
	const char *p;

	if (!*g) {
		snprintf(err, errlen, "empty function glob in '%s'", spec);
		return 0;
	}
	for (p = g; *p; p++) {
		if (*p == '[') {
			const char *end = strchr(p + 1 + (p[1] == '!'), ']');

			if (!end || end == p + 1 || (p[1] == '!' && end == p + 2)) {
				snprintf(err, errlen, "unclosed or empty [...] in '%s'",
					 spec);
				return 0;
			}
			p = end;
			continue;
		}
		if (!isalnum((unsigned char)*p) && !strchr("_.$*?", *p)) {
			snprintf(err, errlen, "bad character '%c' in the function "
				 "glob of '%s' (names, *, ? and [...] only)", *p,
				 spec);
			return 0;
		}
	}
	return 1;
}

/* "[MOD:]GLOB" of a function set */
static int set_ok(const struct kprof_kind *kind, const char *arg,
		  const char *spec, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	size_t i;

	if (strchr(arg, '+')) {
		snprintf(err, errlen, "a %s set takes no offset: '%s'",
			 kind->prefix, spec);
		return 0;
	}
	if (colon) {
		for (i = 0; arg + i < colon; i++)
			if (!isalnum((unsigned char)arg[i]) &&
			    !strchr("_-", arg[i]))
				break;
		if (!i || arg + i != colon || strchr(colon + 1, ':')) {
			snprintf(err, errlen, "bad module in '%s' (expected %s; "
				 "a module name takes no glob)", spec,
				 kind->syntax);
			return 0;
		}
		arg = colon + 1;
	}
	return glob_ok(arg, err, errlen, spec);
}

/* "EVENT[:hz=N|:period=N]" of sample:, EVENT one event or cpu-clock */
static int sample_ok(const char *arg, const char *spec, char *err,
		     size_t errlen)
{
	char name[KPROF_SPEC_LEN], list[KPROF_PMU_SPEC_LEN], why[640];
	const char *opt = strchr(arg, ':');
	uint64_t n;

	snprintf(name, sizeof(name), "%.*s",
		 (int)(opt ? (size_t)(opt - arg) : strlen(arg)), arg);
	if (strcmp(name, "cpu-clock") &&
	    (strchr(name, ',') ||
	     kp_pmu_parse_events(name, list, sizeof(list), why, sizeof(why)))) {
		snprintf(err, errlen, "bad event in '%s': one PMU event as "
			 "'stat -e' takes, or cpu-clock", spec);
		return 0;
	}
	if (!opt)
		return 1;
	if (!strncmp(opt + 1, "hz=", 3) &&
	    !kp_parse_u64(opt + 4, 1, 100000, &n))
		return 1;
	if (!strncmp(opt + 1, "period=", 7) &&
	    !kp_parse_u64(opt + 8, 1000, UINT64_MAX, &n))
		return 1;
	snprintf(err, errlen, "bad rate in '%s' (expected :hz=1..100000 or "
		 ":period=N events between samples, N >= 1000)", spec);
	return 0;
}

int kp_parse_spec(const char *spec, char *err, size_t errlen)
{
	const struct kprof_kind *kind = kprof_kind_of_spec(spec);
	const char *sym, *plus;
	char help[320];
	uint64_t off;
	int type;

	if (strlen(spec) >= KPROF_SPEC_LEN) {
		snprintf(err, errlen, "spec longer than %d characters",
			 KPROF_SPEC_LEN - 1);
		return 0;
	}
	if (!kind) {
		kp_kinds_help(help, sizeof(help));
		snprintf(err, errlen, "unknown probe type in '%s' (use %s)",
			 spec, help);
		return 0;
	}
	/* each kind's ARG, after "PREFIX:" */
	sym = spec + strlen(kind->prefix) + 1;
	type = kind->type;
	if (type == KPROF_TYPE_TRACEPOINT) {
		const char *name = strchr(sym, ':');
		/* "*:NAME": NAME whatever its subsystem (or it has none) */
		const char *sys = strncmp(sym, "*:", 2) ? sym : sym + 1;

		if (!name || name == sym || !name[1] ||
		    strspn(sys, "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") !=
		    strlen(sys) || strchr(name + 1, ':')) {
			snprintf(err, errlen,
				 "bad tracepoint '%s' (expected tracepoint:SUBSYS:NAME)",
				 spec);
			return 0;
		}
		return type;
	}
	if (type == KPROF_TYPE_PAIR) {
		if (!kp_is_pair(sym)) {
			join_or(kprof_pair_names(), help, sizeof(help));
			snprintf(err, errlen, "unknown pair '%s' (%s)", sym,
				 help);
			return 0;
		}
		return type;
	}
	if (type == KPROF_TYPE_PMU) {
		char list[KPROF_PMU_SPEC_LEN], why[640];

		if (kp_pmu_parse_events(sym, list, sizeof(list), why,
					sizeof(why))) {
			snprintf(err, errlen, "%s", why);
			return 0;
		}
		return type;
	}
	if (type == KPROF_TYPE_SAMPLE)
		return sample_ok(sym, spec, err, errlen) ? type : 0;
	if (type == KPROF_TYPE_OFFCPU) {
		if (strcmp(sym, "all") && strcmp(sym, "uninterruptible")) {
			snprintf(err, errlen, "'%s': the waits of offcpu: are "
				 "all or uninterruptible (I/O, most mutexes)",
				 spec);
			return 0;
		}
		return type;
	}
	if (type == KPROF_TYPE_MEM) {
		/* as modprobe names modules; the kernel's MODULE_NAME_LEN */
		if (!*sym || strlen(sym) >= 56 ||
		    strspn(sym, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_-") != strlen(sym)) {
			snprintf(err, errlen, "'%s': mem: takes a module's name "
				 "(letters, digits, _ and -), e.g. mem:mydrv",
				 spec);
			return 0;
		}
		return type;
	}
	if (kind->flags & KPROF_KIND_SET)
		return set_ok(kind, sym, spec, err, errlen) ? type : 0;
	/* the kprobe kinds: [MOD:]SYM, and +OFF where the syntax has it */
	plus = strrchr(sym, '+');
	if (plus && !strstr(kind->syntax, "+OFF")) {
		snprintf(err, errlen, "a %s takes no offset: '%s'",
			 kind->prefix, spec);
		return 0;
	}
	if (plus && kp_parse_u64(plus + 1, 0, UINT32_MAX, &off)) {
		snprintf(err, errlen, "bad offset '%s'", plus + 1);
		return 0;
	}
	if (!sym_ok(sym, plus ? (size_t)(plus - sym) : strlen(sym))) {
		snprintf(err, errlen, "bad symbol in '%s' (expected SYM or MOD:SYM)",
			 spec);
		return 0;
	}
	return type;
}

int kp_probe_func(const char *spec, char *buf, size_t len)
{
	const struct kprof_kind *k = kprof_kind_of_spec(spec);
	const char *sym, *plus;
	size_t n;

	if (!k || (k->type != KPROF_TYPE_KPROBE &&
		   k->type != KPROF_TYPE_KRETPROBE))
		return -1;
	sym = spec + strlen(k->prefix) + 1;
	plus = strrchr(sym, '+');
	n = plus ? (size_t)(plus - sym) : strlen(sym);
	if (!n || n >= len)
		return -1;
	memcpy(buf, sym, n);
	buf[n] = '\0';
	return 0;
}

int kp_same_func(const char *a, const char *b)
{
	const char *sa = strrchr(a, ':'), *sb = strrchr(b, ':');

	if (sa && sb)
		return !strcmp(a, b);
	return !strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b);
}

void kp_parse_err_format(const char *opt, const char *text,
			 const struct kprof_parse_err *e, char *buf,
			 size_t len)
{
	size_t n, tl = strlen(text), off = e->off < tl ? e->off : tl;
	size_t span = e->len ? e->len : 1, i;

	n = (size_t)snprintf(buf, len, "%s: %s", opt, e->msg);
	if (e->quote && n < len)
		n += (size_t)snprintf(buf + n, len - n, " '%.*s'", (int)e->len,
				      text + off);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "\n  %s\n  ", text);
	/* the pad keeps the text's tabs, so the carets line up */
	for (i = 0; i < off && n + 1 < len; i++)
		buf[n++] = text[i] == '\t' ? '\t' : ' ';
	for (i = 0; i < span && n + 1 < len; i++)
		buf[n++] = '^';
	if (n + 1 < len)
		buf[n++] = '\n';
	if (n < len)
		buf[n] = '\0';
	else if (len)
		buf[len - 1] = '\0';
}

static const char *const kp_key_names[] = {
	[KPROF_KEY_RETVAL] = "retval", [KPROF_KEY_CALLER] = "caller",
	[KPROF_KEY_PID] = "pid", [KPROF_KEY_TGID] = "tgid",
	[KPROF_KEY_COMM] = "comm", [KPROF_KEY_CPU] = "cpu",
	[KPROF_KEY_STACK] = "stack", [KPROF_KEY_MEM] = "mem",
};

/* a mem probe's rows (KPROF_MEM_*) */
static const char *const kp_mem_rows[] = {
	[KPROF_MEM_KMALLOC] = "kmalloc", [KPROF_MEM_CACHE] = "kmem_cache",
	[KPROF_MEM_FREE] = "free", [KPROF_MEM_LEAK] = "leak",
	[KPROF_MEM_VMALLOC] = "vmalloc", [KPROF_MEM_DMA_COHERENT] = "dma_coherent",
	[KPROF_MEM_DMA_BIDI] = "dma_bidi", [KPROF_MEM_DMA_TO_DEVICE] = "dma_to_dev",
	[KPROF_MEM_DMA_FROM_DEVICE] = "dma_from_dev", [KPROF_MEM_PAGES] = "pages",
	[KPROF_MEM_PEAK] = "peak", [KPROF_MEM_PEAK_ALL] = "peak_all",
};

const char *kp_mem_row_name(uint64_t row)
{
	return row < sizeof(kp_mem_rows) / sizeof(kp_mem_rows[0]) &&
	       kp_mem_rows[row] ? kp_mem_rows[row] : "?";
}

/* ":64" or ":s32" where it is not the field's default, else "" */
static const char *width_suffix(int is_retval, int s32)
{
	if (is_retval)
		return s32 ? "" : ":64";
	return s32 ? ":s32" : "";
}

void kp_key_format(__u32 spec, char *buf, size_t len)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);
	unsigned int flags = KPROF_KEYSPEC_FLAGS(spec);
	char name[8];

	if (kind == KPROF_KEY_ARG)
		snprintf(name, sizeof(name), "arg%u", KPROF_KEYSPEC_ARG(spec));
	else
		snprintf(name, sizeof(name), "%s",
			 kind < sizeof(kp_key_names) / sizeof(kp_key_names[0]) &&
			 kp_key_names[kind] ? kp_key_names[kind] : "?");
	snprintf(buf, len, "%s%s%s%s", name,
		 flags & KPROF_KEYF_BOOL ? ":bool" : "",
		 flags & KPROF_KEYF_LOG2 ? ":log2" : "",
		 kind == KPROF_KEY_RETVAL || kind == KPROF_KEY_ARG ?
		 width_suffix(kind == KPROF_KEY_RETVAL,
			      flags & KPROF_KEYF_S32) : "");
}

/* base 10 unless 0x is written */
static int num_base(const char *s)
{
	return strncasecmp(s, "0x", 2) ? 10 : 16;
}

void kp_keyval_format(__u32 spec, uint64_t v, const char *name, char *buf,
		      size_t len)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);
	unsigned int flags = KPROF_KEYSPEC_FLAGS(spec);
	int64_t sv = (int64_t)v;
	const char *e;

	if (kind == KPROF_KEY_COMM) {
		snprintf(buf, len, "%s", name);
		return;
	}
	if (kind == KPROF_KEY_CALLER) {
		if (!v)
			snprintf(buf, len, "caller ? (more callers than ids)");
		else if (name && *name)
			snprintf(buf, len, "%s", name);
		else
			snprintf(buf, len, "caller #%" PRIu64, v);
		return;
	}
	if (kind == KPROF_KEY_MEM) {
		snprintf(buf, len, "%s", kp_mem_row_name(v));
		return;
	}
	if (kind == KPROF_KEY_STACK) {
		if (!v)
			snprintf(buf, len, "stack ? (more stacks than ids)");
		else
			snprintf(buf, len, "stack #%" PRIu64, v);
		return;
	}
	if (kind != KPROF_KEY_RETVAL && kind != KPROF_KEY_ARG) {
		snprintf(buf, len, "%" PRIu64, v);
		return;
	}
	if (flags & KPROF_KEYF_BOOL) {
		snprintf(buf, len, "%s", v ? "error" : "ok");
	} else if (flags & KPROF_KEYF_LOG2) {
		if (v <= 1)
			snprintf(buf, len, "%" PRIu64, v);
		else
			snprintf(buf, len, "%" PRIu64 "..%" PRIu64, v,
				 v + (v - 1));
	} else if (v == KPROF_KEY_KPTR) {
		snprintf(buf, len, "kernel pointer");
	} else if (kind == KPROF_KEY_RETVAL && sv < 0 &&
		   sv >= -KPROF_MAX_ERRNO &&
		   (e = kprof_errno_name((unsigned int)-sv))) {
		snprintf(buf, len, "-%s (%" PRId64 ")", e, sv);
	} else if (sv < 0 && ((flags & KPROF_KEYF_S32) ||
			      kind == KPROF_KEY_RETVAL)) {
		snprintf(buf, len, "%" PRId64, sv);
	} else if (v >> 32) {
		snprintf(buf, len, "0x%" PRIx64, v);
	} else {
		snprintf(buf, len, "%" PRIu64, v);
	}
}

int kp_keyval_match(__u32 spec, uint64_t v, const char *want)
{
	char label[KP_KEY_LABEL], *end;
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);
	const char *e;
	int64_t sv = (int64_t)v;
	uint64_t u;

	kp_keyval_format(spec, v, "", label, sizeof(label));
	if (!strcmp(want, label))
		return 1;
	/* a caller or stack by id: "#3" */
	if ((kind == KPROF_KEY_CALLER || kind == KPROF_KEY_STACK) &&
	    want[0] == '#')
		want++;
	if (kind == KPROF_KEY_COMM || (KPROF_KEYSPEC_FLAGS(spec) &
				       (KPROF_KEYF_BOOL | KPROF_KEYF_LOG2)))
		return 0;
	if (kind == KPROF_KEY_RETVAL && want[0] == '-' && sv < 0 &&
	    sv >= -KPROF_MAX_ERRNO &&
	    (e = kprof_errno_name((unsigned int)-sv)) && !strcmp(want + 1, e))
		return 1;
	errno = 0;
	if (want[0] == '-') {
		long long x = strtoll(want, &end, num_base(want + 1));

		return !errno && end != want && !*end && x == sv;
	}
	u = strtoull(want, &end, num_base(want));
	return !errno && end != want && !*end && u == v;
}

void kp_filter_format(const struct kprof_filter *f, char *buf, size_t len)
{
	static const char *const fields[] = {
		[KPROF_F_RETVAL] = "retval", [KPROF_F_PID] = "pid",
		[KPROF_F_TGID] = "tgid", [KPROF_F_CPU] = "cpu",
		[KPROF_F_LATENCY] = "latency", [KPROF_F_COMM] = "comm",
	};
	static const char *const ops[] = {
		[KPROF_OP_EQ] = "==", [KPROF_OP_NE] = "!=", [KPROF_OP_LT] = "<",
		[KPROF_OP_LE] = "<=", [KPROF_OP_GT] = ">", [KPROF_OP_GE] = ">=",
		[KPROF_OP_AND] = "&",
	};
	size_t n = 0;
	unsigned int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < f->nr && i < KPROF_FILTER_TERMS && n < len; i++) {
		const struct kprof_term *t = &f->term[i];
		int s32 = t->flags & KPROF_TERM_S32;
		const char *op = t->op <= KPROF_OP_MAX && ops[t->op] ?
				 ops[t->op] : "?";
		const char *en = NULL;
		char field[16], val[32];
		int64_t sv = (int64_t)t->value;

		if (t->field >= KPROF_F_ARG1 && t->field <= KPROF_F_ARG6)
			snprintf(field, sizeof(field), "arg%u%s",
				 t->field - KPROF_F_ARG1 + 1,
				 width_suffix(0, s32));
		else
			snprintf(field, sizeof(field), "%s%s",
				 t->field <= KPROF_F_MAX && fields[t->field] ?
				 fields[t->field] : "?",
				 t->field == KPROF_F_RETVAL ?
				 width_suffix(1, s32) : "");
		if (t->field == KPROF_F_COMM)
			snprintf(val, sizeof(val), "%.*s", KPROF_COMM_LEN,
				 t->comm);
		else if (t->op == KPROF_OP_AND)
			snprintf(val, sizeof(val), "0x%llx",
				 (unsigned long long)t->value);
		else if (!kprof_field_signed(t->field))
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)t->value);
		else if (t->field == KPROF_F_RETVAL && sv < 0 &&
			 sv >= -KPROF_MAX_ERRNO &&
			 (en = kprof_errno_name((unsigned int)-sv)))
			snprintf(val, sizeof(val), "-%s", en);
		else
			snprintf(val, sizeof(val), "%lld", (long long)sv);
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s",
				      i ? "&&" : "", field, op, val);
	}
}

int kp_keys_fill(const char *const *keys, unsigned int nr_key,
		 uint32_t nr_keys, const char *filter, unsigned int type,
		 struct kprof_probe_add *a, char *msg, size_t len)
{
	struct kprof_parse_err e;
	unsigned int i;

	for (i = 0; i < nr_key && i < KPROF_MAX_KEYS; i++) {
		if (kprof_key_parse(keys[i], &a->key[i], &e)) {
			kp_parse_err_format("--key", keys[i], &e, msg, len);
			return -1;
		}
		if (kprof_key_check(a->key[i], type, &e)) {
			snprintf(msg, len, "--key %s: %s\n", keys[i], e.msg);
			return -1;
		}
	}
	if (nr_key == 2 && kprof_keys_valid(a->key, 0)) {
		snprintf(msg, len, "--key %s and --key %s key the same value "
			 "twice\n", keys[0], keys[1]);
		return -1;
	}
	if (nr_keys && !nr_key) {
		snprintf(msg, len, "--keys goes with --key\n");
		return -1;
	}
	a->nr_keys = nr_keys;
	if (filter && (kprof_filter_parse(filter, &a->filter, &e) ||
		       kprof_filter_check(&a->filter, type, &e))) {
		kp_parse_err_format("--if", filter, &e, msg, len);
		return -1;
	}
	return 0;
}
