/* Disk images in memory for the partition tests (see disk_builder.h). */
#include <stdlib.h>
#include <string.h>

#include "disk_builder.h"
#include <ember/lib/crc32.h>

static EFI_STATUS mem_read(void *ctx, UINT64 offset, UINTN size, void *buffer)
{
	struct mem_disk *d = ctx;

	d->reads++;
	if (d->reads == d->fail_read)
		return EFI_DEVICE_ERROR;
	if (offset > d->size || size > d->size - offset)
		return EFI_INVALID_PARAMETER;
	memcpy(buffer, d->data + offset, size);
	return EFI_SUCCESS;
}

static EFI_STATUS mem_write(void *ctx, UINT64 offset, UINTN size, const void *buffer)
{
	struct mem_disk *d = ctx;

	d->writes++;
	if (d->read_only)
		return EFI_WRITE_PROTECTED;
	if (offset > d->size || size > d->size - offset)
		return EFI_INVALID_PARAMETER;
	memcpy(d->data + offset, buffer, size);
	return EFI_SUCCESS;
}

void mem_disk_init(struct mem_disk *d, UINT64 blocks, UINT32 block_size)
{
	d->size = blocks * block_size;
	d->block_size = block_size;
	d->data = calloc(1, d->size);
	d->reads = 0;
	d->writes = 0;
	d->read_only = false;
	d->fail_read = 0;
}

void mem_disk_free(struct mem_disk *d)
{
	free(d->data);
	d->data = NULL;
}

struct part_disk mem_disk_view(struct mem_disk *d)
{
	return (struct part_disk){.block_size = d->block_size,
				  .last_block = d->size / d->block_size - 1,
				  .read = mem_read,
				  .write = mem_write,
				  .ctx = d};
}

UINT8 *mem_disk_block(struct mem_disk *d, UINT64 lba)
{
	return d->data + lba * d->block_size;
}

static void put16(UINT8 *p, UINT16 v)
{
	p[0] = (UINT8)v;
	p[1] = (UINT8)(v >> 8);
}

static void put32(UINT8 *p, UINT32 v)
{
	put16(p, (UINT16)v);
	put16(p + 2, (UINT16)(v >> 16));
}

/* ---- MBR ---- */

void mbr_set(struct mem_disk *d, UINT64 lba, UINT32 slot, UINT8 type, UINT32 start, UINT32 size)
{
	UINT8 *sector = mem_disk_block(d, lba), *r = sector + 446 + 16 * slot;

	memset(r, 0, 16);
	r[4] = type;
	put32(r + 8, start);
	put32(r + 12, size);
	sector[510] = 0x55;
	sector[511] = 0xaa;
}

void mbr_set_signature(struct mem_disk *d, UINT32 disk_signature)
{
	put32(d->data + 440, disk_signature);
}

/* ---- GPT ---- */

EFI_GUID gpt_test_unique_guid(UINT32 slot)
{
	return (EFI_GUID){0x1000 + slot, 0xabcd, 0x4ef0, {0x80, 1, 2, 3, 4, 5, 6, 7}};
}

static UINT64 array_blocks(const struct mem_disk *d, UINT32 entries, UINT32 entry_size)
{
	return ((UINT64)entries * entry_size + d->block_size - 1) / d->block_size;
}

EFI_LBA gpt_first_usable(const struct mem_disk *d, UINT32 entries, UINT32 entry_size)
{
	return 2 + array_blocks(d, entries, entry_size);
}

EFI_LBA gpt_last_usable(const struct mem_disk *d, UINT32 entries, UINT32 entry_size)
{
	return d->size / d->block_size - 2 - array_blocks(d, entries, entry_size);
}

EFI_PARTITION_TABLE_HEADER *gpt_header(struct mem_disk *d, EFI_LBA lba)
{
	return (EFI_PARTITION_TABLE_HEADER *)mem_disk_block(d, lba);
}

void gpt_fix_header_crc(struct mem_disk *d, EFI_LBA lba)
{
	EFI_PARTITION_TABLE_HEADER *h = gpt_header(d, lba);

	h->Header.CRC32 = 0;
	h->Header.CRC32 = crc32(h, h->Header.HeaderSize);
}

