/* SPDX-License-Identifier: GPL-2.0 */
/* /dev/kprofctl (dev.c). */
#ifndef KPROF_DEV_H
#define KPROF_DEV_H

/* After the core: a file may issue any command once this returns. */
int kprof_dev_init(void);
void kprof_dev_exit(void);

#endif /* KPROF_DEV_H */
