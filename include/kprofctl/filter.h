/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Keys and filters (ABI 1.9): the text of --key and --if parsed into key
 * specs and struct kprof_filter, their validation, what each probe type
 * can evaluate, and the errno names.  Shared verbatim by the module (it
 * validates ADD with it) and the CLI (it parses, prints errno names), so
 * a rule is written once.  No allocation, no floating point, no formatted
 * output: an error is a static message and the span of the text at fault.
 *
 * --if grammar (spaces anywhere between tokens):
 *	expr  := term { "&&" term }		at most KPROF_FILTER_TERMS
 *	term  := field op number | "comm" ("==" | "!=") NAME
 *	field := "retval" [":64" | ":s32"] | "arg"1-6 [":64" | ":s32"] |
 *		 "pid" | "tgid" | "cpu" | "latency"
 *	op    := "==" | "!=" | "<" | "<=" | ">" | ">=" | "&"
 *	number:= ["-"] (decimal | "0x" hex | errno name, retval only)
 * retval is a C int unless ":64" (KPROF_TERM_S32, see the uapi header),
 * arguments are 64-bit unless ":s32"; both are signed.  pid, tgid, cpu
 * and latency (ns) are unsigned.  NAME is a comm, 1-15 characters up to
 * a space or '&'.
 *
 * --key: retval[:bool|:log2][:64|:s32], argN[:log2][:64|:s32], caller,
 * pid, tgid, comm, cpu, stack.
 */
#ifndef KPROF_FILTER_H
#define KPROF_FILTER_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#endif

#include "../../uapi/linux/kprofctl.h"

/* -4095..-1: an errno, or an ERR_PTR() (the kernel's MAX_ERRNO) */
#define KPROF_MAX_ERRNO		4095

/*
 * Does a key record register value @x as KPROF_KEY_KPTR?  From
 * KPROF_KEY_KPTR up, bar the errno values.  With @tagged (arm64, where
 * KASAN's software tags and MTE put a tag in a kernel pointer's top byte)
 * the top byte is read as bit 55 repeated first, as the kernel untags.
 */
static inline bool kprof_key_is_kptr(__u64 x, bool tagged)
{
	if (tagged)
		x = (__u64)((__s64)(x << 8) >> 8);
	return x >= KPROF_KEY_KPTR && x < (__u64)-KPROF_MAX_ERRNO;
}

struct kprof_errno {
	unsigned short nr;
	const char *name;
};

/*
 * The errno values a driver or the kernel core returns, asm-generic
 * numbers (the same on arm64 and x86), and the kernel-internal ones
 * (512 and up) that reach a kretprobe.  Sorted by number.
 */
static inline const struct kprof_errno *kprof_errnos(unsigned int *nr)
{
	static const struct kprof_errno tab[] = {
		{ 1, "EPERM" }, { 2, "ENOENT" }, { 3, "ESRCH" },
		{ 4, "EINTR" }, { 5, "EIO" }, { 6, "ENXIO" }, { 7, "E2BIG" },
		{ 8, "ENOEXEC" }, { 9, "EBADF" }, { 10, "ECHILD" },
		{ 11, "EAGAIN" }, { 12, "ENOMEM" }, { 13, "EACCES" },
		{ 14, "EFAULT" }, { 15, "ENOTBLK" }, { 16, "EBUSY" },
		{ 17, "EEXIST" }, { 18, "EXDEV" }, { 19, "ENODEV" },
		{ 20, "ENOTDIR" }, { 21, "EISDIR" }, { 22, "EINVAL" },
		{ 23, "ENFILE" }, { 24, "EMFILE" }, { 25, "ENOTTY" },
		{ 26, "ETXTBSY" }, { 27, "EFBIG" }, { 28, "ENOSPC" },
		{ 29, "ESPIPE" }, { 30, "EROFS" }, { 31, "EMLINK" },
		{ 32, "EPIPE" }, { 33, "EDOM" }, { 34, "ERANGE" },
		{ 35, "EDEADLK" }, { 36, "ENAMETOOLONG" }, { 37, "ENOLCK" },
		{ 38, "ENOSYS" }, { 39, "ENOTEMPTY" }, { 40, "ELOOP" },
		{ 42, "ENOMSG" }, { 43, "EIDRM" }, { 61, "ENODATA" },
		{ 62, "ETIME" }, { 67, "ENOLINK" }, { 71, "EPROTO" },
		{ 74, "EBADMSG" }, { 75, "EOVERFLOW" }, { 84, "EILSEQ" },
		{ 90, "EMSGSIZE" }, { 95, "EOPNOTSUPP" },
		{ 98, "EADDRINUSE" }, { 99, "EADDRNOTAVAIL" },
		{ 100, "ENETDOWN" }, { 101, "ENETUNREACH" },
		{ 103, "ECONNABORTED" }, { 104, "ECONNRESET" },
		{ 105, "ENOBUFS" }, { 106, "EISCONN" }, { 107, "ENOTCONN" },
		{ 108, "ESHUTDOWN" }, { 110, "ETIMEDOUT" },
		{ 111, "ECONNREFUSED" }, { 113, "EHOSTUNREACH" },
		{ 114, "EALREADY" }, { 115, "EINPROGRESS" }, { 116, "ESTALE" },
		{ 121, "EREMOTEIO" }, { 122, "EDQUOT" }, { 123, "ENOMEDIUM" },
		{ 125, "ECANCELED" }, { 512, "ERESTARTSYS" },
		{ 513, "ERESTARTNOINTR" }, { 515, "ENOIOCTLCMD" },
		{ 517, "EPROBE_DEFER" }, { 524, "ENOTSUPP" },
		{ 529, "EIOCBQUEUED" },
		{ 0, NULL },
	};

	for (*nr = 0; tab[*nr].name; (*nr)++)
		;
	return tab;
}

