/* FAT12/16/32 on-disk structures and the pure functions that read and write them: the
 * boot sector (BPB), 8.3 names, VFAT long-name entries and FAT dates. Nothing here does
 * I/O, so unit tests and the fuzzer call it directly. Sources: the FAT file system
 * specification (Microsoft, 2005 "FAT: General Overview of On-Disk Format") for the
 * layout, and what mkfs.fat, mtools, Linux and Windows write where it is silent. */
#ifndef EMBER_FAT_FORMAT_H
#define EMBER_FAT_FORMAT_H

#include <stdbool.h>
#include <efi/protocol/unicode_collation.h>
#include <efi/runtime_services.h>

#define FAT_DIRENT_SIZE 32
#define FAT_MAX_DIR_SLOTS 65536 /* a directory holds at most 2 MiB of entries */
#define FAT_NAME_MAX 255	/* UCS-2 units in a long name */
#define FAT_LFN_CHARS 13	/* name units in one long-name entry */
#define FAT_LFN_MAX 20		/* long-name entries for FAT_NAME_MAX units */

/* Attribute bits; the low six match EFI_FILE_* values. */
#define FAT_ATTR_READ_ONLY 0x01
#define FAT_ATTR_HIDDEN 0x02
#define FAT_ATTR_SYSTEM 0x04
#define FAT_ATTR_VOLUME_ID 0x08
#define FAT_ATTR_DIRECTORY 0x10
#define FAT_ATTR_ARCHIVE 0x20
#define FAT_ATTR_LFN 0x0f /* READ_ONLY|HIDDEN|SYSTEM|VOLUME_ID: a long-name entry */
#define FAT_ATTR_MASK 0x3f

#define FAT_ENTRY_FREE 0xe5	/* first name byte of a deleted entry */
#define FAT_ENTRY_KANJI_E5 0x05 /* first name byte standing for a real 0xe5 */
#define FAT_LFN_LAST 0x40	/* in a long-name entry's order byte */
/* NT case flags (byte 12): an 8.3 name shown in lower case, as Windows and mtools write. */
#define FAT_CASE_LOWER_BASE 0x08
#define FAT_CASE_LOWER_EXT 0x10

/* A short (8.3) directory entry (naturally aligned: no packing needed). */
struct fat_dirent {
	UINT8 name[11];
	UINT8 attr;
	UINT8 nt_case;
	UINT8 create_tenths; /* 10 ms units, 0-199 */
	UINT16 create_time;
	UINT16 create_date;
	UINT16 access_date;
	UINT16 cluster_high; /* FAT32 */
	UINT16 write_time;
	UINT16 write_date;
	UINT16 cluster_low;
	UINT32 size;
};
_Static_assert(sizeof(struct fat_dirent) == FAT_DIRENT_SIZE, "fat_dirent layout");
_Static_assert(offsetof(struct fat_dirent, create_time) == 14, "fat_dirent layout");
_Static_assert(offsetof(struct fat_dirent, cluster_high) == 20, "fat_dirent layout");
_Static_assert(offsetof(struct fat_dirent, size) == 28, "fat_dirent layout");

/* A VFAT long-name entry. */
struct fat_lfn {
	UINT8 order;
	UINT16 name1[5];
	UINT8 attr; /* FAT_ATTR_LFN */
	UINT8 type; /* 0 */
	UINT8 checksum;
	UINT16 name2[6];
	UINT16 cluster; /* 0 */
	UINT16 name3[2];
} __attribute__((packed));
_Static_assert(sizeof(struct fat_lfn) == FAT_DIRENT_SIZE, "fat_lfn layout");

enum fat_type { FAT_12 = 12, FAT_16 = 16, FAT_32 = 32 };

/* Where everything is, from a validated boot sector. Offsets are in bytes from the
 * start of the volume. */
struct fat_geometry {
	enum fat_type type;
	UINT32 sector_size;
	UINT32 cluster_size;
	UINT32 fat_count;
	UINT32 active_fat;  /* the FAT read (FAT32 with mirroring off: the one in use) */
	bool mirrored;	    /* writes go to every FAT */
	UINT64 fat_offset;  /* the first FAT */
	UINT64 fat_bytes;   /* of one FAT */
	UINT64 root_offset; /* FAT12/16: the fixed root directory */
	UINT32 root_entries;
	UINT32 root_cluster;	   /* FAT32 */
	UINT64 data_offset;	   /* cluster 2 */
	UINT32 cluster_count;	   /* data clusters as the BPB counts them: 2 .. cluster_count+1 */
	UINT32 max_cluster;	   /* the highest cluster that lies on the disk */
	UINT64 fsinfo_offset;	   /* FAT32 FSInfo sector; 0 when there is none */
	UINT64 backup_boot_offset; /* FAT32 backup boot sector; 0 when there is none */
	UINT32 state_offset;	   /* boot-sector byte holding the dirty flag; 0 when none */
	UINT32 label_offset;	   /* boot-sector volume label (11 bytes); 0 when none */
	UINT64 volume_bytes;
};

