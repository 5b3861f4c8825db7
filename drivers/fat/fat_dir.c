/* Reading directories: where a slot lies on disk, buffered slot reads, assembling VFAT
 * long names (order, checksum and sequence checked; a broken sequence falls back to the
 * 8.3 name), and the one-time scan that builds a directory's index and free-slot map.
 * A directory whose chain runs into a directory above it, or whose '.' or '..' names
 * another directory, is damage: following it would loop. */
#define LOG_PREFIX "fat: "
#include "fat.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define SLOTS_PER(vol) ((vol)->geo.cluster_size / FAT_DIRENT_SIZE)

static bool fixed_root(const struct fat_node *dir)
{
	return dir->is_root && dir->vol->geo.type != FAT_32;
}

/* The disk offset of slot and how many slots follow it contiguously. */
static EFI_STATUS slot_offset(struct fat_node *dir, UINT32 slot, UINT64 *offset, UINT32 *contig)
{
	struct fat_volume *vol = dir->vol;
	UINT32 per = SLOTS_PER(vol), index = slot / per;

	if (fixed_root(dir)) {
		if (slot >= vol->geo.root_entries)
			return EFI_NOT_FOUND;
		*offset = vol->geo.root_offset + (UINT64)slot * FAT_DIRENT_SIZE;
		*contig = vol->geo.root_entries - slot;
		return EFI_SUCCESS;
	}
	if (!dir->dir || index >= dir->dir->cluster_count)
		return EFI_NOT_FOUND;
	*offset = fat_cluster_offset(vol, dir->dir->clusters[index]) +
		  (UINT64)(slot % per) * FAT_DIRENT_SIZE;
	*contig = per - slot % per;
	return EFI_SUCCESS;
}

struct fat_reader *fat_reader_begin(struct fat_node *dir)
{
	struct fat_reader *r = &dir->vol->reader;

	if (r->dir != dir || r->serial != dir->serial || r->meta_gen != dir->vol->meta_gen) {
		r->dir = dir;
		r->serial = dir->serial;
		r->meta_gen = dir->vol->meta_gen;
		r->count = 0;
	}
	r->mark = NULL;
	return r;
}

EFI_STATUS fat_reader_get(struct fat_reader *r, UINT32 slot, const UINT8 **raw)
{
	UINT64 offset;
	UINT32 contig, n;
	EFI_STATUS status;

	if (slot >= r->first && slot - r->first < r->count) {
		*raw = r->buf + (slot - r->first) * FAT_DIRENT_SIZE;
		return EFI_SUCCESS;
	}
	r->count = 0;
	status = slot_offset(r->dir, slot, &offset, &contig);
	if (EFI_ERROR(status))
		return status;
	n = MIN(contig, r->buf_size / FAT_DIRENT_SIZE);
	status = fat_disk_read(r->dir->vol, offset, n * FAT_DIRENT_SIZE, r->buf);
	if (EFI_ERROR(status))
		return status;
	r->first = slot;
	r->count = n;
	*raw = r->buf;
	return EFI_SUCCESS;
}

/* A long name being assembled from its entries (last part first on disk). */
struct lfn_state {
	bool active;
	UINT8 total, current, checksum;
	CHAR16 units[FAT_LFN_MAX * FAT_LFN_CHARS];
};

static void lfn_feed(struct lfn_state *st, const struct fat_lfn *e)
{
	UINT8 order = e->order & 0x1f;

	if (e->order & FAT_LFN_LAST) {
		st->active = order >= 1 && order <= FAT_LFN_MAX;
		st->total = st->current = order;
		st->checksum = e->checksum;
	} else if (st->active && order + 1 == st->current && order >= 1 &&
		   e->checksum == st->checksum) {
		st->current = order;
	} else {
		st->active = false;
	}
	if (st->active)
		fat_lfn_unpack(e, st->units + (st->current - 1) * FAT_LFN_CHARS);
}

/* The long name's length when the sequence ended right and belongs to this 8.3 name. */
static size_t lfn_finish(const struct lfn_state *st, const struct fat_dirent *de)
{
	size_t n = 0, max = (size_t)st->total * FAT_LFN_CHARS;

	if (!st->active || st->current != 1 || st->checksum != fat_lfn_checksum(de->name))
		return 0;
	while (n < max && st->units[n])
		n++;
	return n <= FAT_NAME_MAX ? n : 0;
}