/* "EAGAIN" for 11 (a positive errno), or NULL */
static inline const char *kprof_errno_name(unsigned int nr)
{
	unsigned int n, i;
	const struct kprof_errno *e = kprof_errnos(&n);

	for (i = 0; i < n; i++)
		if (e[i].nr == nr)
			return e[i].name;
	return NULL;
}

/* 11 for the len bytes "EAGAIN", or 0 */
static inline unsigned int kprof_errno_by_name(const char *s, size_t len)
{
	unsigned int n, i;
	const struct kprof_errno *e = kprof_errnos(&n);

	for (i = 0; i < n; i++)
		if (strlen(e[i].name) == len && !strncmp(e[i].name, s, len))
			return e[i].nr;
	return 0;
}

/*
 * A parse or check error: msg (static text; NULL: none) about the len
 * bytes at off of the text; with quote, msg names them: "MSG 'TEXT'".
 * The filter parser also records where each term is, so that a later
 * kprof_filter_check() can point at the term it refuses.
 */
struct kprof_parse_err {
	const char *msg;
	unsigned int off, len;
	bool quote;
	unsigned int term_off[KPROF_FILTER_TERMS];
	unsigned int term_len[KPROF_FILTER_TERMS];
};

static inline int kprof_parse_fail(struct kprof_parse_err *err,
				   const char *msg, unsigned int off,
				   unsigned int len, bool quote)
{
	if (err) {
		err->msg = msg;
		err->off = off;
		err->len = len;
		err->quote = quote;
	}
	return -1;
}

static inline bool kprof_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static inline bool kprof_is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static inline unsigned int kprof_skip_space(const char *s, unsigned int i)
{
	while (kprof_is_space(s[i]))
		i++;
	return i;
}

/* bytes of a word ([A-Za-z0-9_]) at s */
static inline unsigned int kprof_word_len(const char *s)
{
	unsigned int n = 0;

	while (kprof_is_word(s[n]))
		n++;
	return n;
}

static inline bool kprof_word_is(const char *s, unsigned int len,
				 const char *word)
{
	return strlen(word) == len && !strncmp(s, word, len);
}

/* retval and the arguments: signed, with a register width */
static inline bool kprof_field_signed(unsigned int field)
{
	return field >= KPROF_F_RETVAL && field <= KPROF_F_ARG6;
}

/*
 * A field name and its modifiers ("retval:64") at s[0..len) into *field
 * and *flags (KPROF_TERM_*).
 */
