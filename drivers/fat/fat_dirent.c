/* Changing directories: finding room for entries (reusing deleted slots, else appending,
 * else growing the directory by zeroed clusters), choosing a unique 8.3 alias, writing
 * long-name and 8.3 entries, and removing them. */
#include "fat.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define SEQUENTIAL_TAILS 4 /* "~1".."~4", then hashed aliases, as Windows does */
#define HASHED_TRIES 64

static bool slot_used(const struct fat_dir *d, UINT32 slot)
{
	return d->used[slot / 64] >> (slot % 64) & 1;
}

void fat_dir_mark(struct fat_node *dir, UINT32 slot, UINT32 count, bool used)
{
	struct fat_dir *d = dir->dir;

	for (UINT32 s = slot; s < slot + count && s < d->slots; s++) {
		if (used)
			d->used[s / 64] |= 1ULL << (s % 64);
		else
			d->used[s / 64] &= ~(1ULL << (s % 64));
	}
	if (used && slot + count > d->end)
		d->end = slot + count;
	if (!used && slot < d->free_hint)
		d->free_hint = slot;
}

/* A run of count free slots below the end marker (slots of deleted entries). */
static bool find_free_run(struct fat_dir *d, UINT32 count, UINT32 *slot)
{
	UINT32 run = 0, first_free = d->end;

	for (UINT32 s = d->free_hint; s < d->end; s++) {
		if (slot_used(d, s)) {
			run = 0;
			continue;
		}
		first_free = MIN(first_free, s);
		if (++run == count) {
			*slot = s + 1 - count;
			d->free_hint = first_free;
			return true;
		}
	}
	d->free_hint = first_free;
	return false;
}

/* Takes count new clusters (a chain from first) into the directory's state, with the
 * larger arrays allocated beforehand. */
static void adopt_clusters(struct fat_node *dir, UINT32 first, UINT32 count, UINT32 *clusters,
			   UINT64 *used, UINT32 new_slots)
{
	struct fat_dir *d = dir->dir;

	mem_copy(used, d->used, (d->slots / 64 + 1) * sizeof(UINT64));
	mem_copy(clusters, d->clusters, d->cluster_count * sizeof(UINT32));
	for (UINT32 i = 0, c = first; i < count; i++) {
		clusters[d->cluster_count + i] = c;
		if (i + 1 < count && EFI_ERROR(fat_next(dir->vol, c, &c)))
			break;
	}
	pool_free(d->used);
	pool_free(d->clusters);
	pool_free(d->sorted);
	d->sorted = NULL; /* made again when asked for */
	d->used = used;
	d->clusters = clusters;
	d->cluster_count += count;
	d->cluster_cap = d->cluster_count;
	d->slots = new_slots;
	dir->vol->meta_gen++;
}

/* Grows the directory's chain by enough zeroed clusters for `slots` more slots. */
static EFI_STATUS grow(struct fat_node *dir, UINT32 slots)
{
	struct fat_volume *vol = dir->vol;
	struct fat_dir *d = dir->dir;
	UINT32 per = vol->geo.cluster_size / FAT_DIRENT_SIZE, count = (slots + per - 1) / per;
	UINT32 last, first, got = 0, *clusters, new_slots = d->slots + count * per;
	UINT64 *used;
	EFI_STATUS status;

	if (!d->cluster_count || new_slots > FAT_MAX_DIR_SLOTS)
		return EFI_VOLUME_FULL; /* the FAT12/16 root has a fixed size, others a limit */
	last = d->clusters[d->cluster_count - 1];
	clusters = pool_alloc((d->cluster_count + count) * sizeof(UINT32));
	used = pool_alloc((new_slots / 64 + 1) * sizeof(UINT64));
	status =
	    clusters && used ? fat_alloc(vol, last, count, &first, &got) : EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(status))
		status = fat_zero_clusters(vol, first, count);
	if (EFI_ERROR(status)) {
		/* Give back what was taken: the directory ends where it ended. */
		if (got) {
			fat_free_chain(vol, first);
			fat_set(vol, last, fat_eoc_mark(vol));
		}
		pool_free(clusters);
		pool_free(used);
		return status;
	}
	adopt_clusters(dir, first, count, clusters, used, new_slots);
	return EFI_SUCCESS;
}

/* Whether a slot holds a long-name entry that is not deleted. */
static bool live_lfn(const UINT8 *raw)
{
	return raw[0] != 0 && raw[0] != FAT_ENTRY_FREE && (raw[11] & FAT_ATTR_MASK) == FAT_ATTR_LFN;
}

/* Long-name entries right before a free slot belong to no 8.3 entry (theirs would be in
 * that slot): an entry written there would be read as theirs, with a wrong checksum.
 * They are deleted first, as fsck.fat deletes them. */
static EFI_STATUS release_orphans(struct fat_node *dir, UINT32 slot)
{
	UINT8 raw[FAT_DIRENT_SIZE];
	EFI_STATUS status = EFI_SUCCESS;

	while (slot > 0 && !EFI_ERROR(status)) {
		status = fat_dir_read_slots(dir, --slot, 1, raw);
		if (EFI_ERROR(status) || !live_lfn(raw))
			break;
		raw[0] = FAT_ENTRY_FREE;
		status = fat_dir_write_slots(dir, slot, 1, raw);
		if (!EFI_ERROR(status))
			fat_dir_mark(dir, slot, 1, false);
	}
	return status;
}

