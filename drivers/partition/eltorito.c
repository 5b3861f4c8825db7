/* El Torito parser (UEFI 2.10, section 13.3.2, over the El Torito 1.0 and ISO 9660 formats):
 * the volume descriptors from sector 16, the boot record pointing at the boot catalogue,
 * and in the catalogue the bootable entries for the EFI platform (0xEF). Each such boot
 * image becomes a partition with a CDROM() node; entries are numbered in catalogue order,
 * the initial/default entry being 0. Only 2048-byte-block media are CDs. Pure logic. */
#define LOG_PREFIX "eltorito: "
#include <ember/core/log.h>
#include <ember/drivers/partition.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define SECTOR PART_CD_BLOCK_SIZE
#define FIRST_DESCRIPTOR 16
#define MAX_DESCRIPTORS 64
#define ENTRY_SIZE 32
#define CATALOG_ENTRIES (SECTOR / ENTRY_SIZE)

/* Volume descriptor fields (ISO 9660 8.1, El Torito 2.0). */
#define VD_TYPE_BOOT_RECORD 0
#define VD_TYPE_TERMINATOR 255
#define VD_BOOT_SYSTEM_ID_OFFSET 7
#define VD_BOOT_SYSTEM_ID_SIZE 32
#define VD_CATALOG_OFFSET 0x47

/* Boot catalogue entries (El Torito 2.1-2.5). */
#define VALIDATION_HEADER_ID 0x01
#define BOOTABLE 0x88
#define SECTION_HEADER_MORE 0x90
#define SECTION_HEADER_FINAL 0x91
#define SECTION_EXTENSION 0x44
#define PLATFORM_EFI 0xef
#define MEDIA_TYPE_MASK 0x0f
#define MEDIA_NO_EMULATION 0

static const char boot_system_id[] = "EL TORITO SPECIFICATION";

struct catalog_walk {
	const struct part_disk *disk;
	struct part_table *table;
	const UINT8 *catalog;
	UINT32 entry_number; /* the CDROM() BootEntry of the next boot entry */
};

static UINT16 le16(const UINT8 *b)
{
	return (UINT16)(b[0] | b[1] << 8);
}

static UINT32 le32(const UINT8 *b)
{
	return (UINT32)b[0] | (UINT32)b[1] << 8 | (UINT32)b[2] << 16 | (UINT32)b[3] << 24;
}

static EFI_STATUS read_sector(const struct part_disk *disk, UINT64 sector, void *buffer)
{
	if (sector > disk->last_block)
		return EFI_NOT_FOUND;
	return disk->read(disk->ctx, sector * SECTOR, SECTOR, buffer);
}

static bool is_boot_record(const UINT8 *vd)
{
	const UINT8 *id = vd + VD_BOOT_SYSTEM_ID_OFFSET;
	UINTN n = sizeof(boot_system_id) - 1;

	return vd[0] == VD_TYPE_BOOT_RECORD && !mem_cmp(id, boot_system_id, n) &&
	       mem_is_zero(id + n, VD_BOOT_SYSTEM_ID_SIZE - n);
}

/* Finds the boot catalogue's sector from the El Torito boot record; EFI_NOT_FOUND when the
 * disk is not ISO 9660 (*iso false) or has no boot record (*iso true). */
static EFI_STATUS find_catalog(const struct part_disk *disk, UINT8 *vd, bool *iso, UINT32 *catalog)
{
	*iso = false;
	for (UINT64 s = FIRST_DESCRIPTOR; s < FIRST_DESCRIPTOR + MAX_DESCRIPTORS; s++) {
		EFI_STATUS status = read_sector(disk, s, vd);
		if (EFI_ERROR(status)) {
			log_debug("cannot read volume descriptor %llu: %r\n", s, status);
			return *iso ? EFI_NOT_FOUND : status;
		}
		if (mem_cmp(vd + 1, "CD001", 5) || vd[6] != 1) {
			log_debug("sector %llu is no ISO 9660 volume descriptor\n", s);
			return EFI_NOT_FOUND;
		}
		*iso = true;
		if (vd[0] == VD_TYPE_TERMINATOR)
			break;
		if (is_boot_record(vd)) {
			*catalog = le32(vd + VD_CATALOG_OFFSET);
			return EFI_SUCCESS;
		}
	}
	log_debug("no El Torito boot record among the volume descriptors\n");
	return EFI_NOT_FOUND;
}

/* The validation entry: header ID 1, key bytes 55 AA, and 16-bit words summing to 0. */
static bool valid_validation_entry(const UINT8 *e)
{
	UINT16 sum = 0;

	for (UINTN i = 0; i < ENTRY_SIZE; i += 2)
		sum = (UINT16)(sum + le16(e + i));
	return e[0] == VALIDATION_HEADER_ID && e[30] == 0x55 && e[31] == 0xaa && sum == 0;
}

/* The image's size in CD sectors; 0 when the entry does not say (the image then runs to
 * the end of the medium, where its own file system ends it). */
