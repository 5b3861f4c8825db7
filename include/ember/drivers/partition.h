/* Partition tables: GPT (UEFI 2.10, section 5.3), legacy MBR with extended partitions
 * (5.2) and El Torito boot catalogues on ISO 9660 media (13.3.2). Pure logic: the
 * parsers read the disk only through a callback, allocate nothing, and check every
 * number taken from the disk, so any bytes at all may be behind the callback. They
 * fill a part_table with one entry per partition, including the device path node
 * (HD() or CDROM()) and the EFI_PARTITION_INFO_PROTOCOL contents of its child. */
#ifndef EMBER_PARTITION_H
#define EMBER_PARTITION_H

#include <stdbool.h>
#include <efi/gpt.h>
#include <efi/status.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/partition_info.h>

/* Partitions kept per disk; more are ignored (and said so in table->problem). */
#define PART_MAX 256
/* The largest GPT entry array accepted (bytes), and the largest entry. */
#define PART_GPT_MAX_ARRAY (4u << 20)
#define PART_GPT_MAX_ENTRY_SIZE 4096u
/* Where the primary GPT header lives (UEFI 2.10, 5.3.2). */
#define PART_GPT_PRIMARY_LBA 1
/* The sector size of CD media: El Torito is only looked for on disks with these blocks. */
#define PART_CD_BLOCK_SIZE 2048

/* A disk as the parsers see it: the geometry and a byte-granular read (DiskIo-like). */
struct part_disk {
	UINT32 block_size; /* a power of two, 512 to 65536 */
	UINT64 last_block; /* the index of the last block */
	/* Reads size bytes at a byte offset; any error means the bytes are unavailable. */
	EFI_STATUS (*read)(void *ctx, UINT64 offset, UINTN size, void *buffer);
	/* Writes size bytes at a byte offset; only part_gpt_repair() writes (NULL: never). */
	EFI_STATUS (*write)(void *ctx, UINT64 offset, UINTN size, const void *buffer);
	void *ctx;
};

enum part_scheme { PART_SCHEME_NONE, PART_SCHEME_GPT, PART_SCHEME_MBR, PART_SCHEME_ELTORITO };

/* One partition, in the disk's own blocks. */
struct part_entry {
	UINT64 start;  /* first block */
	UINT64 blocks; /* number of blocks, at least 1 */
	bool system;   /* an EFI system partition (gets the ESP GUID tag) */
	union {
		EFI_DEVICE_PATH_PROTOCOL header;
		HARDDRIVE_DEVICE_PATH hd; /* GPT and MBR */
		CDROM_DEVICE_PATH cd;	  /* El Torito */
	} node;
	EFI_PARTITION_INFO_PROTOCOL info;
};

struct part_table {
	enum part_scheme scheme; /* the table found, or NONE */
	UINTN count;
	struct part_entry entries[PART_MAX];
	/* Why a table (or part of one) was refused, for the debug log; NULL when all is well.
	 * problem covers the scheme as a whole; for GPT, primary_problem/backup_problem say
	 * what is wrong with each header and its entry array. */
	const char *problem;
	const char *primary_problem, *backup_problem;
	UINTN skipped; /* entries left out as invalid (outside the disk, overlapping ...) */
	/* GPT: which headers were valid, and the header the entries came from. */
	bool primary_valid, backup_valid;
	EFI_PARTITION_TABLE_HEADER header;
	/* Working space for the parsers. */
	UINT8 scratch[4096];
};

/* Each parser returns EFI_SUCCESS when it found its kind of table (even with no partitions
 * in it), EFI_NOT_FOUND when the disk holds no such table or it is damaged beyond use, or
 * the read callback's error. table is reset first. */
EFI_STATUS part_parse_gpt(const struct part_disk *disk, struct part_table *table);
EFI_STATUS part_parse_mbr(const struct part_disk *disk, struct part_table *table);
EFI_STATUS part_parse_eltorito(const struct part_disk *disk, struct part_table *table);

/* Tries GPT, then El Torito, then MBR, as firmware does; the first table found wins.
 * EFI_NOT_FOUND (scheme NONE) when there is none: the disk is one volume, or damaged. A
 * damaged GPT is not passed over for its protective MBR. */
EFI_STATUS part_parse(const struct part_disk *disk, struct part_table *table);

/* The geometry rules of 5.3.2 for header h on this disk (h->MyLBA says which copy it is:
 * 1 the primary, else the backup): entry size and count, the usable area inside the disk,
 * the alternate header and the entry array where that copy's must be, nothing overlapping.
 * NULL when all hold, else the rule that fails. A header that fails is never used. */
const char *part_gpt_check_geometry(const struct part_disk *disk,
				    const EFI_PARTITION_TABLE_HEADER *h);
/* The blocks of h's entry array (h passed part_gpt_check_geometry, or the count is
 * meaningless). */
UINT64 part_gpt_array_blocks(const struct part_disk *disk, const EFI_PARTITION_TABLE_HEADER *h);

/* After part_parse_gpt() found one valid GPT and one damaged, rewrites the damaged copy
 * from the valid one (5.3.2: the backup restores the primary, the primary the backup): its
 * entry array, then its header. Nothing is written unless the valid header passes
 * part_gpt_check_geometry, the rewritten copy would pass it too with the backup on the
 * disk's last block, and the copy overlaps nothing it is copied from. EFI_SUCCESS when
 * there was nothing to do or it is done; EFI_UNSUPPORTED when it may not be done;
 * EFI_CRC_ERROR when the array read back differs from the one checked (the damaged copy's
 * header is then not written); else the write's error. *what (may be NULL) says which
 * copy was rewritten. */
EFI_STATUS part_gpt_repair(const struct part_disk *disk, struct part_table *table,
			   const char **what);

/* Resets a table to empty (scheme NONE, no problems). */
void part_table_reset(struct part_table *table);

/* Helpers shared by the parsers (partition_util.c). */
/* Adds an entry unless the table is full; false when full. */
bool part_table_add(struct part_table *table, const struct part_entry *entry);
/* True when [start, start+blocks) overlaps any entry already in the table. */
bool part_table_overlaps(const struct part_table *table, UINT64 start, UINT64 blocks);
/* Sets a device path node's header. */
void part_node_header(EFI_DEVICE_PATH_PROTOCOL *node, UINT8 subtype, UINT16 length);

#endif
