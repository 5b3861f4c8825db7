/* Commands of the SCSI disk driver with their sense handling (SPC-4, 4.5): what a CHECK
 * CONDITION means for the request, and which ones are worth another try. */
#define LOG_PREFIX "scsi-disk: "
#include "scsi_disk.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>
#include <efi/protocol/ext_scsi_pass_thru.h>

#define TRIES 8
#define NOT_READY_WAIT_US 100000
/* What an attempt asks for next. */
#define RETRY EFI_ABORTED

/* A CHECK CONDITION, through its sense key. */
static EFI_STATUS explain(struct scsi_disk *d, const struct scsi_sense *s)
{
	switch (s->key) {
	case SCSI_KEY_NO_SENSE:
	case SCSI_KEY_RECOVERED_ERROR:
		return EFI_SUCCESS;
	case SCSI_KEY_UNIT_ATTENTION:
		/* A removable medium may be another one now: the caller must look again. */
		if (d->removable && s->asc == SCSI_ASC_MEDIUM_CHANGED)
			return EFI_MEDIA_CHANGED;
		return RETRY;
	case SCSI_KEY_NOT_READY:
		if (s->asc == SCSI_ASC_NO_MEDIUM)
			return EFI_NO_MEDIA;
		if (s->asc == SCSI_ASC_BECOMING_READY) {
			core_stall_us(NOT_READY_WAIT_US);
			return RETRY;
		}
		return EFI_DEVICE_ERROR;
	case SCSI_KEY_DATA_PROTECT:
		return EFI_WRITE_PROTECTED;
	case SCSI_KEY_ILLEGAL_REQUEST:
		return EFI_UNSUPPORTED;
	case SCSI_KEY_ABORTED_COMMAND:
		return RETRY;
	default:
		return EFI_DEVICE_ERROR;
	}
}

static EFI_STATUS attempt(struct scsi_disk *d, struct scsi_disk_cmd *c)
{
	UINT8 *sense = d->scratch + SCSI_DISK_SENSE_AT;
	EFI_SCSI_IO_SCSI_REQUEST_PACKET p = {
	    .Timeout = c->timeout,
	    .SenseData = sense,
	    .Cdb = c->cdb,
	    .CdbLength = c->cdb_len,
	    .SenseDataLength = SCSI_SENSE_MAX,
	};
	struct scsi_sense s;
	EFI_STATUS status;

	if (c->write) {
		p.OutDataBuffer = c->data;
		p.OutTransferLength = c->bytes;
		p.DataDirection = EFI_SCSI_IO_DATA_DIRECTION_WRITE;
	} else {
		p.InDataBuffer = c->data;
		p.InTransferLength = c->bytes;
		p.DataDirection = EFI_SCSI_IO_DATA_DIRECTION_READ;
	}
	status = d->io->ExecuteScsiCommand(d->io, &p, NULL);
	c->bytes = c->write ? p.OutTransferLength : p.InTransferLength;
	if (status == EFI_SUCCESS || status == EFI_BAD_BUFFER_SIZE)
		return status;
	if (p.TargetStatus == EFI_EXT_SCSI_STATUS_TARGET_BUSY || status == EFI_NOT_READY) {
		core_stall_us(NOT_READY_WAIT_US / 10);
		return RETRY;
	}
	if (p.TargetStatus != EFI_EXT_SCSI_STATUS_TARGET_CHECK_CONDITION)
		return EFI_DEVICE_ERROR;
	if (!scsi_data_sense(sense, MIN(p.SenseDataLength, (UINT8)SCSI_SENSE_MAX), &s)) {
		log_debug("command %#x: CHECK CONDITION without usable sense data\n", c->cdb[0]);
		return EFI_DEVICE_ERROR;
	}
	log_debug("command %#x: sense %x/%02x/%02x\n", c->cdb[0], s.key, s.asc, s.ascq);
	return explain(d, &s);
}

EFI_STATUS scsi_disk_command(struct scsi_disk *d, struct scsi_disk_cmd *c)
{
	UINT32 asked = c->bytes;

	for (UINT32 i = 0; i < TRIES; i++) {
		EFI_STATUS status;

		c->bytes = asked;
		status = attempt(d, c);
		if (status != RETRY)
			return status;
	}
	log_debug("command %#x: no success after %u tries\n", c->cdb[0], TRIES);
	return EFI_DEVICE_ERROR;
}
