// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving a set's "[MOD:]GLOB" without kallsyms_on_each_symbol() or
 * find_module(), which modules cannot use: a module is found through its
 * sysfs kobject (or, between its COMING notification and sysfs, through
 * our own notifier) and its functions read from its own symbol table; the
 * core kernel's are walked symbol by symbol with sprint_symbol().
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/log2.h>
#include <linux/elf.h>

#include "funcs.h"

/* ---- the spec --------------------------------------------------------- */

static bool kprof_glob_char(char c)
{
	return isalnum(c) || strchr("_.$*?[]!-^", c);
}

int kprof_funcs_parse(const char *arg, char *mod, size_t mod_len,
		      char *glob, size_t glob_len)
{
	const char *colon = strchr(arg, ':');
	const char *g = colon ? colon + 1 : arg;
	size_t i, n = colon ? colon - arg : 0;

	*mod = '\0';
	if (colon) {
		if (!n || n >= mod_len || n >= MODULE_NAME_LEN)
			return -EINVAL;
		for (i = 0; i < n; i++) {
			char c = arg[i];

			/* as modprobe: '-' and '_' are the same */
			if (c == '-')
				c = '_';
			if (!isalnum(c) && c != '_')
				return -EINVAL;
			mod[i] = c;
		}
		mod[n] = '\0';
	}
	if (!*g || strlen(g) >= glob_len)
		return -EINVAL;
	for (i = 0; g[i]; i++)
		if (!kprof_glob_char(g[i]))
			return -EINVAL;
	strscpy(glob, g, glob_len);
	return 0;
}

/* ---- finding a module by name ------------------------------------------ */

/*
 * Modules between their COMING notification and LIVE (or GOING): sysfs
 * has no kobject for them yet during part of that time.
 */
struct kprof_forming {
	struct list_head node;
	struct module *mod;
};

static LIST_HEAD(kprof_forming_list);
static DEFINE_MUTEX(kprof_forming_lock);

static int kprof_funcs_module_cb(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct module *mod = data;
	struct kprof_forming *f, *tmp;

	mutex_lock(&kprof_forming_lock);
	if (action == MODULE_STATE_COMING) {
		f = kmalloc(sizeof(*f), GFP_KERNEL);
		/* without it, the module is found once sysfs has it */
		if (f) {
			f->mod = mod;
			list_add(&f->node, &kprof_forming_list);
		}
	} else if (action == MODULE_STATE_LIVE ||
		   action == MODULE_STATE_GOING) {
		list_for_each_entry_safe(f, tmp, &kprof_forming_list, node)
			if (f->mod == mod) {
				list_del(&f->node);
				kfree(f);
			}
	}
	mutex_unlock(&kprof_forming_lock);
	return NOTIFY_DONE;
}

/* before the core's notifier: a set resolving at COMING finds the module */
static struct notifier_block kprof_funcs_nb = {
	.notifier_call	= kprof_funcs_module_cb,
	.priority	= 1,
};

/*
 * The module of a /sys/module kobject, if it is one that can be probed:
 * built-in code has a kobject for its parameters and no module.
 */
static struct module *kprof_kobj_module(struct kobject *kobj)
{
	struct module *mod = container_of(kobj, struct module_kobject,
					  kobj)->mod;

	if (!mod || (mod->state != MODULE_STATE_LIVE &&
		     mod->state != MODULE_STATE_COMING))
		return NULL;
	return mod;
}

struct module *kprof_funcs_module_get(const char *name, struct kobject **ref)
{
	struct kprof_forming *f;
	struct kobject *kobj;
	struct module *mod = NULL;

