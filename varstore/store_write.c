/* Appending a variable's new value: the record is programmed header first and state
 * byte last, so until that last byte the variable keeps its old value. */
#include "format.h"
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>

EFI_STATUS vs_program_record(struct vstore *s, UINT32 at, const struct vs_pending *p)
{
	static const UINT8 committed = VS_COMMITTED;
	UINT32 body = at + sizeof(p->h);
	EFI_STATUS status;

	status = vs_program(s, at, &p->h, sizeof(p->h));
	if (!EFI_ERROR(status))
		status = vs_program(s, body, p->name, p->h.name_size);
	if (!EFI_ERROR(status))
		status = vs_copy(s, p->old_at, body + p->h.name_size, p->old_size);
	if (!EFI_ERROR(status))
		status = vs_program(s, body + p->h.name_size + p->old_size, p->data, p->size);
	if (!EFI_ERROR(status))
		status = vs_program(s, at + VS_STATE_OFFSET, &committed, 1);
	return status;
}

/* CRC32 of flash bytes, continuing crc. */
static EFI_STATUS crc_flash(struct vstore *s, UINT32 at, UINT32 size, UINT32 *crc)
{
	UINT8 *buf = vs_scratch(s);

	while (size) {
		UINT32 n = MIN(size, (UINT32)VS_SCRATCH_SIZE);
		EFI_STATUS status = vs_read(s, at, buf, n);
		if (EFI_ERROR(status))
			return status;
		*crc = crc32_update(*crc, buf, n);
		at += n, size -= n;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS prepare(struct vstore *s, struct vs_pending *p, UINT32 attributes, bool append)
{
	UINT32 crc = crc32(p->name, p->h.name_size);
	EFI_STATUS status;

	if (append && p->entry != VSTORE_NONE) {
		const struct vstore_entry *e = vstore_entry(s, p->entry);
		p->old_at = s->active + e->offset + sizeof(p->h) + e->name_size;
		p->old_size = e->data_size;
	}
	if ((UINT64)p->size + p->old_size + p->h.name_size > VARSTORE_MAX_VARIABLE)
		return EFI_INVALID_PARAMETER;
	status = crc_flash(s, p->old_at, p->old_size, &crc);
	if (EFI_ERROR(status))
		return status;
	p->h.attributes = attributes;
	p->h.data_size = p->old_size + p->size;
	p->h.body_crc = crc32_update(crc, p->data, p->size);
	vs_record_header_seal(&p->h);
	return EFI_SUCCESS;
}

/* Whether the variables would fit the area once this record replaced the current one. */
static bool fits(const struct vstore *s, const struct vs_pending *p)
{
	UINT32 live = s->live_bytes[0] + s->live_bytes[1];

	if (p->entry != VSTORE_NONE) {
		const struct vstore_entry *e = vstore_entry(s, p->entry);
		live -= vstore_record_size(e->name_size, e->data_size);
	} else if (p->h.data_size && s->free_head == VSTORE_NONE)
		return false;
	if (p->h.data_size)
		live += vstore_record_size(p->h.name_size, p->h.data_size);
	return live <= vstore_usable(s);
}

EFI_STATUS vstore_write(struct vstore *s, const CHAR16 *name, UINT32 name_size,
			const EFI_GUID *guid, UINT32 attributes, const void *data, UINT32 size,
			bool append)
{
	struct vs_pending p = {.name = name, .data = data, .size = size};
	UINT32 record, at;
	EFI_STATUS status;

	if (name_size < 2 * sizeof(CHAR16) || name_size % 2 || name_size > VARSTORE_MAX_VARIABLE ||
	    attributes > 0xff)
		return EFI_INVALID_PARAMETER;
	p.h.name_size = name_size;
	p.h.guid = *guid;
	p.hash = vs_hash(name, name_size, guid);
	p.entry = vs_index_find(s, p.hash, name, name_size, guid);
	status = prepare(s, &p, attributes, append);
	if (EFI_ERROR(status))
		return status;
	if (!p.h.data_size && p.entry == VSTORE_NONE)
		return EFI_NOT_FOUND;
	if (!fits(s, &p))
		return EFI_OUT_OF_RESOURCES;
	record = vstore_record_size(name_size, p.h.data_size);
	if (record > s->area_size - s->tail)
		return vs_compact(s, &p);
	/* The space is spent even if the write fails half way: what is there is not erased. */
	at = s->tail;
	s->tail += record;
	status = vs_program_record(s, s->active + at, &p);
	if (EFI_ERROR(status))
		return status;
	vs_index_apply(s, p.entry, p.hash, at, &p.h);
	return EFI_SUCCESS;
}