static inline int kprof_field_parse(const char *s, unsigned int len,
				    unsigned int off, unsigned int *field,
				    unsigned int *flags,
				    struct kprof_parse_err *err)
{
	static const struct {
		const char *name;
		unsigned int field;
	} names[] = {
		{ "retval", KPROF_F_RETVAL }, { "pid", KPROF_F_PID },
		{ "tgid", KPROF_F_TGID }, { "cpu", KPROF_F_CPU },
		{ "latency", KPROF_F_LATENCY }, { "comm", KPROF_F_COMM },
		{ NULL, 0 },
	};
	const char *colon = memchr(s, ':', len);
	unsigned int n = colon ? colon - s : len, i;

	*field = 0;
	for (i = 0; names[i].name; i++)
		if (kprof_word_is(s, n, names[i].name))
			*field = names[i].field;
	if (!*field && n > 3 && !strncmp(s, "arg", 3) && s[3] >= '0' &&
	    s[3] <= '9') {
		if (n != 4 || s[3] < '1' || s[3] > '6')
			return kprof_parse_fail(err,
						"the arguments are arg1 to arg6, not",
						off, n, true);
		*field = KPROF_F_ARG1 + s[3] - '1';
	}
	if (!*field)
		return kprof_parse_fail(err, "unknown field", off, n, true);
	/* the default width: retval is an int, arguments 64-bit */
	*flags = *field == KPROF_F_RETVAL ? KPROF_TERM_S32 : 0;
	if (!colon)
		return 0;
	s += n + 1;
	len -= n + 1;
	off += n + 1;
	if (!kprof_field_signed(*field))
		return kprof_parse_fail(err,
					"a width (:64, :s32) is for retval and arguments only, not",
					off - 1, len + 1, true);
	if (kprof_word_is(s, len, "64"))
		*flags = 0;
	else if (kprof_word_is(s, len, "s32"))
		*flags = KPROF_TERM_S32;
	else
		return kprof_parse_fail(err, "unknown width (:64 or :s32)", off,
					len, true);
	return 0;
}

/*
 * The operator at s, its length in *n; 0 if there is none.  A lone '&'
 * is AND; "&&" is not an operator.
 */
static inline unsigned int kprof_op_parse(const char *s, unsigned int *n)
{
	*n = 2;
	if (s[0] == '=' && s[1] == '=')
		return KPROF_OP_EQ;
	if (s[0] == '!' && s[1] == '=')
		return KPROF_OP_NE;
	if (s[0] == '<' && s[1] == '=')
		return KPROF_OP_LE;
	if (s[0] == '>' && s[1] == '=')
		return KPROF_OP_GE;
	*n = 1;
	if (s[0] == '<')
		return KPROF_OP_LT;
	if (s[0] == '>')
		return KPROF_OP_GT;
	if (s[0] == '&' && s[1] != '&')
		return KPROF_OP_AND;
	*n = 0;
	return 0;
}

/*
 * A magnitude, decimal or "0x" hex, in the word s[0..len): 0 and *v, -1
 * if it is not a number, -2 if it does not fit 64 bits.
 */
static inline int kprof_mag_parse(const char *s, unsigned int len, __u64 *v)
{
	unsigned int base = 10, i = 0, d;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (*v = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return -1;
		if (*v > (~0ULL - d) / base)
			return -2;
		*v = *v * base + d;
	}
	return 0;
}

/*
 * The constant of a numeric term at text[*pos], range-checked for its
 * field, width and operator, into t->value.
 */
static inline int kprof_value_parse(const char *text, unsigned int *pos,
				    struct kprof_term *t,
				    struct kprof_parse_err *err)
{
	unsigned int i = *pos, start = *pos, n;
	bool neg = false, s32 = t->flags & KPROF_TERM_S32;
	__u64 mag, max;
	int ret;

