/* QEMU's table-loader script interpreter (see qemu_loader.h). */
#define LOG_PREFIX "table-loader: "
#include "qemu_loader.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

static UINT32 le32_at(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

/* A file name field: must be NUL-terminated inside its 56 bytes. */
static const char *name_at(const UINT8 *p)
{
	for (int i = 0; i < QEMU_LOADER_FNAME_SIZE; i++)
		if (!p[i])
			return i ? (const char *)p : NULL;
	return NULL;
}

struct qemu_loader_blob *qemu_loader_blob(struct qemu_loader *loader, const char *name)
{
	for (UINTN i = 0; i < loader->blob_count; i++)
		if (!str8_cmp(loader->blobs[i].name, name))
			return &loader->blobs[i];
	return NULL;
}

UINT8 *qemu_loader_at(const struct qemu_loader *loader, UINT64 address, UINT64 size)
{
	for (UINTN i = 0; i < loader->blob_count; i++) {
		const struct qemu_loader_blob *b = &loader->blobs[i];
		if (address >= b->address && address - b->address <= b->size &&
		    size <= b->size - (address - b->address))
			return b->data + (address - b->address);
	}
	return NULL;
}

static EFI_STATUS fail(struct qemu_loader *loader, const char *why)
{
	loader->error = why;
	return EFI_INVALID_PARAMETER;
}

static EFI_STATUS do_allocate(struct qemu_loader *loader, const struct qemu_loader_ops *ops,
			      const UINT8 *body)
{
	const char *name = name_at(body);
	UINT32 align = le32_at(body + QEMU_LOADER_FNAME_SIZE);
	UINT8 zone = body[QEMU_LOADER_FNAME_SIZE + 4];
	struct qemu_loader_blob *b;
	EFI_STATUS status;

	if (!name)
		return fail(loader, "ALLOCATE: bad file name");
	if (!align || (align & (align - 1)))
		return fail(loader, "ALLOCATE: alignment is not a power of two");
	if (zone != QEMU_LOADER_ZONE_HIGH && zone != QEMU_LOADER_ZONE_FSEG)
		return fail(loader, "ALLOCATE: unknown zone");
	if (qemu_loader_blob(loader, name))
		return fail(loader, "ALLOCATE: file allocated twice");
	if (loader->blob_count == QEMU_LOADER_MAX_BLOBS)
		return fail(loader, "ALLOCATE: too many files");
	b = &loader->blobs[loader->blob_count];
	mem_set(b, 0, sizeof(*b));
	mem_copy(b->name, name, str8_len(name) + 1);
	status = ops->allocate(ops->ctx, name, align, zone, b);
	if (EFI_ERROR(status)) {
		log_debug("ALLOCATE %s: %r\n", name, status);
		loader->error = "ALLOCATE: cannot load the file";
		return status;
	}
	loader->blob_count++;
	return EFI_SUCCESS;
}

static bool valid_pointer_size(UINT8 size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static UINT64 read_le(const UINT8 *p, UINT8 size)
{
	UINT64 v = 0;

	for (UINT8 i = 0; i < size; i++)
		v |= (UINT64)p[i] << (8 * i);
	return v;
}

static void write_le(UINT8 *p, UINT8 size, UINT64 v)
{
	for (UINT8 i = 0; i < size; i++)
		p[i] = (UINT8)(v >> (8 * i));
}

/* The pointer at dest+offset, an offset into src, becomes src's address plus it. */
static EFI_STATUS do_add_pointer(struct qemu_loader *loader, const UINT8 *body)
{
	const char *dname = name_at(body), *sname = name_at(body + QEMU_LOADER_FNAME_SIZE);
	UINT32 offset = le32_at(body + 2 * QEMU_LOADER_FNAME_SIZE);
	UINT8 size = body[2 * QEMU_LOADER_FNAME_SIZE + 4];
	struct qemu_loader_blob *dest, *src;
	UINT64 value;

	if (!dname || !sname)
		return fail(loader, "ADD_POINTER: bad file name");
	dest = qemu_loader_blob(loader, dname);
	src = qemu_loader_blob(loader, sname);
	if (!dest || !src)
		return fail(loader, "ADD_POINTER: file not allocated");
	if (!valid_pointer_size(size) || offset > dest->size || size > dest->size - offset)
		return fail(loader, "ADD_POINTER: pointer outside the file");
	value = read_le(dest->data + offset, size);
	if (value >= src->size || add_overflows(value, src->address, &value) ||
	    (size < 8 && value >> (8 * size)))
		return fail(loader, "ADD_POINTER: target does not fit the pointer");
	write_le(dest->data + offset, size, value);
	return EFI_SUCCESS;
}

static EFI_STATUS do_add_checksum(struct qemu_loader *loader, const UINT8 *body)
{
	const char *name = name_at(body);
	UINT32 result = le32_at(body + QEMU_LOADER_FNAME_SIZE);
	UINT32 start = le32_at(body + QEMU_LOADER_FNAME_SIZE + 4);
	UINT32 length = le32_at(body + QEMU_LOADER_FNAME_SIZE + 8);
	struct qemu_loader_blob *b = name ? qemu_loader_blob(loader, name) : NULL;
	UINT8 sum = 0;

	if (!b)
		return fail(loader, "ADD_CHECKSUM: file not allocated");
	if (result >= b->size || start > b->size || length > b->size - start)
		return fail(loader, "ADD_CHECKSUM: range outside the file");
	b->data[result] = 0;
	for (UINT32 i = 0; i < length; i++)
		sum += b->data[start + i];
	b->data[result] = (UINT8)-sum;
	return EFI_SUCCESS;
}

static EFI_STATUS do_write_pointer(struct qemu_loader *loader, const struct qemu_loader_ops *ops,
				   const UINT8 *body)
{
	const char *dname = name_at(body), *sname = name_at(body + QEMU_LOADER_FNAME_SIZE);
	UINT32 dst_offset = le32_at(body + 2 * QEMU_LOADER_FNAME_SIZE);
	UINT32 src_offset = le32_at(body + 2 * QEMU_LOADER_FNAME_SIZE + 4);
	UINT8 size = body[2 * QEMU_LOADER_FNAME_SIZE + 8];
	struct qemu_loader_blob *src;
	UINT64 value;
	EFI_STATUS status;

	if (!dname || !sname)
		return fail(loader, "WRITE_POINTER: bad file name");
	src = qemu_loader_blob(loader, sname);
	if (!src)
		return fail(loader, "WRITE_POINTER: file not allocated");
	if (!valid_pointer_size(size) || src_offset >= src->size ||
	    add_overflows(src->address, (UINT64)src_offset, &value) ||
	    (size < 8 && value >> (8 * size)))
		return fail(loader, "WRITE_POINTER: target does not fit the pointer");
	status = ops->write_pointer(ops->ctx, dname, dst_offset, size, value);
	if (EFI_ERROR(status)) {
		log_debug("WRITE_POINTER %s+%u: %r\n", dname, dst_offset, status);
		loader->error = "WRITE_POINTER: QEMU refused the write";
	}
	return status;
}

EFI_STATUS qemu_loader_run(struct qemu_loader *loader, const struct qemu_loader_ops *ops,
			   const void *script, UINTN size)
{
	const UINT8 *p = script;
	EFI_STATUS status = EFI_SUCCESS;

	loader->blob_count = 0;
	loader->error = NULL;
	for (UINTN off = 0; off + QEMU_LOADER_ENTRY_SIZE <= size && !EFI_ERROR(status);
	     off += QEMU_LOADER_ENTRY_SIZE) {
		const UINT8 *body = p + off + 4;
		switch (le32_at(p + off)) {
		case QEMU_LOADER_ALLOCATE:
			status = do_allocate(loader, ops, body);
			break;
		case QEMU_LOADER_ADD_POINTER:
			status = do_add_pointer(loader, body);
			break;
		case QEMU_LOADER_ADD_CHECKSUM:
			status = do_add_checksum(loader, body);
			break;
		case QEMU_LOADER_WRITE_POINTER:
			status = do_write_pointer(loader, ops, body);
			break;
		default: /* padding (0), and commands newer than this interpreter */
			break;
		}
		if (EFI_ERROR(status))
			log_debug("command %llu refused: %s: %r\n",
				  (unsigned long long)(off / QEMU_LOADER_ENTRY_SIZE), loader->error,
				  status);
	}
	return status;
}
