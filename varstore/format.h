/* The bytes of the variable store on flash (docs/varstore.md), and the store's internal
 * helpers shared by its files. All fields are little-endian. */
#ifndef VARSTORE_FORMAT_H
#define VARSTORE_FORMAT_H

#include <ember/core/varstore.h>
#include <ember/lib/util.h>

#define VS_AREA_MAGIC 0x53566d45u   /* "EmVS" */
#define VS_RECORD_MAGIC 0x52566d45u /* "EmVR" */
#define VS_VERSION 1
#define VS_ALIGN 8	     /* records start on 8-byte boundaries */
#define VS_ERASED 0xff	     /* state of a byte never programmed */
#define VS_COMMITTED 0x00    /* state once every other byte is on flash */
#define VS_SCRATCH_SIZE 1024 /* the store's copy buffer */

/* At the start of each area. The area counts only once state reads VS_COMMITTED. */
struct vs_area_header {
	UINT32 magic;
	UINT16 version;
	UINT16 header_size; /* sizeof(struct vs_area_header) */
	UINT32 area_size;
	UINT32 generation; /* the newer of two complete areas is the active one */
	UINT32 reserved;   /* 0 */
	UINT32 crc;	   /* CRC32 of the bytes above */
	UINT8 state;
	UINT8 pad[7]; /* 0xFF */
};
_Static_assert(sizeof(struct vs_area_header) == 32, "area header layout");

/* Each record: this header, the name (UCS-2 with its terminator), the data, then 0xFF up
 * to the next multiple of VS_ALIGN. data_size 0 records a deletion. */
struct vs_record_header {
	UINT32 magic;
	UINT32 attributes;
	UINT32 name_size; /* bytes, even, at least 4 */
	UINT32 data_size;
	EFI_GUID guid;
	UINT32 body_crc;   /* CRC32 of name and data */
	UINT32 header_crc; /* CRC32 of the bytes above */
	UINT8 state;	   /* programmed last */
	UINT8 pad[3];	   /* 0xFF */
};
_Static_assert(sizeof(struct vs_record_header) == 44, "record header layout");

#define VS_STATE_OFFSET 40 /* of state within the record header */

/* The data of a record whose attributes hold TIME_BASED_AUTHENTICATED_WRITE_ACCESS starts
 * with this head; the variable's value follows it. (Older stores have no such records:
 * the attribute was refused.) */
struct vs_auth_head {
	EFI_TIME timestamp; /* of the last authenticated write (8.2.6) */
	UINT8 signer[32];   /* private variables: SHA-256 of the signer's identity; else 0 */
};
_Static_assert(sizeof(struct vs_auth_head) == 48, "auth head layout");

/* ---- Internal helpers (varstore/store_*.c) ---- */

/* Index memory, laid out in s->mem (8-byte aligned): entries, buckets, scratch. */
static inline UINT32 vs_entries_bytes(UINT32 capacity)
{
	return ALIGN_UP(capacity * (UINT32)sizeof(struct vstore_entry), 8u);
}
struct vstore_entry *vs_entries(const struct vstore *s);
UINT16 *vs_buckets(const struct vstore *s);
UINT8 *vs_scratch(const struct vstore *s);

/* Hash of a name (name_size bytes) and GUID. */
UINT32 vs_hash(const CHAR16 *name, UINT32 name_size, const EFI_GUID *guid);
/* The hash in steps: start from VS_HASH_START, add the name's bytes, then the GUID. */
#define VS_HASH_START 0x811c9dc5u
UINT32 vs_hash_update(UINT32 h, const void *data, UINT32 size);
/* Empties the index. */
void vs_index_reset(struct vstore *s);
/* The entry for a key whose hash is known, or VSTORE_NONE. */
UINT32 vs_index_find(struct vstore *s, UINT32 hash, const CHAR16 *name, UINT32 name_size,
		     const EFI_GUID *guid);
/* The entry for the variable of the record at absolute offset at (header h), or
 * VSTORE_NONE (the names are compared on flash). */
UINT32 vs_index_find_record(struct vstore *s, UINT32 hash, UINT32 at,
			    const struct vs_record_header *h);
/* Makes the record at offset (header h) the variable's current one: adds, replaces or
 * (for a deletion) removes its entry and keeps live_bytes right. entry is the variable's
 * entry or VSTORE_NONE. False when the index is full. */
bool vs_index_apply(struct vstore *s, UINT32 entry, UINT32 hash, UINT32 offset,
		    const struct vs_record_header *h);

/* Reads bytes of the region (absolute flash offset). */
EFI_STATUS vs_read(struct vstore *s, UINT32 at, void *buffer, UINT32 size);
/* Programs bytes of the region (absolute flash offset). */
EFI_STATUS vs_program(struct vstore *s, UINT32 at, const void *data, UINT32 size);
/* The offset (from at) of the first byte of size bytes that is not 0xFF, or size (a read
 * error counts as programmed). */
UINT32 vs_first_programmed(struct vstore *s, UINT32 at, UINT32 size);
/* Whether size bytes at absolute offset at all read 0xFF. */
bool vs_is_erased(struct vstore *s, UINT32 at, UINT32 size);
/* Erases every block of the area at absolute offset base that is not already erased,
 * the block holding its header first. */
EFI_STATUS vs_erase_area(struct vstore *s, UINT32 base);
/* Writes the header of an erased area, not yet committed. */
EFI_STATUS vs_area_write_header(struct vstore *s, UINT32 base, UINT32 generation);
/* Starts the area at base with this generation: erases it and writes its header, not
 * yet committed. */
EFI_STATUS vs_area_begin(struct vstore *s, UINT32 base, UINT32 generation);
/* Makes the area at base complete (its last write). */
EFI_STATUS vs_area_commit(struct vstore *s, UINT32 base);
/* Formats the area at base with this generation: begin, then commit. */
EFI_STATUS vs_format_area(struct vstore *s, UINT32 base, UINT32 generation);
/* Copies size bytes of flash from absolute offset from to absolute offset to. */
EFI_STATUS vs_copy(struct vstore *s, UINT32 from, UINT32 to, UINT32 size);
/* A record about to be written: its sealed header, and where its body comes from. */
struct vs_pending {
	struct vs_record_header h;
	const CHAR16 *name;
	UINT32 old_at;	 /* absolute offset of the current data kept in front (append) */
	UINT32 old_size; /* bytes of it (0 when none) */
	const void *data;
	UINT32 size;  /* bytes of new data */
	UINT32 entry; /* the variable's entry, or VSTORE_NONE */
	UINT32 hash;
};
/* Programs a record at absolute offset at: header, name, data, then the state byte. */
EFI_STATUS vs_program_record(struct vstore *s, UINT32 at, const struct vs_pending *p);
/* Compaction, with a pending record taking its variable's place (p may be NULL). */
EFI_STATUS vs_compact(struct vstore *s, const struct vs_pending *p);
/* Replays the active area's log into the index and finds the tail (store_scan.c). */
EFI_STATUS vs_scan(struct vstore *s);
/* Mounts again from flash (after compaction or a write error). */
EFI_STATUS vs_remount(struct vstore *s);

/* Whether a record header read at offset of an area is well formed. */
bool vs_record_header_ok(const struct vstore *s, const struct vs_record_header *h, UINT32 offset);
/* Fills in a record header's CRCs and constant fields. */
void vs_record_header_seal(struct vs_record_header *h);
/* Whether a is newer than b (generations wrap). */
static inline bool vs_newer(UINT32 a, UINT32 b)
{
	return (INT32)(a - b) > 0;
}

#endif
