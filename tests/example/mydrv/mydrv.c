// SPDX-License-Identifier: GPL-2.0
/*
 * mydrv: a pretend driver of known costs, for README's walk-through and
 * the test that runs it.  Writing N to /sys/kernel/debug/mydrv/xfer makes
 * N requests; each goes through mydrv_xfer() to one of three paths, in a
 * fixed pattern of 16 requests:
 *
 *   12 x mydrv_fast()   copy 256 bytes
 *    3 x mydrv_slow()   copy 16 KiB through a bounce buffer; one in three
 *                       also waits 200 us for the "device" (it sleeps)
 *    1 x mydrv_check()  rejects the request (-EINVAL), the error path
 *
 * So the question a user asks, "which of my functions is slow?", has one
 * answer: mydrv_slow, and a third of its calls much more than the rest.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define MYDRV_MAX_REQUESTS	1000000

static u8 mydrv_src[16384], mydrv_dst[16384], mydrv_bounce[16384];
/* not const: the compiler must not specialise the paths for constants */
static size_t mydrv_len[3] = { 256, 16384, 16385 };
static struct dentry *mydrv_dir;
static unsigned long mydrv_slow_calls;

/* each path a function of its own, as in a real driver */
int mydrv_fast(size_t len);
int mydrv_slow(size_t len);
int mydrv_check(size_t len);
int mydrv_xfer(unsigned long i);

noinline int mydrv_fast(size_t len)
{
	memcpy(mydrv_dst, mydrv_src, len);
	return 0;
}

noinline int mydrv_slow(size_t len)
{
	memcpy(mydrv_bounce, mydrv_src, len);
	memcpy(mydrv_dst, mydrv_bounce, len);
	if (mydrv_slow_calls++ % 3 == 2)
		usleep_range(200, 200);
	return 0;
}

noinline int mydrv_check(size_t len)
{
	return len > sizeof(mydrv_dst) ? -EINVAL : 0;
}

noinline int mydrv_xfer(unsigned long i)
{
	switch (i % 16) {
	case 15:
		return mydrv_check(mydrv_len[2]);
	case 4: case 9: case 14:
		return mydrv_slow(mydrv_len[1]);
	default:
		return mydrv_fast(mydrv_len[0]);
	}
}

static ssize_t mydrv_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	unsigned long n, i;
	int ret;

	ret = kstrtoul_from_user(ubuf, len, 10, &n);
	if (ret)
		return ret;
	if (n > MYDRV_MAX_REQUESTS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		mydrv_xfer(i);
	return len;
}

static const struct file_operations mydrv_fops = {
	.owner	= THIS_MODULE,
	.write	= mydrv_write,
};

static int __init mydrv_init(void)
{
	mydrv_dir = debugfs_create_dir("mydrv", NULL);
	debugfs_create_file("xfer", 0200, mydrv_dir, NULL, &mydrv_fops);
	return 0;
}

static void __exit mydrv_exit(void)
{
	debugfs_remove_recursive(mydrv_dir);
}

module_init(mydrv_init);
module_exit(mydrv_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprofctl's example driver: three paths of known cost");
