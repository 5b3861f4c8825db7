/* The SCSI bus driver's devices: one child handle per LUN found behind an
 * EFI_EXT_SCSI_PASS_THRU_PROTOCOL, with a Scsi(target,lun) device path and
 * EFI_SCSI_IO_PROTOCOL. Transport-free: any pass-thru producer (virtio-scsi, USB mass
 * storage ...) gets the same children. */
#ifndef DRIVERS_SCSI_BUS_H
#define DRIVERS_SCSI_BUS_H

#include <efi/protocol/device_path.h>
#include <efi/protocol/ext_scsi_pass_thru.h>
#include <efi/protocol/scsi_io.h>
#include "scsi_buffer.h"

#define SCSI_DEVICE_SIGNATURE 0x7665646973637300ULL /* "\0scsidev" */
/* Commands the bus driver sends to find devices: 3 s each (100 ns units). */
#define SCSI_BUS_TIMEOUT 30000000ULL

struct scsi_device {
	UINT64 signature;
	EFI_HANDLE handle;
	EFI_SCSI_IO_PROTOCOL scsi_io;
	EFI_DEVICE_PATH_PROTOCOL *path;
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pass_thru;
	UINT8 target[TARGET_MAX_BYTES];
	UINT64 lun;
	UINT8 type; /* peripheral device type from INQUIRY */
};

/* Fills dev's EFI_SCSI_IO_PROTOCOL (scsi_io.c) for pass_thru, target and lun. */
void scsi_device_init(struct scsi_device *dev, EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pass_thru,
		      const UINT8 *target, UINT64 lun, UINT8 type);

/* The device behind a ScsiIo that scsi_device_init set up, or NULL for a foreign one. */
struct scsi_device *scsi_device_from_io(EFI_SCSI_IO_PROTOCOL *io);

#endif
