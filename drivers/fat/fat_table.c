/* The file allocation table: a cache of FAT windows (read from the active FAT, written
 * back to every copy when mirrored), entry access for 12-, 16- and 32-bit FATs, chains,
 * allocation (next-fit from the FSInfo hint, so files stay contiguous) and freeing. */
#include "fat.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

UINT32 fat_eoc_mark(const struct fat_volume *vol)
{
	return vol->geo.type == FAT_12 ? 0xfff : vol->geo.type == FAT_16 ? 0xffff : 0x0fffffff;
}

static UINT32 eoc_min(const struct fat_volume *vol)
{
	return vol->geo.type == FAT_12 ? 0xff8 : vol->geo.type == FAT_16 ? 0xfff8 : 0x0ffffff8;
}

static UINTN window_len(const struct fat_volume *vol, UINT64 index)
{
	return (UINTN)MIN((UINT64)FAT_WINDOW_SIZE, vol->geo.fat_bytes - index * FAT_WINDOW_SIZE);
}

static EFI_STATUS window_write(struct fat_volume *vol, struct fat_window *w)
{
	const struct fat_geometry *g = &vol->geo;

	for (UINT32 copy = 0; copy < g->fat_count; copy++) {
		UINT64 offset = g->fat_offset + copy * g->fat_bytes + w->index * FAT_WINDOW_SIZE;
		EFI_STATUS status;

		if (!g->mirrored && copy != g->active_fat)
			continue;
		status = fat_disk_write(vol, offset, window_len(vol, w->index), w->data);
		if (EFI_ERROR(status))
			return status;
	}
	w->dirty = false;
	return EFI_SUCCESS;
}

static EFI_STATUS window_get(struct fat_volume *vol, UINT64 index, struct fat_window **out)
{
	struct fat_window *w = &vol->windows[index % FAT_WINDOWS];
	const struct fat_geometry *g = &vol->geo;
	EFI_STATUS status;

	if (w->valid && w->index == index) {
		*out = w;
		return EFI_SUCCESS;
	}
	if (w->valid && w->dirty) {
		status = window_write(vol, w);
		if (EFI_ERROR(status))
			return status;
	}
	w->valid = false;
	if (!w->data && !(w->data = pool_alloc(FAT_WINDOW_SIZE)))
		return EFI_OUT_OF_RESOURCES;
	status = fat_disk_read(
	    vol, g->fat_offset + g->active_fat * g->fat_bytes + index * FAT_WINDOW_SIZE,
	    window_len(vol, index), w->data);
	if (EFI_ERROR(status))
		return status;
	w->index = index;
	w->valid = true;
	w->dirty = false;
	*out = w;
	return EFI_SUCCESS;
}

/* The byte at offset within the FAT, through the cache. */
static EFI_STATUS fat_byte(struct fat_volume *vol, UINT64 offset, UINT8 **p, struct fat_window **w)
{
	EFI_STATUS status = window_get(vol, offset / FAT_WINDOW_SIZE, w);

	if (!EFI_ERROR(status))
		*p = (*w)->data + offset % FAT_WINDOW_SIZE;
	return status;
}

/* FAT12 entries are 12 bits at cluster * 1.5 bytes and may straddle two windows. */
static EFI_STATUS fat12_access(struct fat_volume *vol, UINT32 cluster, UINT32 *value, bool set)
{
	UINT64 offset = cluster + cluster / 2;
	struct fat_window *w0, *w1;
	UINT8 *lo, *hi;
	UINT16 v;
	EFI_STATUS status = fat_byte(vol, offset + 1, &hi, &w1);

	if (!EFI_ERROR(status))
		status = fat_byte(vol, offset, &lo, &w0);
	if (EFI_ERROR(status))
		return status;
	v = (UINT16)(*lo | *hi << 8);
	if (!set) {
		*value = cluster & 1 ? v >> 4 : v & 0xfff;
		return EFI_SUCCESS;
	}
	v = cluster & 1 ? (UINT16)((v & 0x000f) | (*value & 0xfff) << 4)
			: (UINT16)((v & 0xf000) | (*value & 0xfff));
	*lo = (UINT8)v;
	*hi = (UINT8)(v >> 8);
	w0->dirty = w1->dirty = true;
	return EFI_SUCCESS;
}

