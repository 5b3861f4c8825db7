/* A directory's name index: for every entry, hashes of its long name and of its 8.3
 * name (both upper-cased by the collation protocol), chained in two hash tables. A
 * lookup reads only the entries whose hash matches, so opening a file in a directory of
 * thousands of entries costs a hash and a short read. */
#define LOG_PREFIX "fat: "
#include "fat.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define NONE 0xffffffffu
#define FIRST_CAP 64

UINT32 fat_name_hash(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *name, size_t len)
{
	CHAR16 upper[FAT_NAME_MAX + 1];
	UINT32 h = 2166136261u; /* FNV-1a */

	len = MIN(len, (size_t)FAT_NAME_MAX);
	mem_copy(upper, name, len * sizeof(CHAR16));
	upper[len] = 0;
	uc->StrUpr(uc, upper);
	for (size_t i = 0; i < len; i++) {
		h = (h ^ (upper[i] & 0xff)) * 16777619u;
		h = (h ^ (upper[i] >> 8)) * 16777619u;
	}
	return h;
}

static UINT32 short_hash(EFI_UNICODE_COLLATION_PROTOCOL *uc, const UINT8 short_name[11])
{
	CHAR16 shown[13];
	size_t n = fat_short_display(uc, short_name, 0, shown);

	return fat_name_hash(uc, shown, n);
}

static void link_entry(struct fat_dir *d, UINT32 i)
{
	struct fat_index_entry *x = &d->entries[i];
	UINT32 *lb = &d->long_buckets[x->long_hash & d->bucket_mask];
	UINT32 *sb = &d->short_buckets[x->short_hash & d->bucket_mask];

	x->next_long = *lb;
	*lb = i;
	x->next_short = *sb;
	*sb = i;
}

/* Re-creates the tables for cap entries, keeping only live ones (compacting). */
static EFI_STATUS rebuild(struct fat_dir *d, UINT32 cap)
{
	struct fat_index_entry *entries = pool_alloc(cap * sizeof(*entries));
	UINT32 *lb = pool_alloc(cap * sizeof(UINT32)), *sb = pool_alloc(cap * sizeof(UINT32));
	UINT32 n = 0;

	if (!entries || !lb || !sb) {
		pool_free(entries);
		pool_free(lb);
		pool_free(sb);
		return EFI_OUT_OF_RESOURCES;
	}
	for (UINT32 i = 0; i < d->count; i++)
		if (d->entries[i].live)
			entries[n++] = d->entries[i];
	pool_free(d->entries);
	pool_free(d->long_buckets);
	pool_free(d->short_buckets);
	d->entries = entries;
	d->long_buckets = lb;
	d->short_buckets = sb;
	d->cap = cap;
	d->bucket_mask = cap - 1; /* cap is a power of two */
	d->count = n;
	d->dead = 0;
	mem_set(lb, 0xff, cap * sizeof(UINT32));
	mem_set(sb, 0xff, cap * sizeof(UINT32));
	for (UINT32 i = 0; i < n; i++)
		link_entry(d, i);
	return EFI_SUCCESS;
}

/* Room for one more entry (dead ones are dropped when the table is rebuilt). */
static EFI_STATUS make_room(struct fat_dir *d)
{
	UINT32 live = d->count - d->dead;

	if (d->count < d->cap)
		return EFI_SUCCESS;
	return rebuild(d, live * 2 > d->cap ? MAX(d->cap * 2, (UINT32)FIRST_CAP)
					    : MAX(d->cap, (UINT32)FIRST_CAP));
}

EFI_STATUS fat_index_add(struct fat_node *dir, const struct fat_entry *e)
{
	struct fat_dir *d = dir->dir;
	EFI_UNICODE_COLLATION_PROTOCOL *uc = dir->vol->uc;
	struct fat_index_entry *x;
	EFI_STATUS status = make_room(d);

	if (EFI_ERROR(status))
		return status;
	x = &d->entries[d->count];
	/* Names are looked up without trailing dots and spaces (fat_name_trim), so they are
	 * indexed so: "A." on disk answers to "A", and clashes with an "A" beside it. */
	x->long_hash = fat_name_hash(uc, e->name, fat_name_trim(e->name, e->name_len));
	/* Without a long name, the name is the 8.3 one: same letters once upper-cased. */
	x->short_hash = e->lfn_count ? short_hash(uc, e->de.name) : x->long_hash;
	x->slot = e->slot;
	x->lfn_count = e->lfn_count;
	x->live = true;
	mem_copy(x->short_name, e->de.name, sizeof(x->short_name));
	link_entry(d, d->count++);
	return EFI_SUCCESS;
}

bool fat_index_take(struct fat_node *dir, UINT32 slot, struct fat_index_entry *saved)
{
	struct fat_dir *d = dir->dir;

	for (UINT32 i = 0; d && i < d->count; i++) {
		if (d->entries[i].live && d->entries[i].slot == slot) {
			*saved = d->entries[i];
			d->entries[i].live = false;
			d->dead++;
			return true;
		}
	}
	return false;
}

void fat_index_remove(struct fat_node *dir, UINT32 slot)
{
	struct fat_index_entry unused;

	fat_index_take(dir, slot, &unused);
}

