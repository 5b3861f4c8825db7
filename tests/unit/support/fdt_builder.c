/* The unit tests' tree writer (fdt_builder.h). */
#include <string.h>

#include "fdt_builder.h"

void fdtb_put32(UINT8 *p, UINT32 v)
{
	p[0] = (UINT8)(v >> 24);
	p[1] = (UINT8)(v >> 16);
	p[2] = (UINT8)(v >> 8);
	p[3] = (UINT8)v;
}

void fdtb_token(struct fdt_builder *b, UINT32 t)
{
	fdtb_put32(b->structure + b->struct_len, t);
	b->struct_len += 4;
}

void fdtb_bytes(struct fdt_builder *b, const void *data, size_t n)
{
	memcpy(b->structure + b->struct_len, data, n);
	b->struct_len += n;
	while (b->struct_len % 4)
		b->structure[b->struct_len++] = 0;
}

void fdtb_begin(struct fdt_builder *b, const char *name)
{
	fdtb_token(b, 1);
	fdtb_bytes(b, name, strlen(name) + 1);
}

void fdtb_end(struct fdt_builder *b)
{
	fdtb_token(b, 2);
}

void fdtb_prop(struct fdt_builder *b, const char *name, const void *value, UINT32 len)
{
	UINT32 nameoff = (UINT32)b->strings_len;

	strcpy(b->strings + b->strings_len, name);
	b->strings_len += strlen(name) + 1;
	fdtb_token(b, 3);
	fdtb_token(b, len);
	fdtb_token(b, nameoff);
	fdtb_bytes(b, value, len);
}

void fdtb_prop32(struct fdt_builder *b, const char *name, UINT32 v)
{
	UINT8 cell[4];

	fdtb_put32(cell, v);
	fdtb_prop(b, name, cell, 4);
}

size_t fdtb_finish(struct fdt_builder *b)
{
	size_t rsv_size = (b->rsv_count + 1) * 16;
	size_t struct_off = 40 + rsv_size, strings_off = struct_off + b->struct_len;
	size_t total = strings_off + b->strings_len;

	memset(b->blob, 0, sizeof(b->blob));
	fdtb_put32(b->blob, 0xd00dfeed);
	fdtb_put32(b->blob + 4, (UINT32)total);
	fdtb_put32(b->blob + 8, (UINT32)struct_off);
	fdtb_put32(b->blob + 12, (UINT32)strings_off);
	fdtb_put32(b->blob + 16, 40);
	fdtb_put32(b->blob + 20, 17);
	fdtb_put32(b->blob + 24, 16);
	fdtb_put32(b->blob + 32, (UINT32)b->strings_len);
	fdtb_put32(b->blob + 36, (UINT32)b->struct_len);
	for (size_t i = 0; i < b->rsv_count; i++) {
		UINT8 *e = b->blob + 40 + i * 16;
		fdtb_put32(e, (UINT32)(b->rsv[i][0] >> 32));
		fdtb_put32(e + 4, (UINT32)b->rsv[i][0]);
		fdtb_put32(e + 8, (UINT32)(b->rsv[i][1] >> 32));
		fdtb_put32(e + 12, (UINT32)b->rsv[i][1]);
	}
	memcpy(b->blob + struct_off, b->structure, b->struct_len);
	memcpy(b->blob + strings_off, b->strings, b->strings_len);
	return total;
}
