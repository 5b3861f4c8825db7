/* The store's index in RAM: entries for the live variables, chained from hash buckets,
 * so finding a variable costs the same however many there are. Names and GUIDs stay on
 * flash; a lookup compares them there only when the hash matches. */
#include "format.h"
#include <ember/lib/str.h>

#define FNV_PRIME 0x01000193u
#define COMPARE_CHUNK 64

struct vstore_entry *vs_entries(const struct vstore *s)
{
	return (struct vstore_entry *)s->mem;
}

UINT16 *vs_buckets(const struct vstore *s)
{
	return (UINT16 *)(s->mem + vs_entries_bytes(s->capacity));
}

/* After the buckets, 8-byte aligned (the bucket count is a power of two, at least 16). */
UINT8 *vs_scratch(const struct vstore *s)
{
	return (UINT8 *)(vs_buckets(s) + s->bucket_mask + 1);
}

UINT32 vs_hash_update(UINT32 h, const void *data, UINT32 size)
{
	const UINT8 *p = data;

	for (UINT32 i = 0; i < size; i++)
		h = (h ^ p[i]) * FNV_PRIME;
	return h;
}

UINT32 vs_hash(const CHAR16 *name, UINT32 name_size, const EFI_GUID *guid)
{
	return vs_hash_update(vs_hash_update(VS_HASH_START, name, name_size), guid, sizeof(*guid));
}

void vs_index_reset(struct vstore *s)
{
	struct vstore_entry *e = vs_entries(s);
	UINT16 *buckets = vs_buckets(s);

	for (UINT32 i = 0; i < s->capacity; i++)
		e[i] = (struct vstore_entry){.next = i + 1 < s->capacity ? i + 1 : VSTORE_NONE};
	for (UINT32 i = 0; i <= s->bucket_mask; i++)
		buckets[i] = VSTORE_NONE;
	s->free_head = s->capacity ? 0 : VSTORE_NONE;
	s->live_bytes[0] = s->live_bytes[1] = 0;
}

/* Whether size bytes of flash at absolute offset at equal buffer. */
static bool flash_equal(struct vstore *s, UINT32 at, const void *buffer, UINT32 size)
{
	UINT8 chunk[COMPARE_CHUNK];
	const UINT8 *p = buffer;

	while (size) {
		UINT32 n = MIN(size, (UINT32)sizeof(chunk));
		if (EFI_ERROR(vs_read(s, at, chunk, n)) || mem_cmp(chunk, p, n))
			return false;
		at += n, p += n, size -= n;
	}
	return true;
}

static bool key_matches(struct vstore *s, const struct vstore_entry *e, const CHAR16 *name,
			const EFI_GUID *guid)
{
	struct vs_record_header h;
	UINT32 at = s->active + e->offset;

	return !EFI_ERROR(vs_read(s, at, &h, sizeof(h))) && guid_eq(&h.guid, guid) &&
	       flash_equal(s, at + sizeof(h), name, e->name_size);
}

UINT32 vs_index_find(struct vstore *s, UINT32 hash, const CHAR16 *name, UINT32 name_size,
		     const EFI_GUID *guid)
{
	struct vstore_entry *e = vs_entries(s);

	if (!s->capacity)
		return VSTORE_NONE;
	for (UINT32 i = vs_buckets(s)[hash & s->bucket_mask]; i != VSTORE_NONE; i = e[i].next)
		if (e[i].hash == hash && e[i].name_size == name_size &&
		    key_matches(s, &e[i], name, guid))
			return i;
	return VSTORE_NONE;
}

static void unlink_entry(struct vstore *s, UINT32 i)
{
	struct vstore_entry *e = vs_entries(s);
	UINT16 *link = &vs_buckets(s)[e[i].hash & s->bucket_mask];

	while (*link != i)
		link = &e[*link].next;
	*link = e[i].next;
	e[i] = (struct vstore_entry){.next = s->free_head};
	s->free_head = i;
}

static UINT32 new_entry(struct vstore *s, UINT32 hash)
{
	struct vstore_entry *e = vs_entries(s);
	UINT16 *bucket = &vs_buckets(s)[hash & s->bucket_mask];
	UINT32 i = s->free_head;

	if (i == VSTORE_NONE)
		return VSTORE_NONE;
	s->free_head = e[i].next;
	e[i].next = *bucket;
	*bucket = i;
	return i;
}

