/* What medium a SCSI disk or drive holds (SBC-3, MMC-6): ready or not, its blocks, and
 * whether it may be written. */
#define LOG_PREFIX "scsi-disk: "
#include "scsi_disk.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

/* 3 s for commands that move no blocks (100 ns units). */
#define SHORT_TIMEOUT 30000000ULL

static EFI_STATUS simple(struct scsi_disk *d, const UINT8 *cdb, UINT8 cdb_len, UINT32 *bytes)
{
	struct scsi_disk_cmd c = {.cdb_len = cdb_len,
				  .data = bytes ? d->scratch : NULL,
				  .bytes = bytes ? *bytes : 0,
				  .timeout = SHORT_TIMEOUT};
	EFI_STATUS status;

	mem_copy(c.cdb, cdb, cdb_len);
	if (bytes)
		mem_set(d->scratch, 0, *bytes);
	status = scsi_disk_command(d, &c);
	if (bytes)
		*bytes = MIN(c.bytes, *bytes);
	return status;
}

/* TEST UNIT READY; a medium change reported on the way is taken as the news it is. */
static EFI_STATUS test_ready(struct scsi_disk *d)
{
	static const UINT8 cdb[6] = {SCSI_OP_TEST_UNIT_READY};
	EFI_STATUS status = simple(d, cdb, sizeof(cdb), NULL);

	if (status == EFI_MEDIA_CHANGED)
		status = simple(d, cdb, sizeof(cdb), NULL);
	return status;
}

static bool read_capacity(struct scsi_disk *d, struct scsi_capacity *cap)
{
	static const UINT8 cdb10[10] = {SCSI_OP_READ_CAPACITY_10};
	UINT8 cdb16[16] = {SCSI_OP_SERVICE_ACTION_IN_16, SCSI_SA_READ_CAPACITY_16};
	UINT32 bytes = SCSI_CAPACITY_10_BYTES;
	EFI_STATUS status = simple(d, cdb10, sizeof(cdb10), &bytes);

	if (EFI_ERROR(status) || !scsi_data_capacity_10(d->scratch, bytes, cap)) {
		log_debug("READ CAPACITY (10): %r (%u bytes)\n", status, bytes);
		return false;
	}
	if (cap->last_lba != 0xffffffffULL)
		return true;
	/* Too large for (10): the answer is in (16). */
	scsi_put_be32(cdb16 + 10, SCSI_CAPACITY_16_BYTES);
	bytes = SCSI_CAPACITY_16_BYTES;
	status = simple(d, cdb16, sizeof(cdb16), &bytes);
	if (EFI_ERROR(status) || !scsi_data_capacity_16(d->scratch, bytes, cap)) {
		log_debug("READ CAPACITY (16): %r (%u bytes)\n", status, bytes);
		return false;
	}
	return true;
}

/* A disk says so in its mode parameter header; CD/DVD drives are read-only here. */
static bool read_only(struct scsi_disk *d)
{
	UINT8 cdb[6] = {SCSI_OP_MODE_SENSE_6, 0x08, 0x3f, 0, SCSI_MODE_SENSE_BYTES, 0};
	UINT32 bytes = SCSI_MODE_SENSE_BYTES;

	if (d->type != EFI_SCSI_IO_TYPE_DISK)
		return true;
	if (EFI_ERROR(simple(d, cdb, sizeof(cdb), &bytes)))
		return false;
	return scsi_data_write_protected(d->scratch, bytes);
}

bool scsi_disk_refresh(struct scsi_disk *d)
{
	EFI_BLOCK_IO_MEDIA *m = &d->blk.media;
	EFI_BLOCK_IO_MEDIA old = *m;
	struct scsi_capacity cap;

	m->MediaPresent = FALSE;
	if (test_ready(d) == EFI_SUCCESS && read_capacity(d, &cap)) {
		m->MediaPresent = TRUE;
		m->LastBlock = cap.last_lba;
		m->BlockSize = cap.block_size;
		m->LogicalBlocksPerPhysicalBlock = cap.blocks_per_physical;
		m->LowestAlignedLba = cap.lowest_aligned;
		m->ReadOnly = read_only(d);
	} else {
		m->LastBlock = 0;
		m->BlockSize = d->type == EFI_SCSI_IO_TYPE_CDROM ? 2048 : 512;
		m->LogicalBlocksPerPhysicalBlock = 1;
		m->LowestAlignedLba = 0;
	}
	return m->MediaPresent != old.MediaPresent || m->LastBlock != old.LastBlock ||
	       m->BlockSize != old.BlockSize || m->ReadOnly != old.ReadOnly;
}