static void fill_entry(struct fat_volume *vol, const struct lfn_state *st, const UINT8 *raw,
		       UINT32 slot, struct fat_entry *e)
{
	size_t n;

	mem_copy(&e->de, raw, sizeof(e->de));
	e->slot = slot;
	n = lfn_finish(st, &e->de);
	if (n) {
		mem_copy(e->name, st->units, n * sizeof(CHAR16));
		e->name[n] = 0;
		e->lfn_count = st->total;
	} else {
		n = fat_short_display(vol->uc, e->de.name, e->de.nt_case, e->name);
		e->lfn_count = 0;
	}
	e->name_len = (UINT32)n;
}

static void mark_used(struct fat_reader *r, UINT32 slot)
{
	if (r->mark)
		r->mark[slot / 64] |= 1ULL << (slot % 64);
}

EFI_STATUS fat_dir_next(struct fat_reader *r, UINT32 *slot, struct fat_entry *e)
{
	struct lfn_state st;

	st.active = false;
	for (UINT32 s = *slot;; s++) {
		const UINT8 *raw;
		EFI_STATUS status = fat_reader_get(r, s, &raw);

		if (status == EFI_NOT_FOUND || (!EFI_ERROR(status) && raw[0] == 0)) {
			*slot = s;
			return EFI_NOT_FOUND;
		}
		if (EFI_ERROR(status))
			return status;
		if (raw[0] == FAT_ENTRY_FREE) {
			st.active = false;
			continue;
		}
		mark_used(r, s);
		if ((raw[11] & FAT_ATTR_MASK) == FAT_ATTR_LFN) {
			lfn_feed(&st, (const struct fat_lfn *)raw);
			continue;
		}
		if (raw[11] & FAT_ATTR_VOLUME_ID) {
			st.active = false; /* the volume label, not a file */
			continue;
		}
		fill_entry(r->dir->vol, &st, raw, s, e);
		*slot = s + 1;
		return EFI_SUCCESS;
	}
}

/* Decodes one entry from raw slots (long-name entries first, the 8.3 entry last). */
static EFI_STATUS decode_slots(struct fat_node *dir, const UINT8 *raw, UINT32 count, UINT32 slot,
			       struct fat_entry *e)
{
	struct lfn_state st;
	const UINT8 *last = raw + (count - 1) * FAT_DIRENT_SIZE;

	st.active = false;
	for (UINT32 i = 0; i + 1 < count; i++) {
		const UINT8 *p = raw + i * FAT_DIRENT_SIZE;

		if (p[0] == FAT_ENTRY_FREE || (p[11] & FAT_ATTR_MASK) != FAT_ATTR_LFN)
			st.active = false;
		else
			lfn_feed(&st, (const struct fat_lfn *)p);
	}
	if (last[0] == 0 || last[0] == FAT_ENTRY_FREE ||
	    (last[11] & FAT_ATTR_MASK) == FAT_ATTR_LFN || (last[11] & FAT_ATTR_VOLUME_ID)) {
		log_debug("%ls: slot %u is no longer an entry\n", fat_node_shown(dir), slot);
		return EFI_VOLUME_CORRUPTED; /* the index no longer matches the disk */
	}
	fill_entry(dir->vol, &st, last, slot, e);
	if (e->lfn_count == count - 1)
		return EFI_SUCCESS;
	log_debug("%ls: the long name of slot %u changed\n", fat_node_shown(dir), slot);
	return EFI_VOLUME_CORRUPTED;
}

EFI_STATUS fat_dir_entry_at(struct fat_node *dir, UINT32 slot, UINT8 lfn_count, struct fat_entry *e)
{
	UINT8 raw[(FAT_LFN_MAX + 1) * FAT_DIRENT_SIZE];
	UINT32 count = (UINT32)lfn_count + 1;
	EFI_STATUS status;

	if (lfn_count > FAT_LFN_MAX || slot < lfn_count) {
		log_debug("%ls: %u long-name entries before slot %u\n", fat_node_shown(dir),
			  lfn_count, slot);
		return EFI_VOLUME_CORRUPTED;
	}
	/* Just these slots: a lookup should not read a whole chunk of the directory. */
	status = fat_dir_read_slots(dir, slot - lfn_count, count, raw);
	if (EFI_ERROR(status))
		return status;
	return decode_slots(dir, raw, count, slot, e);
}