	if (text[i] == '-') {
		neg = true;
		i++;
	}
	n = kprof_word_len(text + i);
	if (!n)
		return kprof_parse_fail(err, "expected a number", i,
					text[i] ? 1 : 0, false);
	*pos = i + n;
	if (text[i] >= 'A' && text[i] <= 'Z') {
		if (t->field != KPROF_F_RETVAL)
			return kprof_parse_fail(err,
						"errno names are for retval only:",
						start, i + n - start, true);
		if (!neg)
			return kprof_parse_fail(err,
						"an errno name needs its minus sign:",
						start, n, true);
		mag = kprof_errno_by_name(text + i, n);
		if (!mag)
			return kprof_parse_fail(err, "unknown errno name", i, n,
						true);
		t->value = -mag;
		return 0;
	}
	ret = kprof_mag_parse(text + i, n, &mag);
	if (ret == -1)
		return kprof_parse_fail(err,
					"not a number (decimal, or hex with 0x):",
					start, i + n - start, true);
	if (neg && !kprof_field_signed(t->field))
		return kprof_parse_fail(err, "this field is unsigned: no",
					start, i + n - start, true);
	if (neg && t->op == KPROF_OP_AND)
		return kprof_parse_fail(err, "a mask is not negative:", start,
					i + n - start, true);
	if (neg)
		max = s32 ? 1ULL << 31 : 1ULL << 63;
	else if (!kprof_field_signed(t->field))
		max = t->field == KPROF_F_LATENCY ? ~0ULL : 0xffffffffULL;
	else if (t->op == KPROF_OP_AND)	/* a mask: any bits */
		max = s32 ? 0xffffffffULL : ~0ULL;
	else
		max = s32 ? 0x7fffffffULL : ~0ULL >> 1;
	if (ret == -2 || mag > max)
		return kprof_parse_fail(err, "out of range for this field:",
					start, i + n - start, true);
	t->value = neg ? -mag : mag;
	return 0;
}

/* "comm == NAME": the name at text[*pos] into t->comm */
static inline int kprof_comm_parse(const char *text, unsigned int *pos,
				   struct kprof_term *t,
				   struct kprof_parse_err *err)
{
	unsigned int i = *pos, n = 0;

	while (text[i + n] && !kprof_is_space(text[i + n]) &&
	       text[i + n] != '&')
		n++;
	*pos = i + n;
	if (!n)
		return kprof_parse_fail(err, "expected a comm (a task name)", i,
					text[i] ? 1 : 0, false);
	if (n >= KPROF_COMM_LEN)
		return kprof_parse_fail(err, "a comm is at most 15 characters:",
					i, n, true);
	memcpy(t->comm, text + i, n);
	return 0;
}

/*
 * Parses --if text into *f (zeroed first): 0, or -1 with *err (which may
 * be NULL) saying what and where.
 */
static inline int kprof_filter_parse(const char *text, struct kprof_filter *f,
				     struct kprof_parse_err *err)
{
	unsigned int i, start, n, field, flags, op;
	struct kprof_term *t;

	memset(f, 0, sizeof(*f));
	if (err)
		memset(err, 0, sizeof(*err));
	i = kprof_skip_space(text, 0);
	if (!text[i])
		return kprof_parse_fail(err, "empty expression", i, 0, false);
	for (;;) {
		start = i;
		n = 0;
		while (kprof_is_word(text[i + n]) || text[i + n] == ':')
			n++;
		if (!n)
			return kprof_parse_fail(err,
						"expected a field (retval, argN, pid, tgid, cpu, latency, comm)",
						i, text[i] ? 1 : 0, false);
		if (f->nr == KPROF_FILTER_TERMS) {
			/* the whole term that is one too many */
			while (text[i + n] && !(text[i + n] == '&' &&
						text[i + n + 1] == '&'))
				n++;
			while (n && kprof_is_space(text[i + n - 1]))
				n--;
			return kprof_parse_fail(err,
						"at most 4 terms joined by &&",
						i, n, false);
		}
		if (kprof_field_parse(text + i, n, i, &field, &flags, err))
			return -1;
		i = kprof_skip_space(text, i + n);
		op = kprof_op_parse(text + i, &n);
		if (!op)
			return kprof_parse_fail(err,
						"expected an operator (==, !=, <, <=, >, >=, &)",
						i, text[i] ? 1 : 0, false);
		if (field == KPROF_F_COMM && op == KPROF_OP_AND)
			return kprof_parse_fail(err,
						"'&' needs a field that is a number",
						i, n, false);
		if (field == KPROF_F_COMM && op != KPROF_OP_EQ &&
		    op != KPROF_OP_NE)
			return kprof_parse_fail(err, "comm takes == or != only",
						i, n, false);
		t = &f->term[f->nr];
		t->field = field;
		t->op = op;
		t->flags = flags;
		i = kprof_skip_space(text, i + n);
		if (field == KPROF_F_COMM ? kprof_comm_parse(text, &i, t, err) :
		    kprof_value_parse(text, &i, t, err))
			return -1;
		if (err) {
			err->term_off[f->nr] = start;
			err->term_len[f->nr] = i - start;
		}
		f->nr++;
		i = kprof_skip_space(text, i);
		if (!text[i])
			return 0;
		if (text[i] != '&' || text[i + 1] != '&') {
			for (n = 0; text[i + n] && !kprof_is_space(text[i + n]);)
				n++;
			return kprof_parse_fail(err,
						"expected && between terms, not",
						i, n, true);
		}
		i = kprof_skip_space(text, i + 2);
		if (!text[i])
			return kprof_parse_fail(err, "expected a term after &&",
						i, 0, false);
	}
}

