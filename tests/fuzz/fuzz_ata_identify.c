/* Fuzzes what ATA and ATAPI drives say about themselves (drivers/ata): IDENTIFY DEVICE and
 * IDENTIFY PACKET DEVICE data, fixed-format sense data and READ CAPACITY(10) answers. The
 * input is the drive's bytes (zero-padded to each structure's size); whatever a parser
 * accepts must describe a usable device. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/drivers/ata.h>

static void check_identify(const uint8_t *data, size_t size)
{
	UINT16 id[256];
	struct ata_disk_info info;

	memset(id, 0, sizeof(id));
	memcpy(id, data, size < sizeof(id) ? size : sizeof(id));
	atapi_parse_identify(id);
	if (EFI_ERROR(ata_parse_identify(id, &info)))
		return;
	if (!info.sectors || info.sector_size < 512 || info.sector_size > 65536 ||
	    (info.sector_size & 1) || !info.logical_per_physical ||
	    info.lowest_aligned >= info.logical_per_physical || strlen(info.model) > 40)
		abort();
}

static void check_scsi(const uint8_t *data, size_t size)
{
	UINT8 sense_data[SCSI_SENSE_BYTES], capacity[SCSI_CAPACITY_10_BYTES];
	struct scsi_sense sense;
	UINT32 last, block;

	memset(sense_data, 0, sizeof(sense_data));
	memcpy(sense_data, data, size < sizeof(sense_data) ? size : sizeof(sense_data));
	if (scsi_parse_sense(sense_data, &sense)) {
		EFI_STATUS status = scsi_sense_status(&sense);
		if (sense.key > 0xf ||
		    (status != EFI_SUCCESS && status != EFI_NO_MEDIA && status != EFI_NOT_READY &&
		     status != EFI_MEDIA_CHANGED && status != EFI_DEVICE_ERROR))
			abort();
	}
	memset(capacity, 0, sizeof(capacity));
	memcpy(capacity, data, size < sizeof(capacity) ? size : sizeof(capacity));
	if (scsi_parse_capacity_10(capacity, &last, &block) &&
	    (block < 512 || block > 65536 || (block & (block - 1))))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_identify(data, size);
	check_scsi(data, size);
	return 0;
}
