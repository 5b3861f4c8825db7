/* Reading IDENTIFY DEVICE data (ACS-3, 7.12.7): capacity, sector geometry, the 48-bit
 * feature set, the write cache and the model name. */
#include <ember/drivers/ata.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define W0_NOT_ATA (1u << 15)
#define W0_REMOVABLE (1u << 7)
#define W49_LBA (1u << 9)
#define W83_LBA48 (1u << 10)
#define W85_WRITE_CACHE (1u << 5)
#define W106_MULTIPLE_LOGICAL (1u << 13)
#define W106_LONG_LOGICAL (1u << 12)
/* Logical sectors above 64 KiB exist on no device; refused rather than trusted. */
#define MAX_SECTOR_WORDS 32768

/* Words whose bits 15:14 read 01 carry valid content (word 83, 87, 106, 209). */
static bool word_valid(UINT16 w)
{
	return (w & 0xc000) == 0x4000;
}

static UINT64 words(const UINT16 *id, UINT32 first, UINT32 count)
{
	UINT64 value = 0;

	for (UINT32 i = count; i-- > 0;)
		value = value << 16 | id[first + i];
	return value;
}

/* ATA strings hold two characters per word, the first in the high byte. */
static void copy_model(char out[41], const UINT16 *id)
{
	UINT32 len = 40;

	for (UINT32 i = 0; i < 20; i++) {
		out[2 * i] = (char)(id[27 + i] >> 8);
		out[2 * i + 1] = (char)id[27 + i];
	}
	while (len && (out[len - 1] == ' ' || !out[len - 1]))
		len--;
	out[len] = 0;
}

static void parse_sectors(const UINT16 *id, struct ata_disk_info *info)
{
	UINT16 w106 = id[106];

	info->sector_size = 512;
	info->logical_per_physical = 1;
	if (!word_valid(w106))
		return;
	if ((w106 & W106_LONG_LOGICAL) && words(id, 117, 2) >= 256)
		info->sector_size = (UINT32)MIN(words(id, 117, 2), MAX_SECTOR_WORDS + 1) * 2;
	if (w106 & W106_MULTIPLE_LOGICAL)
		info->logical_per_physical = 1u << (w106 & 0xf);
	/* Word 209 gives where LBA 0 sits inside the first physical sector. */
	if (info->logical_per_physical > 1 && word_valid(id[209]))
		info->lowest_aligned =
		    (info->logical_per_physical - (id[209] & 0x3fff) % info->logical_per_physical) %
		    info->logical_per_physical;
}

EFI_STATUS ata_parse_identify(const UINT16 id[256], struct ata_disk_info *info)
{
	mem_set(info, 0, sizeof(*info));
	if (id[0] & W0_NOT_ATA)
		return EFI_DEVICE_ERROR;
	if (!(id[49] & W49_LBA))
		return EFI_UNSUPPORTED;
	info->removable = (id[0] & W0_REMOVABLE) != 0;
	info->lba48 = word_valid(id[83]) && (id[83] & W83_LBA48);
	info->sectors = info->lba48 ? words(id, 100, 4) : 0;
	if (!info->sectors)
		info->sectors = words(id, 60, 2);
	info->write_cache = word_valid(id[87]) && (id[85] & W85_WRITE_CACHE);
	parse_sectors(id, info);
	copy_model(info->model, id);
	if (info->sector_size > MAX_SECTOR_WORDS * 2)
		return EFI_DEVICE_ERROR;
	return info->sectors ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

#define W0_PACKET_MASK 0xc000
#define W0_PACKET 0x8000    /* bits 15:14 = 10b: an ATAPI device */
#define W0_PACKET_SIZE 0x03 /* 00b: 12-byte packets */
#define W0_COMMAND_SET(w) (((w) >> 8) & 0x1f)
#define COMMAND_SET_DIRECT 0x00
#define COMMAND_SET_CDROM 0x05

bool atapi_parse_identify(const UINT16 id[256])
{
	UINT16 w0 = id[0];

	if ((w0 & W0_PACKET_MASK) != W0_PACKET || (w0 & W0_PACKET_SIZE))
		return false;
	return W0_COMMAND_SET(w0) == COMMAND_SET_CDROM || W0_COMMAND_SET(w0) == COMMAND_SET_DIRECT;
}
