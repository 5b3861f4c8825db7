/* Disk images in memory for the partition tests and fuzz seeds: a raw byte array with a
 * part_disk reader, and writers for a GPT (protective MBR, primary and backup headers and
 * entry arrays, CRCs computed here), MBR and EBR records, and an ISO 9660 volume with an
 * El Torito boot catalogue, each laid out from the specifications' byte offsets. */
#ifndef EMBER_TEST_DISK_BUILDER_H
#define EMBER_TEST_DISK_BUILDER_H

#include <ember/drivers/partition.h>

struct mem_disk {
	UINT8 *data;
	UINT64 size;
	UINT32 block_size;
	UINTN reads, writes; /* callbacks served */
	bool read_only;	     /* writes fail with EFI_WRITE_PROTECTED */
	UINTN fail_read;     /* read number fail_read (1: the first) fails; 0: none */
};

/* A zeroed disk of blocks blocks; free with mem_disk_free. */
void mem_disk_init(struct mem_disk *d, UINT64 blocks, UINT32 block_size);
void mem_disk_free(struct mem_disk *d);
/* The parsers' view of the disk (reads and writes). */
struct part_disk mem_disk_view(struct mem_disk *d);
UINT8 *mem_disk_block(struct mem_disk *d, UINT64 lba);

/* ---- GPT ---- */
struct gpt_part {
	EFI_GUID type;
	EFI_LBA first, last;
	UINT64 attributes;
	UINT32 slot; /* entry index in the array (0-based) */
};
#define GPT_TEST_DISK_GUID                                                                         \
	EFI_GUID_INIT(0x11223344, 0x5566, 0x7788, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00)
/* The unique GUID given to the partition in slot i (Data1 = 0x1000 + i). */
EFI_GUID gpt_test_unique_guid(UINT32 slot);
/* Writes a protective MBR and both GPTs with entries entries of entry_size bytes; usable
 * area from LBA 34 (512-byte blocks) or 6 (4096) to the block before the backup array. */
void gpt_write(struct mem_disk *d, const struct gpt_part *parts, UINTN n, UINT32 entries,
	       UINT32 entry_size);
/* The first and last usable LBA gpt_write uses for this disk. */
EFI_LBA gpt_first_usable(const struct mem_disk *d, UINT32 entries, UINT32 entry_size);
EFI_LBA gpt_last_usable(const struct mem_disk *d, UINT32 entries, UINT32 entry_size);
/* Recomputes the header CRC of the header at lba (after a test changed a field). */
void gpt_fix_header_crc(struct mem_disk *d, EFI_LBA lba);
/* The GPT header in block lba, to read or change in place. */
EFI_PARTITION_TABLE_HEADER *gpt_header(struct mem_disk *d, EFI_LBA lba);

/* ---- MBR ---- */
/* Sets record slot (0-3) of the MBR or EBR at lba, and its 55 AA signature. */
void mbr_set(struct mem_disk *d, UINT64 lba, UINT32 slot, UINT8 type, UINT32 start, UINT32 size);
void mbr_set_signature(struct mem_disk *d, UINT32 disk_signature);

/* ---- ISO 9660 + El Torito (2048-byte sectors) ---- */
#define ISO_CATALOG_SECTOR 20
/* Writes a primary volume descriptor (16), a boot record (17) pointing at the catalogue
 * (ISO_CATALOG_SECTOR) and a terminator (18); the catalogue gets a validation entry for
 * platform with a correct checksum. with_boot_record false leaves out the boot record. */
void iso_write(struct mem_disk *d, UINT8 platform, bool with_boot_record);
/* Writes catalogue entry index (32 bytes each; 1 is the default entry). */
void iso_entry(struct mem_disk *d, UINT32 index, UINT8 indicator, UINT8 media, UINT16 count,
	       UINT32 rba);
/* Writes a section header at index: final or not, platform, number of entries. */
void iso_section_header(struct mem_disk *d, UINT32 index, bool final, UINT8 platform,
			UINT16 entries);

#endif