/*
 * A valid term's comparison (not COMM) as the module evaluates it: one
 * unsigned range that may wrap.  x, the field's value (first made a C int
 * with KPROF_TERM_S32), passes if (x & mask) - lo <= span.  Signed fields
 * compare in unsigned order after adding 2^63, which moves lo; "!=" is all
 * but one value, "&" is x & value in 1 .. value, and a term no value can
 * pass is mask 0, lo 1, span 0.
 */
struct kprof_range {
	__u64 mask, lo, span;
};

static inline bool kprof_range_has(const struct kprof_range *r, __u64 x)
{
	return (x & r->mask) - r->lo <= r->span;
}

static inline struct kprof_range kprof_term_range(const struct kprof_term *t)
{
	const __u64 max = ~0ULL;
	__u64 bias = kprof_field_signed(t->field) ? 1ULL << 63 : 0;
	__u64 c = t->value + bias, lo = 0, hi = max;
	struct kprof_range r = { max, 0, 0 };

	switch (t->op) {
	case KPROF_OP_EQ:
		lo = hi = c;
		break;
	case KPROF_OP_NE:
		lo = c + 1;
		hi = c - 1;
		break;
	case KPROF_OP_LT:
		if (!c)
			goto never;
		hi = c - 1;
		break;
	case KPROF_OP_LE:
		hi = c;
		break;
	case KPROF_OP_GT:
		if (c == max)
			goto never;
		lo = c + 1;
		break;
	case KPROF_OP_GE:
		lo = c;
		break;
	default:	/* KPROF_OP_AND */
		if (!t->value)
			goto never;
		r.mask = t->value;
		r.lo = 1;
		r.span = t->value - 1;
		return r;
	}
	r.lo = lo - bias;
	r.span = hi - lo;
	return r;
never:
	r.mask = 0;
	r.lo = 1;
	return r;
}

/*
 * Is *f well formed (the module's check of ADD, before the kind's)?  Every
 * field, operator and flag known and allowed with each other, unused terms
 * and reserved parts zero.  0 or -1.
 */
static inline int kprof_filter_valid(const struct kprof_filter *f)
{
	static const struct kprof_term zero;
	const struct kprof_term *t;
	unsigned int i;

	if (f->nr > KPROF_FILTER_TERMS || f->reserved0)
		return -1;
	for (i = 0; i < KPROF_FILTER_TERMS; i++) {
		t = &f->term[i];
		if (i >= f->nr) {
			if (memcmp(t, &zero, sizeof(*t)))
				return -1;
			continue;
		}
		if (!t->field || t->field > KPROF_F_MAX || !t->op ||
		    t->op > KPROF_OP_MAX || t->flags & ~KPROF_TERM_FLAGS)
			return -1;
		if ((t->flags & KPROF_TERM_S32) &&
		    !kprof_field_signed(t->field))
			return -1;
		if (t->field != KPROF_F_COMM) {
			if (memcmp(t->comm, zero.comm, sizeof(t->comm)))
				return -1;
			continue;
		}
		/* 1-15 characters, NUL-padded */
		if ((t->op != KPROF_OP_EQ && t->op != KPROF_OP_NE) ||
		    t->value || !t->comm[0] ||
		    t->comm[KPROF_COMM_LEN - 1] ||
		    memcmp(t->comm + strlen(t->comm), zero.comm,
			   KPROF_COMM_LEN - strlen(t->comm)))
			return -1;
	}
	return 0;
}

static inline bool kprof_type_is_kret(unsigned int type)
{
	return type == KPROF_TYPE_KRETPROBE ||
	       type == KPROF_TYPE_KRETPROBE_SET;
}