static EFI_STATUS fat_access(struct fat_volume *vol, UINT32 cluster, UINT32 *value, bool set)
{
	bool wide = vol->geo.type == FAT_32;
	UINT64 offset = (UINT64)cluster * (wide ? 4 : 2);
	struct fat_window *w;
	UINT8 *p;
	EFI_STATUS status;

	if (cluster > vol->geo.max_cluster)
		return EFI_VOLUME_CORRUPTED;
	vol->fat_lookups += !set;
	if (vol->geo.type == FAT_12)
		return fat12_access(vol, cluster, value, set);
	status = fat_byte(vol, offset, &p, &w);
	if (EFI_ERROR(status))
		return status;
	if (!set) {
		*value = wide ? fat_le32(p) & 0x0fffffff : fat_le16(p);
	} else {
		/* The top four bits of a FAT32 entry are reserved: keep them. */
		if (wide)
			fat_put32(p, (fat_le32(p) & 0xf0000000) | (*value & 0x0fffffff));
		else
			fat_put16(p, (UINT16)*value);
		w->dirty = true;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_get(struct fat_volume *vol, UINT32 cluster, UINT32 *value)
{
	return fat_access(vol, cluster, value, false);
}

EFI_STATUS fat_set(struct fat_volume *vol, UINT32 cluster, UINT32 value)
{
	return fat_access(vol, cluster, &value, true);
}

EFI_STATUS fat_next(struct fat_volume *vol, UINT32 cluster, UINT32 *next)
{
	UINT32 v;
	EFI_STATUS status;

	if (cluster < 2 || cluster > vol->geo.max_cluster)
		return EFI_VOLUME_CORRUPTED;
	status = fat_get(vol, cluster, &v);
	if (EFI_ERROR(status))
		return status;
	if (v >= eoc_min(vol)) {
		*next = FAT_EOC;
		return EFI_SUCCESS;
	}
	/* Free, reserved, bad or beyond the volume: the chain is broken. */
	if (v < 2 || v > vol->geo.max_cluster)
		return EFI_VOLUME_CORRUPTED;
	*next = v;
	return EFI_SUCCESS;
}

/* Takes cluster c (known free) as the new end of the chain ending at *last. */
static EFI_STATUS take_cluster(struct fat_volume *vol, UINT32 c, UINT32 *last, UINT32 *first)
{
	EFI_STATUS status = fat_set(vol, c, fat_eoc_mark(vol));

	if (!EFI_ERROR(status) && *last)
		status = fat_set(vol, *last, c);
	if (EFI_ERROR(status))
		return status;
	if (!*first)
		*first = c;
	*last = c;
	if (vol->free_known && vol->free_count)
		vol->free_count--;
	vol->fsinfo_dirty = true;
	return EFI_SUCCESS;
}

EFI_STATUS fat_alloc(struct fat_volume *vol, UINT32 prev, UINT32 count, UINT32 *first, UINT32 *got)
{
	UINT32 max = vol->geo.max_cluster, total = max - 1, last = prev, c = vol->next_free;
	EFI_STATUS status = EFI_SUCCESS;

	*first = 0;
	*got = 0;
	if (c < 2 || c > max)
		c = 2;
	for (UINT32 scanned = 0; *got < count && scanned < total; scanned++) {
		UINT32 v;

		status = fat_get(vol, c, &v);
		if (!EFI_ERROR(status) && v == 0) {
			status = take_cluster(vol, c, &last, first);
			if (!EFI_ERROR(status))
				(*got)++;
		}
		if (EFI_ERROR(status))
			break;
		c = c >= max ? 2 : c + 1;
	}
	vol->next_free = c;
	if (EFI_ERROR(status))
		return status;
	if (*got < count) {
		/* Every cluster has been looked at: none is left. */
		vol->free_known = true;
		vol->free_count = 0;
		vol->fsinfo_dirty = true;
		return EFI_VOLUME_FULL;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_free_chain(struct fat_volume *vol, UINT32 cluster)
{
	UINT32 max = vol->geo.max_cluster;

	for (UINT32 steps = 0; cluster >= 2 && cluster <= max && steps < max; steps++) {
		UINT32 v;
		EFI_STATUS status = fat_get(vol, cluster, &v);

		if (!EFI_ERROR(status) && v != 0)
			status = fat_set(vol, cluster, 0);
		if (EFI_ERROR(status))
			return status;
		if (v == 0)
			break; /* already free: a loop back or damage */
		if (vol->free_known && vol->free_count < max - 1)
			vol->free_count++;
		vol->fsinfo_dirty = true;
		if (v >= eoc_min(vol))
			break;
		cluster = v;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_table_flush(struct fat_volume *vol)
{
	for (UINT32 i = 0; i < FAT_WINDOWS; i++) {
		struct fat_window *w = &vol->windows[i];

		if (w->valid && w->dirty) {
			EFI_STATUS status = window_write(vol, w);
			if (EFI_ERROR(status))
				return status;
		}
	}
	return EFI_SUCCESS;
}

bool fat_table_dirty(const struct fat_volume *vol)
{
	for (UINT32 i = 0; i < FAT_WINDOWS; i++)
		if (vol->windows[i].valid && vol->windows[i].dirty)
			return true;
	return false;
}

EFI_STATUS fat_table_count_free(struct fat_volume *vol, UINT32 *count)
{
	UINT32 n = 0;

	for (UINT32 c = 2; c <= vol->geo.max_cluster; c++) {
		UINT32 v;
		EFI_STATUS status = fat_get(vol, c, &v);

		if (EFI_ERROR(status))
			return status;
		n += v == 0;
	}
	*count = n;
	return EFI_SUCCESS;
}
