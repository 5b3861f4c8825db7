/* Mounting: choose the newest complete area, replay its log into the index
 * (store_scan.c), find the tail. Every interrupted state a power loss can leave is
 * recognised (docs/varstore.md, "Mounting and recovery"); nothing is written unless the
 * region must be formatted. */
#define LOG_PREFIX "varstore: "
#include "format.h"
#include <ember/core/log.h>
#include <ember/lib/crc32.h>

#define MIN_LIVE_RECORD_NAME 4 /* one character and the terminator */
#define MAX_ENTRIES 0xfffeu    /* entry numbers are 16-bit; VSTORE_NONE is taken */

static UINT32 capacity_for(UINT32 area_size)
{
	UINT32 usable = area_size - sizeof(struct vs_area_header);

	/* Each live variable needs at least one record with a name and a byte of data. */
	return MIN(usable / vstore_record_size(MIN_LIVE_RECORD_NAME, 1), MAX_ENTRIES);
}

static UINT32 buckets_for(UINT32 capacity)
{
	UINT32 n = 16;

	while (n < capacity)
		n <<= 1;
	return n;
}

static bool geometry_ok(const struct flash_device *f)
{
	UINT32 area = f->size / 2;

	return f->block_size >= VS_ALIGN && f->block_size % VS_ALIGN == 0 && f->size % 2 == 0 &&
	       area % f->block_size == 0 &&
	       area >= 2 * sizeof(struct vs_record_header) + sizeof(struct vs_area_header);
}

UINTN vstore_mem_size(UINT32 flash_size)
{
	UINT32 area = flash_size / 2, capacity;

	if (area <= sizeof(struct vs_area_header))
		return VS_SCRATCH_SIZE;
	capacity = capacity_for(area);
	return ALIGN_UP(vs_entries_bytes(capacity) + buckets_for(capacity) * 2 + VS_SCRATCH_SIZE,
			16);
}

/* The generation of the complete area at base, or false when it is not one. */
static bool area_committed(struct vstore *s, UINT32 base, UINT32 *generation)
{
	struct vs_area_header h;

	if (EFI_ERROR(vs_read(s, base, &h, sizeof(h)))) {
		log_debug("area at 0x%x: its header cannot be read\n", base);
		return false;
	}
	if (h.magic == 0xffffffffu && h.crc == 0xffffffffu)
		return false; /* erased: a spare, not a failure */
	if (h.magic != VS_AREA_MAGIC || h.version != VS_VERSION || h.header_size != sizeof(h) ||
	    h.area_size != s->area_size || h.reserved != 0) {
		log_debug("area at 0x%x: not an area header of this store\n", base);
		return false;
	}
	if (h.crc != crc32(&h, offsetof(struct vs_area_header, crc))) {
		log_debug("area at 0x%x: header CRC mismatch\n", base);
		return false;
	}
	if (h.state != VS_COMMITTED) {
		log_debug("area at 0x%x: generation %u never completed\n", base, h.generation);
		return false;
	}
	*generation = h.generation;
	return true;
}

/* No complete area: format area 0, quietly when the region is blank. */
static EFI_STATUS format_region(struct vstore *s, UINT32 flags)
{
	bool blank = vs_is_erased(s, 0, s->flash->size);
	EFI_STATUS status;

	if (!blank && (flags & VSTORE_NO_REFORMAT)) {
		log_debug("no complete area and the region is not blank: not formatting it\n");
		return EFI_VOLUME_CORRUPTED;
	}
	status = vs_format_area(s, 0, 1);
	if (EFI_ERROR(status)) {
		log_debug("formatting the region failed\n");
		return status;
	}
	s->report.formatted = blank;
	s->report.reformatted = !blank;
	s->active = 0;
	s->generation = 1;
	return EFI_SUCCESS;
}

static EFI_STATUS mount_areas(struct vstore *s, UINT32 flags)
{
	UINT32 gen[2];
	bool ok[2];
	EFI_STATUS status;

	s->report = (struct vstore_report){0};
	ok[0] = area_committed(s, 0, &gen[0]);
	ok[1] = area_committed(s, s->area_size, &gen[1]);
	if (ok[0] || ok[1]) {
		UINT32 pick = ok[1] && (!ok[0] || vs_newer(gen[1], gen[0])) ? 1 : 0;
		s->active = pick * s->area_size;
		s->generation = gen[pick];
	} else {
		status = format_region(s, flags);
		if (EFI_ERROR(status))
			return status;
	}
	return vs_scan(s);
}

/* A region known to be erased: the first area's header and commit are all there is. */
static EFI_STATUS mount_erased(struct vstore *s)
{
	EFI_STATUS status = vs_area_write_header(s, 0, 1);

	if (!EFI_ERROR(status))
		status = vs_area_commit(s, 0);
	if (EFI_ERROR(status)) {
		log_debug("formatting the erased region failed\n");
		return status;
	}
	vs_index_reset(s);
	s->report = (struct vstore_report){.formatted = true};
	s->generation = 1;
	s->tail = sizeof(struct vs_area_header);
	return EFI_SUCCESS;
}

EFI_STATUS vstore_mount(struct vstore *s, struct flash_device *flash, void *mem, UINTN mem_size,
			UINT32 flags)
{
	if (!geometry_ok(flash)) {
		log_debug("flash of %u bytes in blocks of %u: not two areas of whole blocks\n",
			  flash->size, flash->block_size);
		return EFI_INVALID_PARAMETER;
	}
	if (mem_size < vstore_mem_size(flash->size) || (UINTN)mem % 8) {
		log_debug("index memory too small or misaligned\n");
		return EFI_BUFFER_TOO_SMALL;
	}
	*s = (struct vstore){.flash = flash, .mem = mem, .area_size = flash->size / 2};
	s->capacity = capacity_for(s->area_size);
	s->bucket_mask = buckets_for(s->capacity) - 1;
	return (flags & VSTORE_ERASED) ? mount_erased(s) : mount_areas(s, flags);
}

EFI_STATUS vs_remount(struct vstore *s)
{
	return mount_areas(s, VSTORE_NO_REFORMAT);
}
