/* A tiny flattened device tree writer for the unit tests of lib/fdt*.c: tokens, names and
 * properties appended in order, then laid out as header, reservation block, structure,
 * strings. */
#ifndef TEST_FDT_BUILDER_H
#define TEST_FDT_BUILDER_H

#include <stddef.h>
#include <efi/types.h>

#define FDTB_MAX_RSV 8

struct fdt_builder {
	UINT8 structure[2048];
	size_t struct_len;
	char strings[512];
	size_t strings_len;
	UINT64 rsv[FDTB_MAX_RSV][2]; /* (address, size) entries of the reservation block */
	size_t rsv_count;
	UINT8 blob[4096];
};

void fdtb_put32(UINT8 *p, UINT32 v);
void fdtb_token(struct fdt_builder *b, UINT32 t);
/* Appends n bytes, padded to 4. */
void fdtb_bytes(struct fdt_builder *b, const void *data, size_t n);
void fdtb_begin(struct fdt_builder *b, const char *name);
void fdtb_end(struct fdt_builder *b);
void fdtb_prop(struct fdt_builder *b, const char *name, const void *value, UINT32 len);
void fdtb_prop32(struct fdt_builder *b, const char *name, UINT32 v);
/* Lays the blob out in b->blob; returns its size. */
size_t fdtb_finish(struct fdt_builder *b);

#endif