	*ref = NULL;
	mutex_lock(&kprof_forming_lock);
	list_for_each_entry(f, &kprof_forming_list, node)
		if (!strcmp(f->mod->name, name))
			mod = f->mod;
	mutex_unlock(&kprof_forming_lock);
	/*
	 * A forming module is freed only after the GOING notification,
	 * which waits for the caller (the core's lock) to finish with it.
	 */
	if (mod)
		return mod;
	/* our own kobject's kset is the one of /sys/module */
	kobj = kset_find_obj(THIS_MODULE->mkobj.kobj.kset, name);
	if (!kobj)
		return NULL;
	mod = kprof_kobj_module(kobj);
	if (!mod) {
		kobject_put(kobj);
		return NULL;
	}
	/* the module's kobject is in it: freeing it waits for this ref */
	*ref = kobj;
	return mod;
}

void kprof_funcs_module_put(struct kobject *ref)
{
	if (ref)
		kobject_put(ref);
}

/* ---- collecting the functions ----------------------------------------- */

struct kprof_collect {
	const char *glob;
	struct kprof_fn *fns;
	u32 nr, max;
	bool overflow;
	bool mod_live;		/* the module's init is over */
};

static void kprof_collect(struct kprof_collect *c, const char *name,
			  unsigned long addr, unsigned long size, u32 flags)
{
	struct kprof_fn *fn;

	/* a function's cold part (name.cold) is jumped to, never called */
	if (!glob_match(c->glob, name) || strstr(name, ".cold"))
		return;
	if (c->nr == c->max) {
		c->overflow = true;
		return;
	}
	fn = &c->fns[c->nr++];
	memset(fn, 0, sizeof(*fn));
	fn->addr = addr;
	fn->size = size;
	fn->flags = flags;
	/* init is over: __init text is going, if not gone already */
	if (flags & KPROF_FUNC_INIT && c->mod_live)
		fn->reason = KPROF_SKIP_INIT_DONE;
	if (strscpy(fn->name, name, sizeof(fn->name)) < 0)
		fn->flags |= KPROF_FUNC_TRUNCATED;
}

/* A module's function symbols, from its own table (init ones while COMING) */
static void kprof_collect_module(struct kprof_collect *c, struct module *mod)
{
	struct mod_kallsyms *ks;
	unsigned int i;

	c->mod_live = READ_ONCE(mod->state) == MODULE_STATE_LIVE;
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; i < ks->num_symtab; i++) {
		const Elf_Sym *sym = &ks->symtab[i];
		unsigned long addr = sym->st_value;

		/* STT_FUNC: not data, not labels or ARM mapping symbols */
		if (ELF_ST_TYPE(sym->st_info) != STT_FUNC ||
		    sym->st_shndx == SHN_UNDEF || !addr)
			continue;
		kprof_collect(c, ks->strtab + sym->st_name, addr, sym->st_size,
			      within_module_init(addr, mod) ? KPROF_FUNC_INIT :
							      0);
	}
	preempt_enable();
}

/*
 * "name+0xoff/0xsize" (no module: the core kernel's) into its parts;
 * false for an address kallsyms does not know.
 */
static bool kprof_parse_ksym(char *buf, unsigned long *off,
			     unsigned long *size)
{
	char *plus = strrchr(buf, '+'), *slash;

	if (!plus || strchr(plus, ' '))
		return false;
	slash = strchr(plus, '/');
	if (!slash)
		return false;
	*plus = '\0';
	*slash = '\0';
	return !kstrtoul(plus + 1, 16, off) && !kstrtoul(slash + 1, 16, size);
}

/* The core kernel walk stops at either end of its text */
#define KPROF_WALK_MAX	(1U << 20)

/*
 * The core kernel's text symbols, walked from a known function down to
 * _stext and up to _etext one symbol at a time (sprint_symbol() gives each
 * symbol's start and its distance to the next).  Text symbols that are
 * not functions are weeded out later: ftrace does not know them.
 */
