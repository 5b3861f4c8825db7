/* SCSI commands for ATAPI devices (SPC-4, MMC-6) and what their answers mean. */
#include <ember/drivers/ata.h>
#include <ember/lib/str.h>

#define SENSE_FIXED_CURRENT 0x70
#define SENSE_FIXED_DEFERRED 0x71

static void cdb_start(UINT8 cdb[ATAPI_CDB_BYTES], UINT8 opcode)
{
	mem_set(cdb, 0, ATAPI_CDB_BYTES);
	cdb[0] = opcode;
}

void scsi_test_unit_ready(UINT8 cdb[ATAPI_CDB_BYTES])
{
	cdb_start(cdb, SCSI_TEST_UNIT_READY);
}

void scsi_request_sense(UINT8 cdb[ATAPI_CDB_BYTES])
{
	cdb_start(cdb, SCSI_REQUEST_SENSE);
	cdb[4] = SCSI_SENSE_BYTES;
}

void scsi_read_capacity_10(UINT8 cdb[ATAPI_CDB_BYTES])
{
	cdb_start(cdb, SCSI_READ_CAPACITY_10);
}

void scsi_read_10(UINT8 cdb[ATAPI_CDB_BYTES], UINT32 lba, UINT16 blocks)
{
	cdb_start(cdb, SCSI_READ_10);
	cdb[2] = (UINT8)(lba >> 24);
	cdb[3] = (UINT8)(lba >> 16);
	cdb[4] = (UINT8)(lba >> 8);
	cdb[5] = (UINT8)lba;
	cdb[7] = (UINT8)(blocks >> 8);
	cdb[8] = (UINT8)blocks;
}

bool scsi_parse_sense(const UINT8 data[SCSI_SENSE_BYTES], struct scsi_sense *sense)
{
	UINT8 code = data[0] & 0x7f;

	if (code != SENSE_FIXED_CURRENT && code != SENSE_FIXED_DEFERRED)
		return false;
	sense->key = data[2] & 0x0f;
	sense->asc = data[12];
	sense->ascq = data[13];
	return true;
}

static UINT32 be32(const UINT8 *p)
{
	return (UINT32)p[0] << 24 | (UINT32)p[1] << 16 | (UINT32)p[2] << 8 | p[3];
}

bool scsi_parse_capacity_10(const UINT8 data[SCSI_CAPACITY_10_BYTES], UINT32 *last_lba,
			    UINT32 *block_size)
{
	*last_lba = be32(data);
	*block_size = be32(data + 4);
	/* Some drives report 0 or odd sizes for audio media; only data blocks are usable. */
	return *block_size >= 512 && *block_size <= 65536 && !(*block_size & (*block_size - 1));
}

EFI_STATUS scsi_sense_status(const struct scsi_sense *sense)
{
	switch (sense->key) {
	case SCSI_SENSE_NO_SENSE:
		return EFI_SUCCESS;
	case SCSI_SENSE_NOT_READY:
		if (sense->asc == SCSI_ASC_NO_MEDIUM)
			return EFI_NO_MEDIA;
		return sense->asc == SCSI_ASC_BECOMING_READY ? EFI_NOT_READY : EFI_DEVICE_ERROR;
	case SCSI_SENSE_UNIT_ATTENTION:
		return EFI_MEDIA_CHANGED;
	default:
		return EFI_DEVICE_ERROR;
	}
}
