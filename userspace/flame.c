// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graphs: folded stacks into a tree (parsed, merged, compared with
 * another); flame-svg.c draws it.  See flame.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"

uint64_t kp_flame_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static size_t slot(const struct kp_flame *g, const struct kp_flame_node *parent,
		   uint64_t h)
{
	uint64_t k = h ^ ((uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ull);

	return (size_t)(k ^ (k >> 29)) & (g->tab_size - 1);
}

static struct kp_flame_node *node_new(const char *name, size_t len)
{
	struct kp_flame_node *n = calloc(1, sizeof(*n) + len + 1);

	if (!n)
		return NULL;
	memcpy(n->name, name, len);
	n->hash = kp_flame_hash(name, len);
	return n;
}

int kp_flame_init(struct kp_flame *g, const char *label)
{
	memset(g, 0, sizeof(*g));
	g->label = label;
	g->tab_size = 1024;
	g->tab = calloc(g->tab_size, sizeof(*g->tab));
	g->root = node_new("all", 3);
	if (!g->tab || !g->root) {
		free(g->tab);
		free(g->root);
		g->tab = NULL;
		g->root = NULL;
		return -1;
	}
	return 0;
}

void kp_flame_free(struct kp_flame *g)
{
	struct kp_flame_node *n, *next;
	size_t i;

	for (i = 0; g->tab && i < g->tab_size; i++)
		for (n = g->tab[i]; n; n = next) {
			next = n->hnext;
			free(n->kids);
			free(n);
		}
	if (g->root)
		free(g->root->kids);
	free(g->root);
	free(g->tab);
	memset(g, 0, sizeof(*g));
}

/* the table doubles when it holds as many nodes as slots */
static int grow(struct kp_flame *g)
{
	size_t old = g->tab_size, i;
	struct kp_flame_node **t = g->tab, *n, *next;

	g->tab = calloc(old * 2, sizeof(*g->tab));
	if (!g->tab) {
		g->tab = t;
		return -1;
	}
	g->tab_size = old * 2;
	for (i = 0; i < old; i++)
		for (n = t[i]; n; n = next) {
			size_t s = slot(g, n->parent, n->hash);

			next = n->hnext;
			n->hnext = g->tab[s];
			g->tab[s] = n;
		}
	free(t);
	return 0;
}

static struct kp_flame_node *lookup(const struct kp_flame *g,
				    const struct kp_flame_node *parent,
				    const char *name, size_t len, uint64_t h)
{
	struct kp_flame_node *n;

	for (n = g->tab[slot(g, parent, h)]; n; n = n->hnext)
		if (n->parent == parent && n->hash == h &&
		    !strncmp(n->name, name, len) && !n->name[len])
			return n;
	return NULL;
}

static struct kp_flame_node *child(struct kp_flame *g,
				   struct kp_flame_node *parent,
				   const char *name, size_t len)
{
	uint64_t h = kp_flame_hash(name, len);
	struct kp_flame_node *n = lookup(g, parent, name, len, h);
	size_t s;

	if (n)
		return n;
	if (g->nr_nodes >= g->tab_size && grow(g))
		return NULL;
	if (parent->nkids == parent->cap) {
		unsigned int cap = parent->cap ? parent->cap * 2 : 4;
		void *k = realloc(parent->kids, cap * sizeof(*parent->kids));

		if (!k)
			return NULL;
		parent->kids = k;
		parent->cap = cap;
	}
	n = node_new(name, len);
	if (!n)
		return NULL;
	n->parent = parent;
	n->depth = parent->depth + 1;
	parent->kids[parent->nkids++] = n;
	s = slot(g, parent, h);
	n->hnext = g->tab[s];
	g->tab[s] = n;
	g->nr_nodes++;
	if (n->depth > g->max_depth)
		g->max_depth = n->depth;
	return n;
}

static void __attribute__((format(printf, 3, 4)))
seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

int kp_flame_add(struct kp_flame *g, const char *stack, size_t len,
		 uint64_t count, char *err, size_t errlen)
{
	struct kp_flame_node *n = g->root;
	const char *p = stack, *end = stack + len, *semi;
	unsigned int depth = 1;

	/* checked first, so that a refused line leaves the tree as it was */
	if (!len) {
		seterr(err, errlen, "no frames before the count");
		return -1;
	}
	for (p = stack; p <= end; p = semi + 1, depth++) {
		semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			semi = end;
		if (semi == p) {
			seterr(err, errlen, "an empty frame (';' at an end, or ';;')");
			return -1;
		}
		if (depth > KP_FLAME_MAX_DEPTH) {
			seterr(err, errlen, "more than %d frames", KP_FLAME_MAX_DEPTH);
			return -1;
		}
	}
	if (g->root->total + count < count) {
		seterr(err, errlen, "the counts add up to more than 2^64");
		return -2;
	}
	g->root->total += count;
	for (p = stack; p < end; p = semi + 1) {
		semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			semi = end;
		n = child(g, n, p, (size_t)(semi - p));
		if (!n) {
			seterr(err, errlen, "out of memory");
			return -2;
		}
		n->total += count;
	}
	n->self += count;
	g->nr_stacks++;
	return 0;
}

int kp_flame_add_frames(struct kp_flame *g, const char *const *frames,
			unsigned int n, uint64_t count, char *err, size_t errlen)
{
	struct kp_flame_node *node = g->root;
	unsigned int i;

	if (!n || n > KP_FLAME_MAX_DEPTH) {
		seterr(err, errlen, n ? "more than %d frames" : "no frames",
		       KP_FLAME_MAX_DEPTH);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!frames[i] || !*frames[i]) {
			seterr(err, errlen, "frame %u has no name", i);
			return -1;
		}
	if (g->root->total + count < count) {
		seterr(err, errlen, "the counts add up to more than 2^64");
		return -1;
	}
	g->root->total += count;
	for (i = 0; i < n; i++) {
		node = child(g, node, frames[i], strlen(frames[i]));
		if (!node) {
			seterr(err, errlen, "out of memory");
			return -1;
		}
		node->total += count;
	}
	node->self += count;
	g->nr_stacks++;
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/*
 * one line, without its newline; 0, -1 (malformed: skipped) or -2 (the
 * graph cannot take it) with why in err
 */
static int parse_line(struct kp_flame *g, char *s, size_t len, char *err,
		      size_t errlen)
{
	char *cnt, *p;
	uint64_t v = 0;
	size_t slen;

	while (len && blank(s[len - 1]))
		len--;
	while (len && blank(*s)) {
		s++;
		len--;
	}
	if (!len)
		return 0;		/* blank line */
	if (*s == '#') {
		seterr(err, errlen, "a comment ('#' first)");
		return -1;
	}
	for (cnt = s + len; cnt > s && cnt[-1] != ' ' && cnt[-1] != '\t'; cnt--)
		;
	if (cnt == s) {
		seterr(err, errlen, "no count: expected 'frame;frame;...;frame COUNT'");
		return -1;
	}
	for (p = cnt; p < s + len; p++) {
		if (*p < '0' || *p > '9') {
			seterr(err, errlen, "'%.*s' is not a count (a decimal number"
			       " of samples after the last space)",
			       (int)(s + len - cnt > 40 ? 40 : s + len - cnt), cnt);
			return -1;
		}
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
			seterr(err, errlen, "count %.*s is above 2^64",
			       (int)(s + len - cnt > 40 ? 40 : s + len - cnt), cnt);
			return -1;
		}
		v = v * 10 + (uint64_t)(*p - '0');
	}
	slen = (size_t)(cnt - s);
	while (slen && blank(s[slen - 1]))
		slen--;
	return kp_flame_add(g, s, slen, v, err, errlen);
}

int kp_flame_parse(struct kp_flame *g, FILE *f, const char *name, char *err,
		   size_t errlen)
{
	char *line = NULL, why[160];
	unsigned long lineno = 0;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)n)) {
			snprintf(why, sizeof(why), "a NUL byte (not a text file?)");
			ret = -2;
		} else {
			ret = parse_line(g, line, (size_t)n, why, sizeof(why));
		}
		/* a malformed line (a comment, 1.5, too deep) as flamegraph.pl */
		if (ret == -1) {
			if (!g->nr_skipped++)
				seterr(g->skip_why, sizeof(g->skip_why), "%s:%lu: %s",
				       name, lineno, why);
			ret = 0;
		} else if (ret) {
			seterr(err, errlen, "%s:%lu: %s", name, lineno, why);
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f)) {
		seterr(err, errlen, "%s: %s", name, strerror(errno ? errno : EIO));
		ret = -1;
	}
	free(line);
	return ret;
}

struct kp_flame_node *kp_flame_find(const struct kp_flame *g, const char *path)
{
	const struct kp_flame_node *n = g->root;
	const char *p = path, *semi;

	while (n && p && *p) {
		semi = strchr(p, ';');
		if (!semi)
			semi = p + strlen(p);
		n = lookup(g, n, p, (size_t)(semi - p),
			   kp_flame_hash(p, (size_t)(semi - p)));
		p = *semi ? semi + 1 : NULL;
	}
	return (struct kp_flame_node *)n;
}

static void diff_walk(struct kp_flame_node *a, const struct kp_flame *before,
		      const struct kp_flame_node *b)
{
	unsigned int i;

	a->b_total = b ? b->total : 0;
	a->b_self = b ? b->self : 0;
	for (i = 0; i < a->nkids; i++) {
		struct kp_flame_node *k = a->kids[i];

		diff_walk(k, before, b ? lookup(before, b, k->name,
						strlen(k->name), k->hash) : NULL);
	}
}

void kp_flame_diff(struct kp_flame *after, const struct kp_flame *before)
{
	after->diff = 1;
	after->b_all = before->root->total;
	diff_walk(after->root, before, before->root);
}
