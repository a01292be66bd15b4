/* SPDX-License-Identifier: GPL-2.0 */
/* A module-defined tracepoint, for attaching before and after load. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kprof_test

#if !defined(_KPROF_TEST_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KPROF_TEST_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(kprof_test_event,
	TP_PROTO(unsigned long seq),
	TP_ARGS(seq),
	TP_STRUCT__entry(__field(unsigned long, seq)),
	TP_fast_assign(__entry->seq = seq;),
	TP_printk("seq=%lu", __entry->seq)
);

#endif

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kprof_test_trace
#include <trace/define_trace.h>