static int kprof_collect_core(struct kprof_collect *c)
{
	unsigned long anchor = (unsigned long)schedule, a, off, size, start;
	char *buf = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	unsigned int steps = 0;

	if (!buf)
		return -ENOMEM;
	/* down, the anchor's symbol included */
	for (a = anchor; steps < KPROF_WALK_MAX; steps++) {
		sprint_symbol(buf, a);
		if (!kprof_parse_ksym(buf, &off, &size))
			break;
		start = a - off;
		if (!strcmp(buf, "_stext") || !strcmp(buf, "_text"))
			break;
		kprof_collect(c, buf, start, size, 0);
		a = start - 1;
		if (!(steps % 1024))
			cond_resched();
	}
	/* up, from the symbol after the anchor's */
	sprint_symbol(buf, anchor);
	if (!kprof_parse_ksym(buf, &off, &size) || !size) {
		kfree(buf);
		return -ENOENT;
	}
	for (a = anchor - off + size; steps < KPROF_WALK_MAX; steps++) {
		sprint_symbol(buf, a);
		if (!kprof_parse_ksym(buf, &off, &size) || off ||
		    !strcmp(buf, "_etext") || !size)
			break;
		kprof_collect(c, buf, a, size, 0);
		a += size;
		if (!(steps % 1024))
			cond_resched();
	}
	kfree(buf);
	return steps < KPROF_WALK_MAX ? 0 : -E2BIG;
}