/* Writes a zero entry after new entries when the old end marker was followed by junk. */
static EFI_STATUS terminate(struct fat_node *dir, UINT32 after)
{
	static const struct fat_dirent zero;

	if (!dir->dir->dirty_tail || after >= dir->dir->slots || after < dir->dir->end)
		return EFI_SUCCESS;
	return fat_dir_write_entry(dir, after, &zero);
}

EFI_STATUS fat_dir_alloc_slots(struct fat_node *dir, UINT32 count, UINT32 *slot)
{
	struct fat_dir *d;
	EFI_STATUS status = fat_dir_load(dir);

	if (EFI_ERROR(status))
		return status;
	d = dir->dir;
	if (!find_free_run(d, count, slot)) {
		if (d->end + count > d->slots)
			status = grow(dir, d->end + count - d->slots);
		*slot = d->end;
	}
	if (!EFI_ERROR(status))
		status = release_orphans(dir, *slot);
	if (!EFI_ERROR(status))
		status = terminate(dir, *slot + count);
	return status;
}

/* A unique 8.3 name for a new entry, from the plan's basis. */
static EFI_STATUS choose_alias(struct fat_node *dir, const CHAR16 *name, size_t len,
			       const struct fat_name_plan *plan, UINT8 out[11])
{
	UINT16 hash = (UINT16)fat_name_hash(dir->vol->uc, name, len);

	mem_copy(out, plan->short_name, 11);
	if (!plan->need_tail && !fat_index_short_taken(dir, out))
		return EFI_SUCCESS;
	for (UINT32 n = 1; n <= SEQUENTIAL_TAILS; n++) {
		fat_name_tail(plan->short_name, n, out);
		if (!fat_index_short_taken(dir, out))
			return EFI_SUCCESS;
	}
	for (UINT32 i = 0; i < HASHED_TRIES; i++) {
		fat_name_hashed(plan->short_name, (UINT16)(hash + i * 0x9e37u), 1 + i % 9, out);
		if (!fat_index_short_taken(dir, out))
			return EFI_SUCCESS;
	}
	for (UINT32 n = SEQUENTIAL_TAILS + 1; n <= 999999; n++) {
		fat_name_tail(plan->short_name, n, out);
		if (!fat_index_short_taken(dir, out))
			return EFI_SUCCESS;
	}
	return EFI_VOLUME_FULL;
}

EFI_STATUS fat_dir_add(struct fat_node *dir, const CHAR16 *name, size_t len,
		       const struct fat_dirent *de, struct fat_entry *e)
{
	struct fat_lfn slots[FAT_LFN_MAX + 1];
	struct fat_name_plan plan;
	UINT32 lfn = 0, first;
	EFI_STATUS status = fat_dir_load(dir);

	if (EFI_ERROR(status))
		return status;
	fat_name_plan(dir->vol->uc, name, len, &plan);
	e->de = *de;
	status = choose_alias(dir, name, len, &plan, e->de.name);
	if (!EFI_ERROR(status) && plan.need_lfn)
		lfn = fat_lfn_count(len);
	if (!EFI_ERROR(status))
		status = fat_dir_alloc_slots(dir, lfn + 1, &first);
	if (EFI_ERROR(status))
		return status;
	e->de.nt_case = plan.need_lfn ? 0 : plan.nt_case;
	fat_lfn_pack(name, len, fat_lfn_checksum(e->de.name), slots);
	mem_copy(&slots[lfn], &e->de, sizeof(e->de));
	status = fat_dir_write_slots(dir, first, lfn + 1, slots);
	if (EFI_ERROR(status))
		return status;
	fat_dir_mark(dir, first, lfn + 1, true);
	e->slot = first + lfn;
	e->lfn_count = (UINT8)lfn;
	mem_copy(e->name, name, len * sizeof(CHAR16));
	e->name[len] = 0;
	e->name_len = (UINT32)len;
	return fat_index_add(dir, e);
}

EFI_STATUS fat_dir_remove(struct fat_node *dir, UINT32 slot, UINT8 lfn_count)
{
	UINT8 raw[(FAT_LFN_MAX + 1) * FAT_DIRENT_SIZE];
	UINT32 count = (UINT32)lfn_count + 1, first = slot - lfn_count;
	EFI_STATUS status = fat_dir_load(dir);

	if (!EFI_ERROR(status) && (lfn_count > FAT_LFN_MAX || slot < lfn_count))
		status = EFI_VOLUME_CORRUPTED;
	if (!EFI_ERROR(status))
		status = fat_dir_read_slots(dir, first, count, raw);
	if (EFI_ERROR(status))
		return status;
	for (UINT32 i = 0; i < count; i++)
		raw[i * FAT_DIRENT_SIZE] = FAT_ENTRY_FREE;
	status = fat_dir_write_slots(dir, first, count, raw);
	if (EFI_ERROR(status))
		return status;
	fat_dir_mark(dir, first, count, false);
	fat_index_remove(dir, slot);
	return EFI_SUCCESS;
}