EFI_STATUS fat_index_restore(struct fat_node *dir, const struct fat_index_entry *saved)
{
	struct fat_dir *d = dir->dir;
	EFI_STATUS status = make_room(d);

	if (EFI_ERROR(status))
		return status;
	d->entries[d->count] = *saved;
	link_entry(d, d->count++);
	return EFI_SUCCESS;
}

bool fat_index_short_taken(struct fat_node *dir, const UINT8 short_name[11])
{
	struct fat_dir *d = dir->dir;
	UINT32 h = short_hash(dir->vol->uc, short_name);

	if (!d->cap)
		return false;
	for (UINT32 i = d->short_buckets[h & d->bucket_mask]; i != NONE;
	     i = d->entries[i].next_short)
		if (d->entries[i].live && d->entries[i].short_hash == h &&
		    mem_cmp(d->entries[i].short_name, short_name, 11) == 0)
			return true;
	return false;
}

/* Compares a candidate's long name (read from disk) with the name looked for. */
static EFI_STATUS try_long(struct fat_node *dir, const struct fat_index_entry *x, CHAR16 *name,
			   struct fat_entry *e)
{
	EFI_UNICODE_COLLATION_PROTOCOL *uc = dir->vol->uc;
	EFI_STATUS status = fat_dir_entry_at(dir, x->slot, x->lfn_count, e);
	size_t len;
	CHAR16 cut;
	bool same;

	if (EFI_ERROR(status))
		return status;
	/* Compared without its trailing dots and spaces, as the name looked for is. */
	len = fat_name_trim(e->name, e->name_len);
	cut = e->name[len];
	e->name[len] = 0;
	same = uc->StriColl(uc, name, e->name) == 0;
	e->name[len] = cut;
	return same ? EFI_SUCCESS : EFI_NOT_FOUND;
}

/* Compares a candidate's 8.3 name (held in the index) with the name looked for. */
static EFI_STATUS try_short(struct fat_node *dir, const struct fat_index_entry *x, CHAR16 *name,
			    struct fat_entry *e)
{
	EFI_UNICODE_COLLATION_PROTOCOL *uc = dir->vol->uc;
	CHAR16 shown[13];

	fat_short_display(uc, x->short_name, 0, shown);
	if (uc->StriColl(uc, name, shown) != 0)
		return EFI_NOT_FOUND;
	return fat_dir_entry_at(dir, x->slot, x->lfn_count, e);
}

/* A lookup's progress: the entry found so far, and whether e still holds it. */
struct lookup {
	CHAR16 wanted[FAT_NAME_MAX + 1];
	UINT32 slot;
	UINT8 lfn_count;
	bool found, e_holds_it;
};

/* Records a candidate's result; a second entry of the same name is damage. */
static EFI_STATUS take(struct fat_node *dir, struct lookup *l, const struct fat_index_entry *x,
		       EFI_STATUS status)
{
	if (status != EFI_SUCCESS) {
		l->e_holds_it = false; /* a candidate read into e */
		return status == EFI_NOT_FOUND ? EFI_SUCCESS : status;
	}
	if (l->found && x->slot != l->slot) {
		log_debug("%ls: two entries named %ls\n", fat_node_shown(dir), l->wanted);
		return EFI_VOLUME_CORRUPTED;
	}
	l->found = l->e_holds_it = true;
	l->slot = x->slot;
	l->lfn_count = x->lfn_count;
	return EFI_SUCCESS;
}

EFI_STATUS fat_dir_lookup(struct fat_node *dir, const CHAR16 *name, size_t len, struct fat_entry *e)
{
	struct lookup lookup, *l = &lookup; /* not zeroed: it is used for every Open */
	EFI_STATUS status = fat_dir_load(dir);
	struct fat_dir *d = dir->dir;
	UINT32 h;

	if (EFI_ERROR(status))
		return status;
	if (len == 0 || len > FAT_NAME_MAX || !d->cap)
		return EFI_NOT_FOUND;
	mem_copy(l->wanted, name, len * sizeof(CHAR16));
	l->wanted[len] = 0;
	l->found = l->e_holds_it = false;
	l->slot = 0;
	l->lfn_count = 0;
	h = fat_name_hash(dir->vol->uc, l->wanted, len);
	/* Every candidate is tried, not only the first that matches: two entries of one name
	 * would make what a name opens a guess. */
	for (UINT32 i = d->long_buckets[h & d->bucket_mask]; i != NONE && !EFI_ERROR(status);
	     i = d->entries[i].next_long) {
		const struct fat_index_entry *x = &d->entries[i];

		if (x->live && x->long_hash == h && !(l->found && x->slot == l->slot))
			status = take(dir, l, x, try_long(dir, x, l->wanted, e));
	}
	for (UINT32 i = d->short_buckets[h & d->bucket_mask]; i != NONE && !EFI_ERROR(status);
	     i = d->entries[i].next_short) {
		const struct fat_index_entry *x = &d->entries[i];

		if (x->live && x->short_hash == h && !(l->found && x->slot == l->slot))
			status = take(dir, l, x, try_short(dir, x, l->wanted, e));
	}
	if (!EFI_ERROR(status) && !l->found)
		status = EFI_NOT_FOUND;
	else if (!EFI_ERROR(status) && !l->e_holds_it)
		status = fat_dir_entry_at(dir, l->slot, l->lfn_count, e);
	return status;
}