static inline bool kprof_type_is_set(unsigned int type)
{
	return type == KPROF_TYPE_KPROBE_SET ||
	       type == KPROF_TYPE_KRETPROBE_SET;
}

static inline bool kprof_type_has_args(unsigned int type)
{
	return type == KPROF_TYPE_KPROBE || type == KPROF_TYPE_KRETPROBE ||
	       type == KPROF_TYPE_KPROBE_SET ||
	       type == KPROF_TYPE_KRETPROBE_SET;
}

/* the kinds with a task and a CPU per call: all but pairs and pmu */
static inline bool kprof_type_has_task(unsigned int type)
{
	return kprof_type_has_args(type) || type == KPROF_TYPE_TRACEPOINT ||
	       type == KPROF_TYPE_SAMPLE || type == KPROF_TYPE_OFFCPU;
}

/*
 * Can a probe of @type (KPROF_TYPE_*) evaluate every term of a valid *f?
 * 0, or -1 with *err (may be NULL) pointing at the term, where the parser
 * recorded it.
 */
static inline int kprof_filter_check(const struct kprof_filter *f,
				     unsigned int type,
				     struct kprof_parse_err *err)
{
	const char *msg = NULL;
	unsigned int i, field;

	for (i = 0; i < f->nr && !msg; i++) {
		field = f->term[i].field;
		if (type == KPROF_TYPE_MEM)
			msg = "mem: probes take no --if: they follow a module's allocations wherever they are freed";
		else if (!kprof_type_has_task(type))
			msg = "pair: and pmu: probes take no --if";
		else if (field == KPROF_F_RETVAL && !kprof_type_is_kret(type))
			msg = "retval only on kretprobes";
		else if (field == KPROF_F_LATENCY && !kprof_type_is_kret(type))
			msg = "latency only on kretprobes";
		else if (field >= KPROF_F_ARG1 && field <= KPROF_F_ARG6 &&
			 type == KPROF_TYPE_KPROBE_SET)
			msg = "arguments on a function set only with kretprobe: (ftrace passes none)";
		else if (field >= KPROF_F_ARG1 && field <= KPROF_F_ARG6 &&
			 !kprof_type_has_args(type))
			msg = "arguments only on kprobes and kretprobes";
	}
	if (!msg)
		return 0;
	i--;
	return kprof_parse_fail(err, msg, err ? err->term_off[i] : 0,
				err ? err->term_len[i] : 0, false);
}

/*
 * Parses one --key value into *spec (KPROF_KEYSPEC): 0, or -1 with *err
 * (may be NULL).
 */
static inline int kprof_key_parse(const char *text, __u32 *spec,
				  struct kprof_parse_err *err)
{
	static const struct {
		const char *name;
		unsigned int kind;
	} names[] = {
		{ "retval", KPROF_KEY_RETVAL }, { "caller", KPROF_KEY_CALLER },
		{ "pid", KPROF_KEY_PID }, { "tgid", KPROF_KEY_TGID },
		{ "comm", KPROF_KEY_COMM }, { "cpu", KPROF_KEY_CPU },
		{ "stack", KPROF_KEY_STACK }, { NULL, 0 },
	};
	unsigned int kind = 0, arg = 0, flags = 0, i, n, off;
	bool width = false;

