/* In-memory text log. */
#include "memlog.h"

struct memlog *memlog_init(void *mem, size_t bytes)
{
	struct memlog *log = mem;

	log->magic = MEMLOG_MAGIC;
	log->size = (UINT32)(bytes - sizeof(*log));
	log->used = 0;
	log->text[0] = 0;
	return log;
}

void memlog_write(void *ctx, const char *text, size_t len)
{
	struct memlog *log = ctx;
	size_t room = log->size - 1 - log->used;

	len = MIN(len, room);
	mem_copy(log->text + log->used, text, len);
	log->used += (UINT32)len;
	log->text[log->used] = 0;
}
