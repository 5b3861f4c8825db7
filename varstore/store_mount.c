/* Mounting: choose the newest complete area, replay its log into the index, find the
 * tail. Every interrupted state a power loss can leave is recognised here (docs/
 * varstore.md, "Recovery"); nothing is written unless the region must be formatted. */
#include "format.h"
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>

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

	if (EFI_ERROR(vs_read(s, base, &h, sizeof(h))))
		return false;
	if (h.magic != VS_AREA_MAGIC || h.version != VS_VERSION || h.header_size != sizeof(h) ||
	    h.area_size != s->area_size || h.reserved != 0 ||
	    h.crc != crc32(&h, offsetof(struct vs_area_header, crc)) || h.state != VS_COMMITTED)
		return false;
	*generation = h.generation;
	return true;
}

/* Checks a complete record's name and CRC, computing the hash of its key on the way.
 * The name must end with its only terminator. */
static bool body_ok(struct vstore *s, UINT32 at, const struct vs_record_header *h, UINT32 *hash)
{
	UINT8 *buf = vs_scratch(s);
	UINT32 crc = 0, done = 0, body = h->name_size + h->data_size;
	UINT32 name_end = h->name_size, key_hash = VS_HASH_START;

	at += sizeof(*h);
	while (done < body) {
		/* Chunks stop at the end of the name, so the name's units never straddle one. */
		UINT32 n = MIN(body - done, (UINT32)VS_SCRATCH_SIZE);
		if (done < name_end)
			n = MIN(n, name_end - done);
		if (EFI_ERROR(vs_read(s, at + done, buf, n)))
			return false;
		crc = crc32_update(crc, buf, n);
		if (done < name_end) {
			for (UINT32 i = 0; i < n; i += 2)
				if ((buf[i] == 0 && buf[i + 1] == 0) != (done + i + 2 == name_end))
					return false;
			key_hash = vs_hash_update(key_hash, buf, n);
		}
		done += n;
	}
	if (crc != h->body_crc)
		return false;
	*hash = vs_hash_update(key_hash, &h->guid, sizeof(h->guid));
	return true;
}

static void scan_record(struct vstore *s, UINT32 offset, const struct vs_record_header *h)
{
	UINT32 hash, entry;

	if (h->state != VS_COMMITTED) {
		s->report.torn++;
		return;
	}
	if (!body_ok(s, s->active + offset, h, &hash)) {
		s->report.damaged++;
		return;
	}
	entry = vs_index_find_record(s, hash, s->active + offset, h);
	if (!vs_index_apply(s, entry, hash, offset, h))
		s->report.dropped++;
}

static bool all_erased(const void *p, UINT32 size)
{
	const UINT8 *b = p;

	for (UINT32 i = 0; i < size; i++)
		if (b[i] != VS_ERASED)
			return false;
	return true;
}

/* Replays the active area's log. What is neither a record nor erased flash is skipped
 * eight bytes at a time, so records after damage are found again. */
static EFI_STATUS scan(struct vstore *s)
{
	UINT32 p = sizeof(struct vs_area_header);
	struct vs_record_header h;

	vs_index_reset(s);
	while (p + sizeof(h) <= s->area_size) {
		EFI_STATUS status = vs_read(s, s->active + p, &h, sizeof(h));
		if (EFI_ERROR(status))
			return status;
		if (vs_record_header_ok(s, &h, p)) {
			scan_record(s, p, &h);
			p += vstore_record_size(h.name_size, h.data_size);
			continue;
		}
		if (all_erased(&h, sizeof(h))) {
			/* Erased up to the end is the tail; erased bytes before something else
			 * (after damage) are skipped in one go, so scanning stays linear. */
			UINT32 next = vs_first_programmed(s, s->active + p, s->area_size - p);
			if (next == s->area_size - p)
				break;
			p += ALIGN_DOWN(next, (UINT32)VS_ALIGN);
			continue;
		}
		if (!all_erased(&h, VS_ALIGN))
			s->report.garbage++;
		p += VS_ALIGN;
	}
	s->tail = MIN(p, s->area_size);
	return EFI_SUCCESS;
}

/* No complete area: format area 0, quietly when the region is blank. */
static EFI_STATUS format_region(struct vstore *s, UINT32 flags)
{
	bool blank = vs_is_erased(s, 0, s->flash->size);
	EFI_STATUS status;

	if (!blank && (flags & VSTORE_NO_REFORMAT))
		return EFI_VOLUME_CORRUPTED;
	status = vs_format_area(s, 0, 1);
	if (EFI_ERROR(status))
		return status;
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
	return scan(s);
}

/* A region known to be erased: the first area's header and commit are all there is. */
static EFI_STATUS mount_erased(struct vstore *s)
{
	EFI_STATUS status = vs_area_write_header(s, 0, 1);

	if (!EFI_ERROR(status))
		status = vs_area_commit(s, 0);
	if (EFI_ERROR(status))
		return status;
	vs_index_reset(s);
	s->report = (struct vstore_report){.formatted = true};
	s->generation = 1;
	s->tail = sizeof(struct vs_area_header);
	return EFI_SUCCESS;
}

EFI_STATUS vstore_mount(struct vstore *s, struct flash_device *flash, void *mem, UINTN mem_size,
			UINT32 flags)
{
	if (!geometry_ok(flash))
		return EFI_INVALID_PARAMETER;
	if (mem_size < vstore_mem_size(flash->size) || (UINTN)mem % 8)
		return EFI_BUFFER_TOO_SMALL;
	*s = (struct vstore){.flash = flash, .mem = mem, .area_size = flash->size / 2};
	s->capacity = capacity_for(s->area_size);
	s->bucket_mask = buckets_for(s->capacity) - 1;
	return (flags & VSTORE_ERASED) ? mount_erased(s) : mount_areas(s, flags);
}

EFI_STATUS vs_remount(struct vstore *s)
{
	return mount_areas(s, VSTORE_NO_REFORMAT);
}
