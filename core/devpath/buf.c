/* The growable pool buffer behind text output and parsed paths, and unaligned node reads. */
#include "devpath_internal.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

void dp_buf_put(struct dp_buf *b, const void *p, UINTN n)
{
	UINTN need;

	if (b->failed || !n)
		return;
	if (add_overflows(b->size, n, &need)) {
		b->failed = true;
		return;
	}
	if (need > b->cap) {
		UINTN cap = b->cap ? b->cap : 64;
		UINT8 *grown;

		while (cap < need && cap <= SIZE_MAX / 2)
			cap *= 2;
		grown = cap >= need ? pool_alloc(cap) : NULL;
		if (!grown) {
			b->failed = true;
			return;
		}
		if (b->size)
			mem_copy(grown, b->data, b->size);
		pool_free(b->data);
		b->data = grown;
		b->cap = cap;
	}
	mem_copy(b->data + b->size, p, n);
	b->size = need;
}

void dp_buf_truncate(struct dp_buf *b, UINTN size)
{
	if (size < b->size)
		b->size = size;
}

void *dp_buf_take(struct dp_buf *b)
{
	void *data = b->failed ? NULL : b->data;

	if (b->failed)
		pool_free(b->data);
	*b = (struct dp_buf){0};
	return data;
}

void dp_buf_free(struct dp_buf *b)
{
	pool_free(b->data);
	*b = (struct dp_buf){0};
}

UINTN dp_buf_node_begin(struct dp_buf *b, UINT8 type, UINT8 subtype)
{
	EFI_DEVICE_PATH_PROTOCOL header = {type, subtype, {0, 0}};
	UINTN start = b->size;

	dp_buf_put(b, &header, sizeof(header));
	return start;
}

bool dp_buf_node_end(struct dp_buf *b, UINTN start)
{
	UINTN len;

	if (b->failed)
		return false;
	len = b->size - start;
	if (len > 0xffff) {
		b->failed = true;
		return false;
	}
	b->data[start + 2] = (UINT8)len;
	b->data[start + 3] = (UINT8)(len >> 8);
	return true;
}

void dp_buf_node(struct dp_buf *b, UINT8 type, UINT8 subtype, const void *body, UINTN body_len)
{
	UINTN start = dp_buf_node_begin(b, type, subtype);

	dp_buf_put(b, body, body_len);
	dp_buf_node_end(b, start);
}

void dp_buf_fixed(struct dp_buf *b, void *node, UINTN size, UINT8 type, UINT8 subtype)
{
	dp_set_node(node, type, subtype, size);
	dp_buf_put(b, node, size);
}

UINT16 dp_rd16(const UINT8 *p)
{
	return (UINT16)(p[0] | (p[1] << 8));
}

UINT32 dp_rd32(const UINT8 *p)
{
	return (UINT32)dp_rd16(p) | ((UINT32)dp_rd16(p + 2) << 16);
}

UINT64 dp_rd64(const UINT8 *p)
{
	return (UINT64)dp_rd32(p) | ((UINT64)dp_rd32(p + 4) << 32);
}

void dp_rdguid(EFI_GUID *guid, const UINT8 *p)
{
	mem_copy(guid, p, sizeof(*guid));
}

bool dp_guid_is(const UINT8 *p, const EFI_GUID *guid)
{
	return mem_cmp(p, guid, sizeof(*guid)) == 0;
}
