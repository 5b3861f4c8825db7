/* Building configuration strings (the results of the routing functions) in pool memory. */
#include "hii.h"
#include <ember/core/hii_config.h>
#include <ember/lib/str.h>

#define FIRST_CAPACITY 64

static bool room(struct hii_cfg_out *o, size_t n)
{
	size_t cap = o->cap ? o->cap : FIRST_CAPACITY;
	CHAR16 *bigger;

	if (o->failed)
		return false;
	if (o->len + n + 1 <= o->cap)
		return true;
	while (cap < o->len + n + 1)
		cap *= 2;
	bigger = pool_alloc(cap * sizeof(CHAR16));
	if (!bigger) {
		o->failed = true;
		return false;
	}
	if (o->buf)
		mem_copy(bigger, o->buf, o->len * sizeof(CHAR16));
	pool_free(o->buf);
	o->buf = bigger;
	o->cap = cap;
	return true;
}

/* Appends n units of text. */
void hii_cfg_out_put16(struct hii_cfg_out *o, const CHAR16 *text, size_t n)
{
	if (!room(o, n))
		return;
	mem_copy(o->buf + o->len, text, n * sizeof(CHAR16));
	o->len += n;
	o->buf[o->len] = 0;
}

/* Appends ASCII text. */
void hii_cfg_out_put8(struct hii_cfg_out *o, const char *text)
{
	size_t n = str8_len(text);

	if (!room(o, n))
		return;
	for (size_t i = 0; i < n; i++)
		o->buf[o->len++] = (CHAR16)text[i];
	o->buf[o->len] = 0;
}

/* Appends bytes as hex. */
void hii_cfg_out_hex(struct hii_cfg_out *o, const UINT8 *bytes, size_t n, bool reversed)
{
	if (!room(o, 2 * n))
		return;
	hii_cfg_put_hex(o->buf + o->len, bytes, n, reversed);
	o->len += 2 * n;
	o->buf[o->len] = 0;
}

/* The finished string, or NULL when memory ran out. */
CHAR16 *hii_cfg_out_take(struct hii_cfg_out *o)
{
	CHAR16 *s;

	room(o, 0);
	s = o->failed ? NULL : o->buf;
	if (o->failed)
		pool_free(o->buf);
	*o = (struct hii_cfg_out){0};
	return s;
}
