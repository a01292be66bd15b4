// SPDX-License-Identifier: GPL-2.0
/*
 * kprof_test_mem: known allocations from known call sites, for mem:
 * probes' exact counts (tests/vm/guest/mem.sh).  Each site is its own
 * noinline function, so its call site is in it.  Loading allocates two
 * 128-byte objects from init text and frees one; each write to
 * /sys/kernel/debug/kprof_test_mem/round makes one round:
 *
 *   kprof_tm_a       4 x kmalloc(128), all freed in the round
 *   kprof_tm_b       2 x kzalloc(512), one freed, one kept
 *   kprof_tm_c       3 x kmem_cache_alloc (200-byte objects), two freed,
 *                    one kept
 *   kprof_tm_d       kmalloc(128), which kprof_tm_e's krealloc to 1024
 *                    moves (freeing it); the 1024 bytes are kept
 *   kprof_tm_f       kmalloc(2048), kept
 *
 * The round's own record is one kzalloc(128) (kprof_tm_round), freed at
 * unload.  The bytes asked for are the same on every kernel; what the
 * allocator gives is not (a debug kernel's red zones).
 * Writing "pairs N" to /sys/kernel/debug/kprof_test_mem/pairs makes N
 * kmalloc(128)/kfree pairs from kprof_tm_pair, "pages N" N
 * alloc_page()/__free_page() pairs from kprof_tm_ppair, for make bench.
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/vdma makes one round of
 * vmalloc and DMA (on the module's platform device "kprof_test_mem", a
 * 64-bit DMA mask, through dma-direct):
 *
 *   kprof_tm_v       vmalloc(10000), freed
 *   kprof_tm_w       vzalloc(5000), kept
 *   kprof_tm_dc      dma_alloc_coherent(6000), freed
 *   kprof_tm_dk      dma_alloc_coherent(4096), kept
 *   kprof_tm_m1      dma_map_single(256, DMA_TO_DEVICE), unmapped
 *   kprof_tm_m2      dma_map_single(512, DMA_FROM_DEVICE), kept mapped
 *   kprof_tm_mb      dma_map_page(1024, DMA_BIDIRECTIONAL), unmapped
 *
 * of a page of its own (__get_free_page() in kprof_tm_vround, a pages
 * site, freed at unload).  Unloading leaks what it kept: 3 objects, 9608
 * bytes a round; the round's record (kzalloc(64), kprof_tm_vround) is
 * freed.
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/pages makes one round of
 * the page allocator (sizes PAGE_SIZE << order):
 *
 *   kprof_tm_p0      2 x alloc_page(), one freed, one kept (freed at unload)
 *   kprof_tm_p2      alloc_pages(order 2), freed
 *   kprof_tm_p3      __get_free_pages(order 3), kept
 *   kprof_tm_pz      get_zeroed_page(), freed
 *   kprof_tm_pn      alloc_pages_node(order 1), kept
 *   kprof_tm_pr      alloc_page() with a second reference: the first put
 *                    frees nothing, the last is on another CPU's worker
 *
 * Unloading leaks p3's and pn's: 2 objects, 10 pages a round.
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/devres makes two
 * devm_kmalloc(300) on the platform device (kprof_tm_dv): devm_kfree()
 * frees one, devres the other when the device goes at unload.
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/sg maps two scatterlists
 * on the platform device, each unmapped and freed:
 *
 *   kprof_tm_sgl     kmalloc(128): a 2-entry list in its first bytes
 *   kprof_tm_sgb     kmalloc(4096) and kmalloc(1024), the list's buffers
 *   kprof_tm_sg1     dma_map_sg() of the list (5120 bytes, to the device)
 *   kprof_tm_sg2     dma_map_sgtable() of a 3 x 512-byte table of a
 *                    kmalloc(1536) (kprof_tm_sgb), from the device
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/res maps with
 * dma_map_resource() (kprof_tm_rs) 4096 bytes both ways and 512 to the
 * device of an address past any RAM (a device's MMIO, as the API wants),
 * and unmaps both.
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/irqfree makes one
 * kmalloc(96) (kprof_tm_ia) and frees it from an irq_work: in hard IRQ
 * (the write fails if not), or on PREEMPT_RT in its irq_work thread.
 *
 * Each write to /sys/kernel/debug/kprof_test_mem/kv makes three
 * kvmalloc(200) (kprof_tm_kv), kvfree()s two and keeps one, freed at
 * unload: a slab allocation whose call site is kvmalloc's own on most
 * kernels (mem: probes by stack see it as MOD's).
 *
 * Unloading frees what b and c kept and init's other object, and leaks e's
 * and f's: per round 2 objects, 3072 bytes.  With hide=1 (the default)
 * kmemleak is told they are not leaks, so debug kernels' scans stay quiet;
 * hide=0 leaves them for kmemleak to report.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/debugfs.h>
#include <linux/kmemleak.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/dma-mapping.h>
#include <linux/platform_device.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/workqueue.h>
#include <linux/irq_work.h>
#include <linux/scatterlist.h>

static bool hide = true;
module_param(hide, bool, 0444);
MODULE_PARM_DESC(hide, "tell kmemleak the leaks at unload are not leaks");

struct kprof_tm_kept {
	struct list_head node;
	void *b, *c, *e, *f;
};

struct kprof_tm_vkept {
	struct list_head node;
	void *w, *dk, *page;
	dma_addr_t dk_dma;
};

struct kprof_tm_pkept {
	struct list_head node;
	struct page *p0, *pn;
	unsigned long p3;
};

static LIST_HEAD(kprof_tm_rounds);
static LIST_HEAD(kprof_tm_prounds);
static LIST_HEAD(kprof_tm_vrounds);
static struct platform_device *kprof_tm_pdev;
static DEFINE_MUTEX(kprof_tm_lock);
static struct kmem_cache *kprof_tm_cache;
static struct dentry *kprof_tm_dir;
static void *kprof_tm_init_kept;
static void *kprof_tm_kv_kept[16];
static unsigned int kprof_tm_nkv;

/*
 * The call site is the allocator's return address: a site that ended in
 * a tail call would be its caller's, so each keeps its pointer to itself.
 */