static int kprof_fn_addr_cmp(const void *a, const void *b)
{
	const struct kprof_fn *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The loader's names for a module's init and exit functions */
static bool kprof_fn_loader_alias(const struct kprof_fn *fn)
{
	return !strcmp(fn->name, "init_module") ||
	       !strcmp(fn->name, "cleanup_module");
}

/*
 * One function per address: of aliases (module_init()'s init_module and
 * the driver's own name), the driver's name stays.
 */
static u32 kprof_fn_dedup(struct kprof_fn *fns, u32 nr)
{
	u32 i, n = 0;

	sort(fns, nr, sizeof(*fns), kprof_fn_addr_cmp, NULL);
	for (i = 0; i < nr; i++) {
		if (n && fns[n - 1].addr == fns[i].addr) {
			if (kprof_fn_loader_alias(&fns[n - 1]))
				fns[n - 1] = fns[i];
			continue;
		}
		fns[n++] = fns[i];
	}
	return n;
}

static int kprof_fn_cmp(const void *a, const void *b)
{
	const struct kprof_fn *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int kprof_funcs_resolve(struct module *mod, const char *glob, u32 max,
			struct kprof_fn **fns, u32 *nr)
{
	struct kprof_collect c = { .glob = glob, .max = max };
	int ret = 0;

	c.fns = kvmalloc_array(max, sizeof(*c.fns), GFP_KERNEL);
	if (!c.fns)
		return -ENOMEM;
	if (mod)
		kprof_collect_module(&c, mod);
	else
		ret = kprof_collect_core(&c);
	if (!ret && c.overflow)
		ret = -E2BIG;
	if (!ret && !c.nr)
		ret = -ENOENT;
	if (ret) {
		kvfree(c.fns);
		return ret;
	}
	c.nr = kprof_fn_dedup(c.fns, c.nr);
	sort(c.fns, c.nr, sizeof(*c.fns), kprof_fn_cmp, NULL);
	*fns = c.fns;
	*nr = c.nr;
	return 0;
}

/*
 * "NAME" in the loaded modules (kallsyms_lookup_name() looks there after
 * the core kernel; see kprof_funcs_lookup()).  /sys/module's list holds
 * a module's kobject until its teardown, which takes the list's lock:
 * under it the module's symbols stay.
 */
static int kprof_funcs_lookup_modules(const char *name, unsigned long *addr)
{
	struct kset *ks = THIS_MODULE->mkobj.kobj.kset;
	struct kprof_collect c = { .glob = name, .max = 1 };
	struct kprof_fn fn;
	struct kobject *k;

	c.fns = &fn;
	spin_lock(&ks->list_lock);
	list_for_each_entry(k, &ks->list, entry) {
		struct module *mod = kprof_kobj_module(k);

		if (!mod)
			continue;
		kprof_collect_module(&c, mod);
		if (c.nr)
			break;
	}
	spin_unlock(&ks->list_lock);
	if (!c.nr)
		return -ENOENT;
	*addr = fn.addr;
	return 0;
}

/*
 * One function by name, as the kprobe core looks a symbol up but without
 * it: kallsyms_lookup_name() is not exported, and a kernel may have no
 * kprobes.  Of static functions sharing the name, the lowest address.
 * Without MOD: the modules first, then the core kernel, whose text is
 * walked symbol by symbol (a name both define is the module's here, the
 * core kernel's for the kprobe core).
 */
int kprof_funcs_lookup(const char *sym, unsigned long *addr)
{
	char mod_name[MODULE_NAME_LEN], name[KSYM_NAME_LEN];
	struct kobject *ref = NULL;
	struct module *mod = NULL;
	struct kprof_fn *fns;
	u32 nr, i;
	int ret;

	ret = kprof_funcs_parse(sym, mod_name, sizeof(mod_name), name,
				sizeof(name));
	/* a name, not a glob */
	if (!ret && strpbrk(name, "*?[]!^"))
		ret = -EINVAL;
	if (ret)
		return ret;
	if (*mod_name) {
		mod = kprof_funcs_module_get(mod_name, &ref);
		if (!mod)
			return -ENOENT;
	} else if (!kprof_funcs_lookup_modules(name, addr)) {
		/* modules first: the core kernel's walk is the long one */
		return 0;
	}
	ret = kprof_funcs_resolve(mod, name, 16, &fns, &nr);
	kprof_funcs_module_put(ref);
	if (ret)
		return ret == -E2BIG ? -ENOTUNIQ : ret;
	*addr = fns[0].addr;
	for (i = 1; i < nr; i++)
		*addr = min(*addr, fns[i].addr);
	kvfree(fns);
	return 0;
}

/* ---- address to function ------------------------------------------------ */

/*
 * Where a function's ftrace call site can be: at its start (x86), after
 * an ENDBR (x86 IBT) or a BTI (arm64), and arm64's patchable entry puts
 * the call one or two instructions in.  Every candidate inside the
 * function maps to it; functions do not overlap, so neither do keys.
 */
static const unsigned int kprof_site_offsets[] = { 0, 4, 8 };

static void kprof_fnhash_insert(struct kprof_fnhash *h, unsigned long ip,
				u32 idx)
{
	u32 mask = (1U << h->bits) - 1;
	u32 i = hash_long(ip, h->bits);

	for (; h->ips[i]; i = (i + 1) & mask)
		if (h->ips[i] == ip)
			return;
	h->ips[i] = ip;
	h->idx[i] = idx;
}

int kprof_fnhash_build(struct kprof_fnhash *h, const struct kprof_fn *fns,
		       u32 nr)
{
	u32 i, k, keys = nr * ARRAY_SIZE(kprof_site_offsets);

	/* at most half full */
	h->bits = max_t(u32, order_base_2(2 * (u64)keys), 4);
	h->ips = kvcalloc(1U << h->bits, sizeof(*h->ips), GFP_KERNEL);
	h->idx = kvcalloc(1U << h->bits, sizeof(*h->idx), GFP_KERNEL);
	if (!h->ips || !h->idx) {
		kprof_fnhash_free(h);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++)
		for (k = 0; k < ARRAY_SIZE(kprof_site_offsets); k++) {
			unsigned long off = kprof_site_offsets[k];

			/* a zero size (asm) still has its first address */
			if (off && off >= fns[i].size)
				break;
			kprof_fnhash_insert(h, fns[i].addr + off, i);
		}
	return 0;
}

void kprof_fnhash_free(struct kprof_fnhash *h)
{
	kvfree(h->ips);
	kvfree(h->idx);
	h->ips = NULL;
	h->idx = NULL;
}

int kprof_funcs_init(void)
{
	return register_module_notifier(&kprof_funcs_nb);
}

void kprof_funcs_exit(void)
{
	struct kprof_forming *f, *tmp;

	unregister_module_notifier(&kprof_funcs_nb);
	list_for_each_entry_safe(f, tmp, &kprof_forming_list, node) {
		list_del(&f->node);
		kfree(f);
	}
}
