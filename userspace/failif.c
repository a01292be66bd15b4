// SPDX-License-Identifier: GPL-2.0
/*
 * diff --fail-if '[TARGET:]METRIC OP VALUE': the gate parsed, and
 * evaluated against a metric's shift (diffstat.c).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failif.h"

static int __attribute__((format(printf, 3, 4)))
failif_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * "12", "1.5": base 10 digits with an optional fraction; *end past it.
 * mant gets the digits without the point, *frac how many follow it.
 * -1 if there is no number, -2 if it has more than 18 digits.
 */
static int parse_decimal(const char *s, const char **end, uint64_t *mant,
			 unsigned int *frac)
{
	unsigned int digits = 0;
	bool point = false;

	*mant = 0;
	*frac = 0;
	for (; isdigit((unsigned char)*s) || (*s == '.' && !point); s++) {
		if (*s == '.') {
			point = true;
			continue;
		}
		if (++digits > 18)
			return -2;
		*mant = *mant * 10 + (uint64_t)(*s - '0');
		if (point)
			(*frac)++;
	}
	*end = s;
	/* "1." and "." are not numbers */
	return digits && (!point || *frac) ? 0 : -1;
}

static int parse_value(const char *v, struct kp_failif *f, char *err,
		       size_t len)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	long double x;
	const char *p = v, *end;
	unsigned int frac, i;
	uint64_t mant, mul = 0;
	int neg = 0, r;

	if (!*v)
		return failif_err(err, len, "no value after the operator");
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	r = parse_decimal(p, &end, &mant, &frac);
	if (r == -2)
		return failif_err(err, len, "'%s': too many digits", v);
	/* "0x10ms": hexadecimal is not taken here */
	if (r || (!mant && end == p + 1 && (*end == 'x' || *end == 'X')))
		return failif_err(err, len, "'%s': not a base 10 number", v);
	/* "1e3%" would read as 1 with a unit "e3%" */
	if (*end == 'e' || *end == 'E')
		return failif_err(err, len, "'%s': write the number without "
				  "an exponent", v);
	x = (long double)mant;
	for (i = 0; i < frac; i++)
		x /= 10;
	while (isspace((unsigned char)*end))	/* "2 ms", "10 %" */
		end++;
	if (!strcmp(end, "%")) {
		f->relative = 1;
		f->pct = (double)(neg ? -x : x);
		return 0;
	}
	if (v[0] == '+' || neg)
		return failif_err(err, len, "'%s': only a change (with %%) has "
				  "a sign", v);
	if (f->metric == KP_M_COUNT) {
		if (*end)
			return failif_err(err, len, "'%s': count takes a plain "
					  "number or a change, no unit", v);
		if (frac)
			return failif_err(err, len, "'%s': a count is a whole "
					  "number", v);
		f->value = mant;
		return 0;
	}
	if (!*end)
		return failif_err(err, len, "'%s': a value needs a unit (ns, "
				  "us, ms, s) or %% for a change", v);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].name))
			mul = units[i].ns;
	if (!mul)
		return failif_err(err, len, "'%s': unknown unit (ns, us, ms, s)",
				  v);
	x *= mul;
	if (x > (long double)(UINT64_MAX >> 1))
		return failif_err(err, len, "'%s': too large", v);
	f->value = (uint64_t)(x + 0.5L);
	return 0;
}