static noinline void * __init kprof_tm_init_site(void)
{
	void *p = kmalloc(128, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline int kprof_tm_a(void)
{
	void *p[4];
	int i, ok = 0;

	for (i = 0; i < 4; i++)
		p[i] = kmalloc(128, GFP_KERNEL);
	for (i = 0; i < 4; i++) {
		ok += !!p[i];
		kfree(p[i]);
	}
	return ok == 4 ? 0 : -ENOMEM;
}

static noinline void *kprof_tm_b(void)
{
	void *p = kzalloc(512, GFP_KERNEL), *q = kzalloc(512, GFP_KERNEL);

	kfree(p);
	return q;
}

static noinline void *kprof_tm_c(void)
{
	void *p = kmem_cache_alloc(kprof_tm_cache, GFP_KERNEL);
	void *q = kmem_cache_alloc(kprof_tm_cache, GFP_KERNEL);
	void *r = kmem_cache_alloc(kprof_tm_cache, GFP_KERNEL);

	if (p)
		kmem_cache_free(kprof_tm_cache, p);
	if (q)
		kmem_cache_free(kprof_tm_cache, q);
	return r;
}

static noinline void *kprof_tm_d(void)
{
	void *p = kmalloc(128, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *kprof_tm_e(void *p)
{
	void *q = krealloc(p, 1024, GFP_KERNEL);

	if (!q)
		kfree(p);
	return q;
}

static noinline void *kprof_tm_f(void)
{
	void *p = kmalloc(2048, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void kprof_tm_pair(void)
{
	void *p = kmalloc(128, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	kfree(p);
}

static noinline void kprof_tm_ppair(void)
{
	struct page *p = alloc_page(GFP_KERNEL);

	if (p)
		__free_page(p);
}

static ssize_t kprof_tm_pairs(struct file *file, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	char cmd[32];
	unsigned long n, i;

	if (len >= sizeof(cmd) || copy_from_user(cmd, buf, len))
		return -EINVAL;
	cmd[len] = '\0';
	if (sscanf(cmd, "pairs %lu", &n) == 1) {
		for (i = 0; i < n; i++)
			kprof_tm_pair();
	} else if (sscanf(cmd, "pages %lu", &n) == 1) {
		for (i = 0; i < n; i++)
			kprof_tm_ppair();
	} else {
		return -EINVAL;
	}
	return len;
}

static const struct file_operations kprof_tm_pairs_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_pairs,
	.llseek	= noop_llseek,
};

static noinline int kprof_tm_v(void)
{
	void *p = vmalloc(10000);

	if (!p)
		return -ENOMEM;
	vfree(p);
	return 0;
}

static noinline void *kprof_tm_w(void)
{
	void *p = vzalloc(5000);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline int kprof_tm_dc(struct device *dev)
{
	dma_addr_t h;
	void *p = dma_alloc_coherent(dev, 6000, &h, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	dma_free_coherent(dev, 6000, p, h);
	return 0;
}

static noinline void *kprof_tm_dk(struct device *dev, dma_addr_t *h)
{
	void *p = dma_alloc_coherent(dev, 4096, h, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline int kprof_tm_m1(struct device *dev, void *buf)
{
	dma_addr_t a = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);

	if (dma_mapping_error(dev, a))
		return -EIO;
	dma_unmap_single(dev, a, 256, DMA_TO_DEVICE);
	return 0;
}

static noinline int kprof_tm_m2(struct device *dev, void *buf)
{
	dma_addr_t a = dma_map_single(dev, buf + 512, 512, DMA_FROM_DEVICE);

	return dma_mapping_error(dev, a) ? -EIO : 0;
}

static noinline int kprof_tm_mb(struct device *dev, void *buf)
{
	dma_addr_t a = dma_map_page(dev, virt_to_page(buf), 1024, 1024,
				    DMA_BIDIRECTIONAL);

	if (dma_mapping_error(dev, a))
		return -EIO;
	dma_unmap_page(dev, a, 1024, DMA_BIDIRECTIONAL);
	return 0;
}

static noinline struct kprof_tm_vkept *kprof_tm_vround_rec(void)
{
	struct kprof_tm_vkept *k = kzalloc(64, GFP_KERNEL);

	BUILD_BUG_ON(sizeof(*k) > 64);
	OPTIMIZER_HIDE_VAR(k);
	return k;
}

static ssize_t kprof_tm_vround(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	struct device *dev = &kprof_tm_pdev->dev;
	struct kprof_tm_vkept *k = kprof_tm_vround_rec();
	int ret = 0;

	if (!k)
		return -ENOMEM;
	k->page = (void *)__get_free_page(GFP_KERNEL);
	if (!k->page) {
		kfree(k);
		return -ENOMEM;
	}
	ret = kprof_tm_v();
	k->w = kprof_tm_w();
	ret = ret ?: kprof_tm_dc(dev);
	k->dk = kprof_tm_dk(dev, &k->dk_dma);
	ret = ret ?: kprof_tm_m1(dev, k->page);
	ret = ret ?: kprof_tm_m2(dev, k->page);
	ret = ret ?: kprof_tm_mb(dev, k->page);
	if (!k->w || !k->dk)
		ret = -ENOMEM;
	mutex_lock(&kprof_tm_lock);
	list_add_tail(&k->node, &kprof_tm_vrounds);
	mutex_unlock(&kprof_tm_lock);
	return ret ?: len;
}

static const struct file_operations kprof_tm_vround_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_vround,
	.llseek	= noop_llseek,
};

static noinline struct page *kprof_tm_p0(void)
{
	struct page *p = alloc_page(GFP_KERNEL), *q = alloc_page(GFP_KERNEL);

	if (p)
		__free_page(p);
	return q;
}

static noinline int kprof_tm_p2(void)
{
	struct page *p = alloc_pages(GFP_KERNEL, 2);

	if (!p)
		return -ENOMEM;
	__free_pages(p, 2);
	return 0;
}

static noinline unsigned long kprof_tm_p3(void)
{
	unsigned long a = __get_free_pages(GFP_KERNEL, 3);

	OPTIMIZER_HIDE_VAR(a);
	return a;
}

static noinline int kprof_tm_pz(void)
{
	unsigned long a = get_zeroed_page(GFP_KERNEL);

	if (!a)
		return -ENOMEM;
	free_page(a);
	return 0;
}

static noinline struct page *kprof_tm_pn(void)
{
	struct page *p = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 1);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

struct kprof_tm_put {
	struct work_struct work;
	struct page *page;
};

static void kprof_tm_put_last(struct work_struct *work)
{
	put_page(container_of(work, struct kprof_tm_put, work)->page);
}

/* the last reference goes on another CPU (if there is one), in a worker */
static noinline int kprof_tm_pr(void)
{
	struct kprof_tm_put w = { .page = alloc_page(GFP_KERNEL) };
	unsigned int cpu;

	if (!w.page)
		return -ENOMEM;
	get_page(w.page);
	__free_page(w.page);
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids)
		cpu = raw_smp_processor_id();
	INIT_WORK_ONSTACK(&w.work, kprof_tm_put_last);
	queue_work_on(cpu, system_wq, &w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	return 0;
}

static ssize_t kprof_tm_pround(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	struct kprof_tm_pkept *k = kzalloc(sizeof(*k), GFP_KERNEL);
	int ret;

	if (!k)
		return -ENOMEM;
	k->p0 = kprof_tm_p0();
	ret = kprof_tm_p2();
	k->p3 = kprof_tm_p3();
	ret = ret ?: kprof_tm_pz();
	k->pn = kprof_tm_pn();
	ret = ret ?: kprof_tm_pr();
	if (!k->p0 || !k->p3 || !k->pn)
		ret = -ENOMEM;
	mutex_lock(&kprof_tm_lock);
	list_add_tail(&k->node, &kprof_tm_prounds);
	mutex_unlock(&kprof_tm_lock);
	return ret ?: len;
}

static const struct file_operations kprof_tm_pround_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_pround,
	.llseek	= noop_llseek,
};

static noinline int kprof_tm_dv(struct device *dev)
{
	void *p = devm_kmalloc(dev, 300, GFP_KERNEL);
	void *q = devm_kmalloc(dev, 300, GFP_KERNEL);

	if (p)
		devm_kfree(dev, p);
	return q ? 0 : -ENOMEM;
}

static noinline void *kprof_tm_kv(void)
{
	void *p = kvmalloc(200, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static ssize_t kprof_tm_kvround(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	void *a = kprof_tm_kv(), *b = kprof_tm_kv(), *c = kprof_tm_kv();

	kvfree(a);
	kvfree(b);
	if (!a || !b || !c) {
		kvfree(c);
		return -ENOMEM;
	}
	mutex_lock(&kprof_tm_lock);
	if (kprof_tm_nkv < ARRAY_SIZE(kprof_tm_kv_kept)) {
		kprof_tm_kv_kept[kprof_tm_nkv++] = c;
		c = NULL;
	}
	mutex_unlock(&kprof_tm_lock);
	/* more rounds than the test makes: not kept */
	if (c) {
		kvfree(c);
		return -ENOSPC;
	}
	return len;
}

static const struct file_operations kprof_tm_kvround_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_kvround,
	.llseek	= noop_llseek,
};

struct kprof_tm_irqfree {
	struct irq_work work;
	void *p;
	bool hardirq;
};

static void kprof_tm_irq_kfree(struct irq_work *work)
{
	struct kprof_tm_irqfree *f = container_of(work, struct kprof_tm_irqfree,
						  work);

	f->hardirq = in_hardirq();
	kfree(f->p);
}

static noinline void *kprof_tm_ia(void)
{
	void *p = kmalloc(96, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static ssize_t kprof_tm_iround(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	struct kprof_tm_irqfree f = { .p = kprof_tm_ia() };

	if (!f.p)
		return -ENOMEM;
	init_irq_work(&f.work, kprof_tm_irq_kfree);
	irq_work_queue(&f.work);
	irq_work_sync(&f.work);
	if (!f.hardirq && !IS_ENABLED(CONFIG_PREEMPT_RT))
		return -EPERM;
	return len;
}

static const struct file_operations kprof_tm_iround_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_iround,
	.llseek	= noop_llseek,
};

/* not kprof_tm_d's body: identical functions may be folded into one */
static noinline struct scatterlist *kprof_tm_sgl(void)
{
	struct scatterlist *sg = kmalloc(128, GFP_KERNEL);

	BUILD_BUG_ON(2 * sizeof(struct scatterlist) > 128);
	if (sg)
		sg_init_table(sg, 2);
	return sg;
}

static noinline void *kprof_tm_sgb(size_t n)
{
	void *p = kmalloc(n, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline int kprof_tm_sg1(struct device *dev, struct scatterlist *sg)
{
	if (!dma_map_sg(dev, sg, 2, DMA_TO_DEVICE))
		return -EIO;
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	return 0;
}

static noinline int kprof_tm_sg2(struct device *dev, struct sg_table *t)
{
	int ret = dma_map_sgtable(dev, t, DMA_FROM_DEVICE, 0);

	if (!ret)
		dma_unmap_sgtable(dev, t, DMA_FROM_DEVICE, 0);
	return ret;
}

static noinline dma_addr_t kprof_tm_rs(struct device *dev, phys_addr_t phys,
				      size_t size, enum dma_data_direction dir)
{
	dma_addr_t a = dma_map_resource(dev, phys, size, dir, 0);

	OPTIMIZER_HIDE_VAR(a);
	return a;
}

static ssize_t kprof_tm_rsround(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	struct device *dev = &kprof_tm_pdev->dev;
	/* 1 TiB: no RAM there on the suite's machines (pfn_valid() fails) */
	phys_addr_t mmio = (phys_addr_t)1 << 40;
	dma_addr_t a = kprof_tm_rs(dev, mmio, 4096, DMA_BIDIRECTIONAL);
	dma_addr_t b = kprof_tm_rs(dev, mmio + 8192, 512, DMA_TO_DEVICE);
	int ret = 0;

	if (dma_mapping_error(dev, a))
		ret = -EIO;
	else
		dma_unmap_resource(dev, a, 4096, DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(dev, b))
		ret = -EIO;
	else
		dma_unmap_resource(dev, b, 512, DMA_TO_DEVICE, 0);
	return ret ?: len;
}

static const struct file_operations kprof_tm_rsround_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_rsround,
	.llseek	= noop_llseek,
};

static ssize_t kprof_tm_sground(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	struct device *dev = &kprof_tm_pdev->dev;
	struct scatterlist *sg = kprof_tm_sgl(), *s;
	void *b0 = kprof_tm_sgb(4096), *b1 = kprof_tm_sgb(1024);
	void *b2 = kprof_tm_sgb(1536);
	struct sg_table t = {};
	int i, ret = -ENOMEM;

	if (!sg || !b0 || !b1 || !b2 || sg_alloc_table(&t, 3, GFP_KERNEL))
		goto out;
	sg_set_buf(&sg[0], b0, 4096);
	sg_set_buf(&sg[1], b1, 1024);
	for_each_sgtable_sg(&t, s, i)
		sg_set_buf(s, b2 + i * 512, 512);
	ret = kprof_tm_sg1(dev, sg) ?: kprof_tm_sg2(dev, &t);
	sg_free_table(&t);
out:
	kfree(b2);
	kfree(b1);
	kfree(b0);
	kfree(sg);
	return ret ?: len;
}

static const struct file_operations kprof_tm_sground_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_sground,
	.llseek	= noop_llseek,
};

static ssize_t kprof_tm_dvround(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	int ret = kprof_tm_dv(&kprof_tm_pdev->dev);

	return ret ?: len;
}

static const struct file_operations kprof_tm_dvround_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_dvround,
	.llseek	= noop_llseek,
};

static ssize_t kprof_tm_round(struct file *file, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	struct kprof_tm_kept *k;
	int ret;

	BUILD_BUG_ON(sizeof(*k) > 128);
	k = kzalloc(128, GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	ret = kprof_tm_a();
	k->b = kprof_tm_b();
	k->c = kprof_tm_c();
	k->e = kprof_tm_e(kprof_tm_d());
	k->f = kprof_tm_f();
	if (ret || !k->b || !k->c || !k->e || !k->f)
		ret = -ENOMEM;
	mutex_lock(&kprof_tm_lock);
	list_add_tail(&k->node, &kprof_tm_rounds);
	mutex_unlock(&kprof_tm_lock);
	return ret ?: len;
}

static const struct file_operations kprof_tm_round_fops = {
	.owner	= THIS_MODULE,
	.write	= kprof_tm_round,
	.llseek	= noop_llseek,
};

static int __init kprof_tm_init(void)
{
	void *p;
	int ret;

	kprof_tm_pdev = platform_device_register_simple("kprof_test_mem",
							PLATFORM_DEVID_NONE,
							NULL, 0);
	if (IS_ERR(kprof_tm_pdev))
		return PTR_ERR(kprof_tm_pdev);
	ret = dma_coerce_mask_and_coherent(&kprof_tm_pdev->dev,
					   DMA_BIT_MASK(64));
	kprof_tm_cache = kmem_cache_create("kprof_test_mem", 200, 0, 0, NULL);
	if (ret || !kprof_tm_cache) {
		kmem_cache_destroy(kprof_tm_cache);
		platform_device_unregister(kprof_tm_pdev);
		return ret ?: -ENOMEM;
	}
	p = kprof_tm_init_site();
	kprof_tm_init_kept = kprof_tm_init_site();
	kfree(p);
	kprof_tm_dir = debugfs_create_dir("kprof_test_mem", NULL);
	debugfs_create_file("round", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_round_fops);
	debugfs_create_file("pairs", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_pairs_fops);
	debugfs_create_file("vdma", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_vround_fops);
	debugfs_create_file("pages", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_pround_fops);
	debugfs_create_file("devres", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_dvround_fops);
	debugfs_create_file("irqfree", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_iround_fops);
	debugfs_create_file("sg", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_sground_fops);
	debugfs_create_file("kv", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_kvround_fops);
	debugfs_create_file("res", 0200, kprof_tm_dir, NULL,
			    &kprof_tm_rsround_fops);
	return 0;
}

static void __exit kprof_tm_exit(void)
{
	struct kprof_tm_pkept *p, *ptmp;
	struct kprof_tm_vkept *v, *vtmp;
	struct kprof_tm_kept *k, *tmp;

	debugfs_remove_recursive(kprof_tm_dir);
	list_for_each_entry_safe(k, tmp, &kprof_tm_rounds, node) {
		kfree(k->b);
		if (k->c)
			kmem_cache_free(kprof_tm_cache, k->c);
		/* the leak: e's and f's objects outlive the module */
		if (hide) {
			kmemleak_not_leak(k->e);
			kmemleak_not_leak(k->f);
		}
		list_del(&k->node);
		kfree(k);
	}
	/* the leak: w's area, dk's buffer and m2's mapping outlive it */
	list_for_each_entry_safe(v, vtmp, &kprof_tm_vrounds, node) {
		if (hide && v->w)
			kmemleak_not_leak(v->w);
		free_page((unsigned long)v->page);
		list_del(&v->node);
		kfree(v);
	}
	/* the leak: p3's and pn's pages outlive it */
	list_for_each_entry_safe(p, ptmp, &kprof_tm_prounds, node) {
		if (p->p0)
			__free_page(p->p0);
		list_del(&p->node);
		kfree(p);
	}
	while (kprof_tm_nkv)
		kvfree(kprof_tm_kv_kept[--kprof_tm_nkv]);
	kfree(kprof_tm_init_kept);
	kmem_cache_destroy(kprof_tm_cache);
	platform_device_unregister(kprof_tm_pdev);
}

module_init(kprof_tm_init);
module_exit(kprof_tm_exit);
MODULE_DESCRIPTION("kprofctl test: known allocations for mem: probes");
MODULE_LICENSE("GPL");