static UINT64 image_sectors(const UINT8 *e)
{
	static const UINT32 floppy_bytes[] = {0, 1228800, 1474560, 2949120};
	UINT8 media = e[1] & MEDIA_TYPE_MASK;
	UINT32 count = le16(e + 6);

	if (media == MEDIA_NO_EMULATION)
		/* Tools write 0 or 1 for images too big for the 16-bit count, or saturate it. */
		return count <= 1 || count == 0xffff ? 0
						     : ((UINT64)count * 512 + SECTOR - 1) / SECTOR;
	if (media < ARRAY_SIZE(floppy_bytes))
		return floppy_bytes[media] / SECTOR;
	return 0;
}

static void add_image(struct catalog_walk *w, const UINT8 *e, UINT32 number)
{
	UINT64 rba = le32(e + 8), sectors = image_sectors(e), room;
	struct part_entry p;

	if (rba == 0 || rba > w->disk->last_block) {
		log_debug("boot entry %u: image at sector %llu lies outside the disk\n", number,
			  rba);
		w->table->problem = "a boot image lies outside the disk";
		w->table->skipped++;
		return;
	}
	room = w->disk->last_block - rba + 1;
	if (!sectors || sectors > room)
		sectors = room;
	if (part_table_overlaps(w->table, rba, sectors)) {
		log_debug("boot entry %u: image at sector %llu overlaps another\n", number, rba);
		w->table->problem = "two boot images overlap";
		w->table->skipped++;
		return;
	}
	mem_set(&p, 0, sizeof(p));
	p.start = rba;
	p.blocks = sectors;
	p.system = true; /* 13.3.2: the EFI boot image is the CD's system partition */
	part_node_header(&p.node.header, MEDIA_CDROM_DP, sizeof(p.node.cd));
	p.node.cd.BootEntry = number;
	p.node.cd.PartitionStart = rba;
	p.node.cd.PartitionSize = sectors;
	p.info.Revision = EFI_PARTITION_INFO_PROTOCOL_REVISION;
	p.info.Type = PARTITION_TYPE_OTHER;
	p.info.System = 1;
	part_table_add(w->table, &p);
}

static void boot_entry(struct catalog_walk *w, const UINT8 *e, UINT8 platform)
{
	UINT32 number = w->entry_number++;

	if (e[0] == BOOTABLE && platform == PLATFORM_EFI)
		add_image(w, e, number);
}

/* Walks the section headers after the default entry; each lists its section entries,
 * which may be followed by extension entries. */
static void walk_sections(struct catalog_walk *w)
{
	UINTN i = 2;

	while (i < CATALOG_ENTRIES) {
		const UINT8 *header = w->catalog + i * ENTRY_SIZE;
		UINTN count = le16(header + 2);
		if (header[0] != SECTION_HEADER_MORE && header[0] != SECTION_HEADER_FINAL)
			return;
		i++;
		while (i < CATALOG_ENTRIES) {
			const UINT8 *e = w->catalog + i * ENTRY_SIZE;
			if (e[0] != SECTION_EXTENSION && !count)
				break;
			i++;
			if (e[0] == SECTION_EXTENSION)
				continue;
			boot_entry(w, e, header[1]);
			count--;
		}
		if (header[0] == SECTION_HEADER_FINAL)
			return;
	}
}

EFI_STATUS part_parse_eltorito(const struct part_disk *disk, struct part_table *table)
{
	struct catalog_walk w = {disk, table, table->scratch, 0};
	UINT32 catalog;
	bool iso;
	EFI_STATUS status;

	part_table_reset(table);
	if (disk->block_size != SECTOR) {
		log_debug("not a CD: blocks of %u bytes\n", disk->block_size);
		return EFI_NOT_FOUND;
	}
	status = find_catalog(disk, table->scratch, &iso, &catalog);
	if (status == EFI_NOT_FOUND && iso) {
		/* An ISO 9660 volume without a boot record: its MBR, if any, is an isohybrid
		 * one counting 512-byte sectors, meaningless on a CD. */
		table->scheme = PART_SCHEME_ELTORITO;
		table->problem = "ISO 9660 volume without an El Torito boot record";
		return EFI_SUCCESS;
	}
	if (EFI_ERROR(status))
		return status;
	table->scheme = PART_SCHEME_ELTORITO;
	status = read_sector(disk, catalog, table->scratch);
	if (EFI_ERROR(status) || !valid_validation_entry(table->scratch)) {
		log_debug("boot catalogue at sector %u is %s\n", catalog,
			  EFI_ERROR(status) ? "unreadable" : "invalid");
		table->problem = "the El Torito boot catalogue is unreadable or invalid";
		return EFI_SUCCESS;
	}
	boot_entry(&w, table->scratch + ENTRY_SIZE, table->scratch[1]);
	walk_sections(&w);
	if (!table->count && !table->problem) {
		log_debug("no EFI boot image in the boot catalogue\n");
		table->problem = "no EFI boot image in the El Torito boot catalogue";
	}
	return EFI_SUCCESS;
}
