/* Compaction: the live records are copied into the spare area under a newer generation,
 * then that area's state byte makes it the active one. Until that byte is programmed the
 * old area is the store, so an interrupted compaction loses nothing; the old area is
 * erased only when the next compaction needs it as its spare. */
#include "format.h"

static EFI_STATUS copy_live(struct vstore *s, UINT32 spare, UINT32 *q, UINT32 skip)
{
	for (UINT32 i = vstore_next(s, 0); i != VSTORE_NONE; i = vstore_next(s, i + 1)) {
		const struct vstore_entry *e = vstore_entry(s, i);
		UINT32 size = vstore_record_size(e->name_size, e->data_size);
		EFI_STATUS status;

		if (i == skip)
			continue;
		status = vs_copy(s, s->active + e->offset, spare + *q, size);
		if (EFI_ERROR(status))
			return status;
		*q += size;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS fill_spare(struct vstore *s, UINT32 spare, const struct vs_pending *p)
{
	UINT32 q = sizeof(struct vs_area_header);
	EFI_STATUS status;

	status = vs_area_begin(s, spare, s->generation + 1);
	if (!EFI_ERROR(status))
		status = copy_live(s, spare, &q, p ? p->entry : VSTORE_NONE);
	if (!EFI_ERROR(status) && p && p->h.data_size)
		status = vs_program_record(s, spare + q, p);
	if (!EFI_ERROR(status))
		status = vs_area_commit(s, spare);
	return status;
}

EFI_STATUS vs_compact(struct vstore *s, const struct vs_pending *p)
{
	UINT32 spare = s->active ? 0 : s->area_size;
	EFI_STATUS status = fill_spare(s, spare, p);
	EFI_STATUS remount;

	s->compactions++;
	/* Whatever happened, the flash now says which area is the store. */
	remount = vs_remount(s);
	return EFI_ERROR(status) ? status : remount;
}

EFI_STATUS vstore_compact(struct vstore *s)
{
	return vs_compact(s, NULL);
}