int kp_failif_parse(const char *s, struct kp_failif *out, char *err,
		    size_t errlen)
{
	char buf[sizeof(out->target) + 64], *p, *e, *colon, *name, *op, save;
	size_t n;

	memset(out, 0, sizeof(*out));
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n)
		return failif_err(err, errlen, "empty expression");
	if (n >= sizeof(buf))
		return failif_err(err, errlen, "expression too long");
	memcpy(buf, s, n);
	buf[n] = 0;
	p = buf;

	/* the target ends at the last ':' before the operator */
	op = strpbrk(p, "<>");
	save = op ? *op : 0;
	if (op)
		*op = 0;
	colon = strrchr(p, ':');
	if (op)
		*op = save;
	if (colon) {
		*colon = 0;
		if (!*p)
			return failif_err(err, errlen, "nothing before ':' (a "
					  "probe, function, key or cluster)");
		for (e = p; *e; e++)
			if (isspace((unsigned char)*e))
				return failif_err(err, errlen, "'%s': a target "
						  "has no spaces", p);
		if (strlen(p) >= sizeof(out->target))
			return failif_err(err, errlen, "'%s': too long", p);
		strcpy(out->target, p);
		p = colon + 1;
	}

	name = p;
	while (isalnum((unsigned char)*p) || *p == '.')
		p++;
	save = *p;
	*p = 0;
	if (!*name) {
		*p = save;
		return failif_err(err, errlen, "'%s': no metric", name);
	}
	if (kp_metric_parse(name, &out->metric))
		return failif_err(err, errlen, "unknown metric '%s'", name);
	*p = save;

	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '>' || p[0] == '<') {
		int ge = p[1] == '=';

		out->op = p[0] == '>' ? (ge ? KP_CMP_GE : KP_CMP_GT) :
					(ge ? KP_CMP_LE : KP_CMP_LT);
		p += 1 + ge;
	} else {
		return failif_err(err, errlen, "no operator (>, <, >=, <=) "
				  "after '%s'", kp_metric_name(out->metric));
	}
	while (isspace((unsigned char)*p))
		p++;
	if (strlen(p) >= sizeof(out->text))
		return failif_err(err, errlen, "'%s': value too long", p);
	strcpy(out->text, p);
	return parse_value(p, out, err, errlen);
}

static const char *op_text(enum kp_cmp op)
{
	switch (op) {
	case KP_CMP_LT: return "<";
	case KP_CMP_GE: return ">=";
	case KP_CMP_LE: return "<=";
	default: return "";	/* ">" reads as "crosses +10%" */
	}
}

static int beyond(double x, enum kp_cmp op, double t)
{
	switch (op) {
	case KP_CMP_GT: return x > t;
	case KP_CMP_LT: return x < t;
	case KP_CMP_GE: return x >= t;
	default: return x <= t;
	}
}

int kp_failif_eval(const struct kp_failif *f, const struct kp_shift *s,
		   char *reason, size_t len)
{
	const char *name = kp_metric_name(f->metric), *op = op_text(f->op);
	char b[32], a[32], ch[32];
	int x;

	if (s->metric != f->metric) {
		snprintf(reason, len, "%s: no %s figure to compare", name,
			 name);
		return 0;
	}
	kp_fmt_metric(s->metric, s->before, b, sizeof(b));
	kp_fmt_metric(s->metric, s->after, a, sizeof(a));
	kp_fmt_change(s, ch, sizeof(ch));
	if (!f->relative) {
		/* an objective: the after value alone, noise or not */
		x = beyond((double)s->after, f->op, (double)f->value);
		snprintf(reason, len, "%s %s -> %s (%s) %s %s%s", name, b, a, ch,
			 x ? "crosses" : "does not cross", op, f->text);
		return x;
	}
	if (!s->has_change) {
		snprintf(reason, len, "%s %s -> %s (n/a: before is 0) does not "
			 "cross %s%s", name, b, a, op, f->text);
		return 0;
	}
	x = beyond(s->change, f->op, f->pct);
	if (x && !s->significant) {
		snprintf(reason, len, "%s %s -> %s (%s) would cross %s%s but is "
			 "not significant (p %.2g)", name, b, a, ch, op, f->text,
			 s->p);
		return 0;
	}
	snprintf(reason, len, "%s %s -> %s (%s) %s %s%s", name, b, a, ch,
		 x ? "crosses" : "does not cross", op, f->text);
	return x;
}
