// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe machinery shared by the kprobe and kretprobe kinds (see
 * kprobes.h).
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/module.h>

#include "kprobes.h"
#include "funcs.h"

/*
 * Both kinds take the probe address from kallsyms through the kprobe
 * core.  The core answers -ENOENT for an unknown symbol and -EINVAL,
 * -EILSEQ or -EBUSY for an address it will not patch; the ABI reports the
 * latter as -EADDRNOTAVAIL so that "not probeable" is told apart from a
 * malformed request.
 */
static int kprof_reg_errno(int err)
{
	switch (err) {
	case -EINVAL:
	case -EILSEQ:
	case -EBUSY:
		return -EADDRNOTAVAIL;
	default:
		return err;
	}
}

/*
 * "SYM" or "MOD:SYM", as kallsyms_lookup_name() takes it.  DEFER waits
 * for MOD: a core-kernel symbol has nothing to wait for.
 */
int kprof_kp_parse_sym(struct kprof_kp *k, const char *s, size_t len)
{
	size_t i;

	if (!len || len >= sizeof(k->sym))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!isalnum(c) && c != '_' && c != '.' && c != ':' &&
		    c != '$')
			return -EINVAL;
	}
	if (s[0] == ':' || s[len - 1] == ':')
		return -EINVAL;
	memcpy(k->sym, s, len);
	k->sym[len] = '\0';
	if ((k->p.flags & KPROF_ADD_DEFER) && !kprof_sym_has_mod(k->sym))
		return -EINVAL;
	return 0;
}

/*
 * The address of "[MOD:]SYM": the kprobe core's lookup where the kernel
 * has one (kallsyms_lookup_name() is not exported), a disabled kprobe at
 * once unregistered; else funcs.c's.
 */
int kprof_kp_lookup(const char *sym, unsigned long *addr)
{
	struct kprobe kp = {
		.symbol_name = sym,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	if (!IS_ENABLED(CONFIG_KPROBES))
		return kprof_funcs_lookup(sym, addr);
	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	*addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return 0;
}

int kprof_kp_arm(struct kprof_probe *p)
{
	return enable_kprobe(kprof_kp(p)->kp);
}

void kprof_kp_disarm(struct kprof_probe *p)
{
	disable_kprobe(kprof_kp(p)->kp);
}

bool kprof_kp_in_module(struct kprof_probe *p, struct module *mod)
{
	struct kprof_kp *k = kprof_kp(p);

	return k->reg && within_module((unsigned long)k->kp->addr, mod);
}

/*
 * KPROF_ADD_DEFER on "MOD:SYM": a symbol not found at ADD (its module is
 * not loaded) leaves the probe PENDING; it is registered from the module's
 * COMING notification, before the module's init runs, so a driver's probe
 * and init are caught.  After the module unloads (GONE) it registers again
 * on the next load.
 */
static bool kprof_kp_defers(struct kprof_probe *p, int err)
{
	return err == -ENOENT && (p->flags & KPROF_ADD_DEFER) &&
	       (p->state == KPROF_STATE_RUNNING ||
		p->state == KPROF_STATE_STOPPED);
}

/* The result of register_k(ret)probe(): registered, PENDING or an error */
int kprof_kp_registered(struct kprof_kp *k, int err)
{
	if (!err) {
		k->reg = true;
		return 0;
	}
	if (kprof_kp_defers(&k->p, err)) {
		k->p.state = KPROF_STATE_PENDING;
		return 0;
	}
	return kprof_reg_errno(err);
}

/* Context: process, under the core's lock; a module is coming. */
bool kprof_kp_module_event(struct kprof_probe *p, struct module *mod,
			   bool coming)
{
	struct kprof_kp *k = kprof_kp(p);
	size_t len = strchrnul(k->sym, ':') - k->sym;
	int ret;

	if (!coming || !(p->flags & KPROF_ADD_DEFER) || !k->sym[len] ||
	    (p->state != KPROF_STATE_PENDING &&
	     p->state != KPROF_STATE_GONE) ||
	    strlen(mod->name) != len || strncmp(k->sym, mod->name, len))
		return false;
	/* a registration the kprobe core marked gone goes first */
	p->be->detach(p);
	ret = p->be->attach(p, false);
	if (ret) {
		p->reg_errno = -ret;
		p->state = KPROF_STATE_PENDING;
		pr_info("probe %u (%s): module %s loaded, but the probe cannot be registered: %pe\n",
			p->id, p->spec, mod->name, ERR_PTR(ret));
		return true;
	}
	p->reg_errno = 0;
	p->state = KPROF_STATE_STOPPED;	/* the core starts it if wanted */
	pr_info("probe %u (%s): module %s loaded, attached\n", p->id, p->spec,
		mod->name);
	return true;
}