static UINT32 entry_class(UINT32 attributes)
{
	return (attributes & EFI_VARIABLE_HARDWARE_ERROR_RECORD) ? 1 : 0;
}

bool vs_index_apply(struct vstore *s, UINT32 entry, UINT32 hash, UINT32 offset,
		    const struct vs_record_header *h)
{
	struct vstore_entry *e = vs_entries(s);

	if (entry != VSTORE_NONE)
		s->live_bytes[entry_class(e[entry].attributes)] -=
		    vstore_record_size(e[entry].name_size, e[entry].data_size);
	if (h->data_size == 0) {
		if (entry != VSTORE_NONE)
			unlink_entry(s, entry);
		return true;
	}
	if (entry == VSTORE_NONE && (entry = new_entry(s, hash)) == VSTORE_NONE)
		return false;
	e[entry].offset = offset;
	e[entry].hash = hash;
	e[entry].data_size = h->data_size;
	e[entry].name_size = (UINT16)h->name_size;
	e[entry].attributes = (UINT8)h->attributes;
	s->live_bytes[entry_class(h->attributes)] += vstore_record_size(h->name_size, h->data_size);
	return true;
}

UINT32 vstore_find(struct vstore *s, const CHAR16 *name, UINT32 name_size, const EFI_GUID *guid)
{
	return vs_index_find(s, vs_hash(name, name_size, guid), name, name_size, guid);
}

const struct vstore_entry *vstore_entry(const struct vstore *s, UINT32 i)
{
	return &vs_entries(s)[i];
}

UINT32 vstore_next(const struct vstore *s, UINT32 from)
{
	const struct vstore_entry *e = vs_entries(s);

	for (UINT32 i = from; i < s->capacity; i++)
		if (e[i].offset)
			return i;
	return VSTORE_NONE;
}

EFI_STATUS vstore_read_guid(struct vstore *s, UINT32 entry, EFI_GUID *guid)
{
	return vs_read(
	    s, s->active + vs_entries(s)[entry].offset + offsetof(struct vs_record_header, guid),
	    guid, sizeof(*guid));
}

EFI_STATUS vstore_read_name(struct vstore *s, UINT32 entry, CHAR16 *name)
{
	const struct vstore_entry *e = &vs_entries(s)[entry];

	return vs_read(s, s->active + e->offset + sizeof(struct vs_record_header), name,
		       e->name_size);
}

EFI_STATUS vstore_read_data(struct vstore *s, UINT32 entry, UINT32 at, void *data, UINT32 size)
{
	const struct vstore_entry *e = &vs_entries(s)[entry];

	if (at > e->data_size || size > e->data_size - at)
		return EFI_INVALID_PARAMETER;
	return vs_read(s,
		       s->active + e->offset + sizeof(struct vs_record_header) + e->name_size + at,
		       data, size);
}

/* Whether size bytes at absolute offsets a and b of the flash are equal. */
static bool flash_equal_flash(struct vstore *s, UINT32 a, UINT32 b, UINT32 size)
{
	UINT8 x[COMPARE_CHUNK], y[COMPARE_CHUNK];

	while (size) {
		UINT32 n = MIN(size, (UINT32)sizeof(x));
		if (EFI_ERROR(vs_read(s, a, x, n)) || EFI_ERROR(vs_read(s, b, y, n)) ||
		    mem_cmp(x, y, n))
			return false;
		a += n, b += n, size -= n;
	}
	return true;
}

UINT32 vs_index_find_record(struct vstore *s, UINT32 hash, UINT32 at,
			    const struct vs_record_header *h)
{
	struct vstore_entry *e = vs_entries(s);
	struct vs_record_header other;

	if (!s->capacity)
		return VSTORE_NONE;
	for (UINT32 i = vs_buckets(s)[hash & s->bucket_mask]; i != VSTORE_NONE; i = e[i].next) {
		UINT32 other_at = s->active + e[i].offset;
		if (e[i].hash != hash || e[i].name_size != h->name_size ||
		    EFI_ERROR(vs_read(s, other_at, &other, sizeof(other))) ||
		    !guid_eq(&other.guid, &h->guid))
			continue;
		if (flash_equal_flash(s, other_at + sizeof(other), at + sizeof(other),
				      h->name_size))
			return i;
	}
	return VSTORE_NONE;
}