/* Slots [slot, slot+count) in pieces that are contiguous on disk. */
static EFI_STATUS slots_io(struct fat_node *dir, UINT32 slot, UINT32 count, UINT8 *buf, bool write)
{
	while (count) {
		UINT64 offset;
		UINT32 contig, n;
		EFI_STATUS status = slot_offset(dir, slot, &offset, &contig);

		if (status == EFI_NOT_FOUND)
			status = EFI_VOLUME_CORRUPTED;
		if (EFI_ERROR(status))
			return status;
		n = MIN(contig, count);
		status = write ? fat_disk_write(dir->vol, offset, n * FAT_DIRENT_SIZE, buf)
			       : fat_disk_read(dir->vol, offset, n * FAT_DIRENT_SIZE, buf);
		if (EFI_ERROR(status))
			return status;
		slot += n;
		count -= n;
		buf += n * FAT_DIRENT_SIZE;
	}
	return EFI_SUCCESS;
}

EFI_STATUS fat_dir_read_slots(struct fat_node *dir, UINT32 slot, UINT32 count, void *buf)
{
	return slots_io(dir, slot, count, buf, false);
}

EFI_STATUS fat_dir_write_slots(struct fat_node *dir, UINT32 slot, UINT32 count, const void *buf)
{
	/* The FAT first: whenever the medium goes, no entry on it names clusters that its
	 * FAT calls free (at worst, clusters are allocated that no entry names). */
	EFI_STATUS status = fat_table_flush(dir->vol);

	if (EFI_ERROR(status))
		return status;
	dir->vol->meta_gen++; /* buffered reads of directories are stale now */
	return slots_io(dir, slot, count, (UINT8 *)buf, true);
}

EFI_STATUS fat_dir_write_entry(struct fat_node *dir, UINT32 slot, const struct fat_dirent *de)
{
	return fat_dir_write_slots(dir, slot, 1, de);
}

static EFI_STATUS add_cluster(struct fat_dir *d, UINT32 c)
{
	if (d->cluster_count == d->cluster_cap) {
		UINT32 cap = MAX(d->cluster_cap * 2, 8u), *grown = pool_alloc(cap * sizeof(UINT32));

		if (!grown)
			return EFI_OUT_OF_RESOURCES;
		mem_copy(grown, d->clusters, d->cluster_count * sizeof(UINT32));
		pool_free(d->clusters);
		d->clusters = grown;
		d->cluster_cap = cap;
	}
	d->clusters[d->cluster_count++] = c;
	return EFI_SUCCESS;
}

/* The directory's cluster chain, up to the most a directory may hold. A chain that
 * comes back on itself is damage, not a long directory. */
static EFI_STATUS load_chain(struct fat_node *dir, struct fat_dir *d)
{
	struct fat_volume *vol = dir->vol;
	UINT32 max = MAX(FAT_MAX_DIR_SLOTS / SLOTS_PER(vol), 1u), c = fat_node_first_cluster(dir);
	struct fat_loop_guard guard;
	EFI_STATUS status;

	if (c < 2 || c > vol->geo.max_cluster) {
		log_debug("%ls: first cluster %u is outside the volume\n", fat_node_shown(dir), c);
		return EFI_VOLUME_CORRUPTED;
	}
	fat_loop_init(&guard, c);
	while (c != FAT_EOC && d->cluster_count < max) {
		if (fat_node_in_ancestry(dir->parent, c)) {
			log_debug("%ls: its chain runs into a directory above it\n",
				  fat_node_shown(dir));
			return EFI_VOLUME_CORRUPTED;
		}
		status = add_cluster(d, c);
		if (!EFI_ERROR(status))
			status = fat_next(vol, c, &c);
		if (EFI_ERROR(status)) {
			log_debug("%ls: chain: %r\n", fat_node_shown(dir), status);
			return status;
		}
		if (c != FAT_EOC && fat_loop_seen(&guard, c)) {
			log_debug("%ls: its chain comes back on itself\n", fat_node_shown(dir));
			return EFI_VOLUME_CORRUPTED;
		}
	}
	d->slots = d->cluster_count * SLOTS_PER(vol);
	return EFI_SUCCESS;
}

static bool is_dot_entry(const struct fat_entry *e)
{
	return (e->de.attr & FAT_ATTR_DIRECTORY) && e->name[0] == u'.' &&
	       (e->name_len == 1 || (e->name_len == 2 && e->name[1] == u'.'));
}

/* '.' names the directory itself, '..' its parent: 0 for the root, or (as some writers
 * put it) the FAT32 root's cluster. The root has neither. */
static EFI_STATUS check_dot(struct fat_node *dir, const struct fat_entry *e)
{
	const struct fat_node *parent = dir->parent;
	UINT32 c = fat_dirent_cluster(&e->de), want;

	if (dir->is_root)
		return EFI_SUCCESS;
	if (e->name_len == 1)
		want = fat_node_first_cluster(dir);
	else if (parent->is_root)
		want = c == fat_node_first_cluster(parent) ? c : 0;
	else
		want = fat_node_first_cluster(parent);
	if (c == want)
		return EFI_SUCCESS;
	log_debug("%ls: its '%ls' names cluster %u, not %u\n", fat_node_shown(dir), e->name, c,
		  want);
	return EFI_VOLUME_CORRUPTED;
}