static void write_header(struct mem_disk *d, EFI_LBA my, EFI_LBA alternate, EFI_LBA array,
			 UINT32 entries, UINT32 entry_size, UINT32 array_crc)
{
	EFI_PARTITION_TABLE_HEADER *h = (EFI_PARTITION_TABLE_HEADER *)mem_disk_block(d, my);
	static const EFI_GUID disk_guid = GPT_TEST_DISK_GUID;

	memset(h, 0, sizeof(*h));
	h->Header.Signature = EFI_PTAB_HEADER_ID;
	h->Header.Revision = EFI_GPT_HEADER_REVISION;
	h->Header.HeaderSize = 92;
	h->MyLBA = my;
	h->AlternateLBA = alternate;
	h->FirstUsableLBA = gpt_first_usable(d, entries, entry_size);
	h->LastUsableLBA = gpt_last_usable(d, entries, entry_size);
	h->DiskGUID = disk_guid;
	h->PartitionEntryLBA = array;
	h->NumberOfPartitionEntries = entries;
	h->SizeOfPartitionEntry = entry_size;
	h->PartitionEntryArrayCRC32 = array_crc;
	gpt_fix_header_crc(d, my);
}

void gpt_write(struct mem_disk *d, const struct gpt_part *parts, UINTN n, UINT32 entries,
	       UINT32 entry_size)
{
	UINT64 last = d->size / d->block_size - 1, blocks = array_blocks(d, entries, entry_size);
	UINT8 *primary = mem_disk_block(d, 2), *backup = mem_disk_block(d, last - blocks);
	UINT32 crc;

	mbr_set(d, 0, 0, PMBR_GPT_PARTITION, 1, (UINT32)(last > 0xffffffff ? 0xffffffff : last));
	memset(primary, 0, blocks * d->block_size);
	for (UINTN i = 0; i < n; i++) {
		EFI_PARTITION_ENTRY *e =
		    (EFI_PARTITION_ENTRY *)(primary + parts[i].slot * entry_size);
		e->PartitionTypeGUID = parts[i].type;
		e->UniquePartitionGUID = gpt_test_unique_guid(parts[i].slot);
		e->StartingLBA = parts[i].first;
		e->EndingLBA = parts[i].last;
		e->Attributes = parts[i].attributes;
		e->PartitionName[0] = 'P';
		e->PartitionName[1] = (CHAR16)('0' + parts[i].slot % 10);
	}
	memcpy(backup, primary, blocks * d->block_size);
	crc = crc32(primary, (size_t)entries * entry_size);
	write_header(d, 1, last, 2, entries, entry_size, crc);
	write_header(d, last, 1, last - blocks, entries, entry_size, crc);
}

/* ---- ISO 9660 + El Torito ---- */

static void descriptor(struct mem_disk *d, UINT32 sector, UINT8 type)
{
	UINT8 *vd = mem_disk_block(d, sector);

	vd[0] = type;
	memcpy(vd + 1, "CD001", 5);
	vd[6] = 1;
}

void iso_write(struct mem_disk *d, UINT8 platform, bool with_boot_record)
{
	UINT8 *v = mem_disk_block(d, ISO_CATALOG_SECTOR);
	UINT16 sum = 0;
	UINT32 next = 17;

	descriptor(d, 16, 1);
	if (with_boot_record) {
		descriptor(d, next, 0);
		memcpy(mem_disk_block(d, next) + 7, "EL TORITO SPECIFICATION", 23);
		put32(mem_disk_block(d, next) + 0x47, ISO_CATALOG_SECTOR);
		next++;
	}
	descriptor(d, next, 255);
	memset(v, 0, 32);
	v[0] = 1;
	v[1] = platform;
	memcpy(v + 4, "EMBER TEST", 10);
	v[30] = 0x55;
	v[31] = 0xaa;
	for (UINT32 i = 0; i < 32; i += 2)
		sum = (UINT16)(sum + (v[i] | v[i + 1] << 8));
	put16(v + 28, (UINT16)(0x10000 - sum));
}

void iso_entry(struct mem_disk *d, UINT32 index, UINT8 indicator, UINT8 media, UINT16 count,
	       UINT32 rba)
{
	UINT8 *e = mem_disk_block(d, ISO_CATALOG_SECTOR) + 32 * index;

	memset(e, 0, 32);
	e[0] = indicator;
	e[1] = media;
	put16(e + 6, count);
	put32(e + 8, rba);
}

void iso_section_header(struct mem_disk *d, UINT32 index, bool final, UINT8 platform,
			UINT16 entries)
{
	UINT8 *e = mem_disk_block(d, ISO_CATALOG_SECTOR) + 32 * index;

	memset(e, 0, 32);
	e[0] = final ? 0x91 : 0x90;
	e[1] = platform;
	put16(e + 2, entries);
}
