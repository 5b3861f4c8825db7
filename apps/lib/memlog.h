/* A text log in memory, usable as an app_print sink where no console exists (after
 * ExitBootServices). Its header lets a debugger or a test harness that reads guest
 * memory find and decode it. */
#ifndef APP_LIB_MEMLOG_H
#define APP_LIB_MEMLOG_H

#include "app.h"

#define MEMLOG_MAGIC 0x474f4c4e52424d45ULL /* "EMBRNLOG" */

struct memlog {
	UINT64 magic;
	UINT32 size; /* bytes available in text[] */
	UINT32 used; /* bytes written, excluding the terminator */
	char text[];
};

/* Formats an empty log over `bytes` of memory at `mem`; returns it. */
struct memlog *memlog_init(void *mem, size_t bytes);

/* An app_output_fn: appends text (ctx is the struct memlog), truncating when full. */
void memlog_write(void *ctx, const char *text, size_t len);

#endif