/* Whether anything but zeros follows the end marker (those slots get reused). */
static EFI_STATUS check_tail(struct fat_reader *r, struct fat_dir *d)
{
	for (UINT32 s = d->end; s < d->slots; s++) {
		const UINT8 *raw;
		EFI_STATUS status = fat_reader_get(r, s, &raw);

		if (EFI_ERROR(status))
			return status;
		if (raw[0] != 0) {
			d->dirty_tail = true;
			break;
		}
	}
	return EFI_SUCCESS;
}

/* One pass over the directory: index every entry, mark every slot in use. */
static EFI_STATUS scan(struct fat_node *dir, struct fat_dir *d)
{
	struct fat_reader *r = fat_reader_begin(dir);
	struct fat_entry *e = pool_alloc(sizeof(*e));
	UINT32 slot = 0;
	EFI_STATUS status = e ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;

	r->mark = d->used;
	while (!EFI_ERROR(status)) {
		status = fat_dir_next(r, &slot, e);
		if (!EFI_ERROR(status))
			status = is_dot_entry(e) ? check_dot(dir, e) : fat_index_add(dir, e);
	}
	r->mark = NULL;
	pool_free(e);
	if (status != EFI_NOT_FOUND)
		return status;
	d->end = slot;
	d->free_hint = 0;
	return check_tail(r, d);
}

EFI_STATUS fat_dir_load(struct fat_node *dir)
{
	struct fat_dir *d;
	EFI_STATUS status = EFI_SUCCESS;

	if (dir->dir)
		return EFI_SUCCESS;
	if (dir->vol->gone)
		return dir->vol->gone;
	d = pool_alloc(sizeof(*d));
	if (!d)
		return EFI_OUT_OF_RESOURCES;
	if (fixed_root(dir))
		d->slots = dir->vol->geo.root_entries;
	else
		status = load_chain(dir, d);
	if (!EFI_ERROR(status)) {
		d->used = pool_alloc((d->slots / 64 + 1) * sizeof(UINT64));
		status = d->used ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
	}
	if (!EFI_ERROR(status)) {
		dir->dir = d;
		status = scan(dir, d);
	}
	if (EFI_ERROR(status)) {
		log_debug("%ls: not read: %r\n", fat_node_shown(dir), status);
		dir->dir = NULL;
		fat_dir_free(d);
	}
	return status;
}

EFI_STATUS fat_dir_is_empty(struct fat_node *dir, bool *empty)
{
	EFI_STATUS status = fat_dir_load(dir);

	if (!EFI_ERROR(status))
		*empty = dir->dir->count == dir->dir->dead;
	return status;
}

#define SORT_FROM 8 /* clusters in a chain from which a sorted copy pays */

/* The sorted copy of the chain (a shell sort: chains hold at most a few thousand). */
static bool sort_clusters(struct fat_dir *d)
{
	UINT32 n = d->cluster_count, *a = pool_dup(d->clusters, n * sizeof(UINT32));

	if (!a)
		return false;
	for (UINT32 gap = n / 2; gap > 0; gap /= 2) {
		for (UINT32 i = gap; i < n; i++) {
			UINT32 v = a[i], j = i;

			for (; j >= gap && a[j - gap] > v; j -= gap)
				a[j] = a[j - gap];
			a[j] = v;
		}
	}
	d->sorted = a;
	return true;
}

bool fat_dir_holds(struct fat_dir *d, UINT32 cluster)
{
	UINT32 lo = 0, hi = d->cluster_count;

	/* Every file's Open asks this of each directory above it. */
	if (d->cluster_count < SORT_FROM || (!d->sorted && !sort_clusters(d))) {
		for (UINT32 i = 0; i < d->cluster_count; i++)
			if (d->clusters[i] == cluster)
				return true;
		return false;
	}
	while (lo < hi) {
		UINT32 mid = lo + (hi - lo) / 2;

		if (d->sorted[mid] == cluster)
			return true;
		if (d->sorted[mid] < cluster)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

void fat_dir_free(struct fat_dir *d)
{
	if (!d)
		return;
	pool_free(d->clusters);
	pool_free(d->sorted);
	pool_free(d->used);
	pool_free(d->entries);
	pool_free(d->long_buckets);
	pool_free(d->short_buckets);
	pool_free(d);
}