	if (err)
		memset(err, 0, sizeof(*err));
	*spec = 0;
	n = kprof_word_len(text);
	for (i = 0; names[i].name; i++)
		if (kprof_word_is(text, n, names[i].name))
			kind = names[i].kind;
	if (!kind && n == 4 && !strncmp(text, "arg", 3) && text[3] >= '1' &&
	    text[3] <= '6') {
		kind = KPROF_KEY_ARG;
		arg = text[3] - '0';
	}
	if (!kind)
		return kprof_parse_fail(err,
					"unknown key (retval, argN, caller, pid, tgid, comm, cpu, stack):",
					0, strlen(text), true);
	if (kind == KPROF_KEY_RETVAL)
		flags = KPROF_KEYF_S32;
	for (off = n; text[off]; off += n) {
		if (text[off] != ':')
			return kprof_parse_fail(err, "expected :MODIFIER, not",
						off, strlen(text + off), true);
		off++;
		n = kprof_word_len(text + off);
		if (kind != KPROF_KEY_RETVAL && kind != KPROF_KEY_ARG)
			return kprof_parse_fail(err,
						"modifiers are for retval and argN only:",
						off - 1, strlen(text + off - 1), true);
		if (kprof_word_is(text + off, n, "log2")) {
			flags |= KPROF_KEYF_LOG2;
		} else if (kprof_word_is(text + off, n, "bool") &&
			   kind == KPROF_KEY_RETVAL) {
			flags |= KPROF_KEYF_BOOL;
		} else if (!width && (kprof_word_is(text + off, n, "64") ||
				      kprof_word_is(text + off, n, "s32"))) {
			flags &= ~KPROF_KEYF_S32;
			if (text[off] == 's')
				flags |= KPROF_KEYF_S32;
			width = true;
		} else {
			return kprof_parse_fail(err, kind == KPROF_KEY_RETVAL ?
						"unknown modifier (bool, log2, 64, s32):" :
						"unknown modifier (log2, 64, s32):",
						off, n ? n : strlen(text + off), true);
		}
		if ((flags & KPROF_KEYF_LOG2) && (flags & KPROF_KEYF_BOOL))
			return kprof_parse_fail(err,
						"bool and log2 do not go together",
						0, strlen(text), false);
	}
	*spec = KPROF_KEYSPEC(kind, arg, flags);
	return 0;
}

/* Is one key spec well formed?  0 or -1. */
static inline int kprof_key_valid(__u32 spec)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);
	unsigned int arg = KPROF_KEYSPEC_ARG(spec);
	unsigned int flags = KPROF_KEYSPEC_FLAGS(spec);

	if (!kind || kind > KPROF_KEY_MAX || spec >> 24 ||
	    flags & ~KPROF_KEYF_ALL)
		return -1;
	if ((kind == KPROF_KEY_ARG) != (arg >= 1 && arg <= 6))
		return -1;
	if (flags && kind != KPROF_KEY_RETVAL && kind != KPROF_KEY_ARG)
		return -1;
	if ((flags & KPROF_KEYF_BOOL) &&
	    (kind != KPROF_KEY_RETVAL || (flags & KPROF_KEYF_LOG2)))
		return -1;
	return 0;
}

/*
 * Are ADD's key[] and nr_keys well formed: key[1] only with key[0], not
 * the same kind and argument twice, nr_keys 0 or a power of two and 0
 * without a key?  (The module checks its own limit on nr_keys.)  0 or -1.
 */
static inline int kprof_keys_valid(const __u32 *key, __u32 nr_keys)
{
	if (!key[0])
		return key[1] || nr_keys ? -1 : 0;
	if (kprof_key_valid(key[0]) || (key[1] && kprof_key_valid(key[1])))
		return -1;
	if (key[1] && (key[0] & 0xffff) == (key[1] & 0xffff))
		return -1;
	return nr_keys & (nr_keys - 1) ? -1 : 0;
}

/*
 * Can a probe of @type evaluate key spec @spec (valid)?  0, or -1 with
 * *err (may be NULL; no position: the caller knows which --key).
 */
static inline int kprof_key_check(__u32 spec, unsigned int type,
				  struct kprof_parse_err *err)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);
	const char *msg = NULL;

	if (type == KPROF_TYPE_MEM) {
		if (kind != KPROF_KEY_STACK)
			msg = "mem: probes are keyed by allocation site, or by stack (--key stack)";
	} else if (!kprof_type_has_task(type))
		msg = "pair: and pmu: probes take no --key (pairs have their own keys)";
	else if (kprof_type_is_set(type))
		msg = "function sets are keyed by function: for --key, add a probe on the one you found";
	else if (type == KPROF_TYPE_OFFCPU && kind != KPROF_KEY_STACK)
		msg = "offcpu: probes are keyed by the stack where the task waits";
	else if (kind == KPROF_KEY_CALLER && !kprof_type_has_args(type))
		msg = "caller keys only on kprobes and kretprobes";
	else if (kind == KPROF_KEY_RETVAL && !kprof_type_is_kret(type))
		msg = "retval keys only on kretprobes";
	else if (kind == KPROF_KEY_ARG && !kprof_type_has_args(type))
		msg = "argument keys only on kprobes and kretprobes";
	return msg ? kprof_parse_fail(err, msg, 0, 0, false) : 0;
}

#endif /* KPROF_FILTER_H */