/* Boot-sector dirty flag (bit 0 of the byte after the drive number), as Linux and
 * fsck.fat use it. */
#define FAT_STATE_DIRTY 0x01
#define FAT_NO_NAME "NO NAME    "

/* Validates the first 512 bytes of a volume of disk_bytes bytes. EFI_UNSUPPORTED when it
 * is not a FAT boot sector; EFI_VOLUME_CORRUPTED when it claims to be one but its numbers
 * do not hold together. */
EFI_STATUS fat_bpb_parse(const UINT8 *boot, UINT64 disk_bytes, struct fat_geometry *geo);

/* FSInfo (FAT32): signatures and fields. */
#define FAT_FSINFO_LEAD 0x41615252
#define FAT_FSINFO_STRUCT 0x61417272
#define FAT_FSINFO_TRAIL 0xaa550000
#define FAT_FSINFO_FREE 488 /* byte offsets in the sector */
#define FAT_FSINFO_NEXT 492
#define FAT_FSINFO_UNKNOWN 0xffffffff

/* Reads free count and next-free hint from an FSInfo sector (512 bytes); false when the
 * signatures are wrong. */
bool fat_fsinfo_parse(const UINT8 *sector, UINT32 *free_count, UINT32 *next_free);

/* ---- Names ---- */

/* How a new name is stored: its 8.3 entry, and whether long-name entries come first. */
struct fat_name_plan {
	UINT8 short_name[11]; /* the basis, before any numeric tail */
	UINT8 nt_case;
	bool need_lfn;
	bool need_tail; /* the basis is lossy or truncated: it gets "~N" */
};

/* Plans the entries for a valid long name (see fat_name_valid). */
void fat_name_plan(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *name, size_t len,
		   struct fat_name_plan *plan);

/* The basis with numeric tail "~n" (n >= 1), the primary part cut to make room. */
void fat_name_tail(const UINT8 basis[11], UINT32 n, UINT8 out[11]);

/* A basis with four hex digits of hash in it and tail "~n": for when ~1..~4 are taken. */
void fat_name_hashed(const UINT8 basis[11], UINT16 hash, UINT32 n, UINT8 out[11]);

/* The length after dropping trailing dots and spaces (Windows and Linux ignore them). */
size_t fat_name_trim(const CHAR16 *name, size_t len);

/* True when a trimmed name may be created: see path_name_creatable. */
bool fat_name_valid(const CHAR16 *name, size_t len);

/* The name an 8.3 entry shows ("README.TXT", "readme.txt" with NT case flags):
 * returns its length; out holds at least 13 units. */
size_t fat_short_display(EFI_UNICODE_COLLATION_PROTOCOL *uc, const UINT8 name[11], UINT8 nt_case,
			 CHAR16 *out);

/* The checksum of an 8.3 name that each of its long-name entries carries. */
UINT8 fat_lfn_checksum(const UINT8 name[11]);

/* Long-name entries needed for len units. */
static inline UINT32 fat_lfn_count(size_t len)
{
	return (UINT32)((len + FAT_LFN_CHARS - 1) / FAT_LFN_CHARS);
}

/* Writes the fat_lfn_count(len) long-name entries for name, in disk order. */
void fat_lfn_pack(const CHAR16 *name, size_t len, UINT8 checksum, struct fat_lfn *entries);

/* Copies the 13 name units of one long-name entry to out. */
void fat_lfn_unpack(const struct fat_lfn *entry, CHAR16 *out);

/* ---- Times ---- */

/* EFI_TIME to FAT date, time and 10 ms units (clamped to 1980-2107). */
void fat_time_encode(const EFI_TIME *t, UINT16 *date, UINT16 *time, UINT8 *tenths);
/* FAT date and time to EFI_TIME; all zero when the date is not a valid one. */
void fat_time_decode(UINT16 date, UINT16 time, UINT8 tenths, EFI_TIME *t);

/* ---- Little-endian access to raw bytes ---- */

static inline UINT16 fat_le16(const UINT8 *p)
{
	return (UINT16)(p[0] | p[1] << 8);
}

static inline UINT32 fat_le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static inline void fat_put16(UINT8 *p, UINT16 v)
{
	p[0] = (UINT8)v;
	p[1] = (UINT8)(v >> 8);
}

static inline void fat_put32(UINT8 *p, UINT32 v)
{
	fat_put16(p, (UINT16)v);
	fat_put16(p + 2, (UINT16)(v >> 16));
}

static inline UINT32 fat_dirent_cluster(const struct fat_dirent *de)
{
	return (UINT32)de->cluster_high << 16 | de->cluster_low;
}

static inline void fat_dirent_set_cluster(struct fat_dirent *de, UINT32 cluster)
{
	de->cluster_high = (UINT16)(cluster >> 16);
	de->cluster_low = (UINT16)cluster;
}

#endif
