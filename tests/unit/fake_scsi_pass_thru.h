/* A SCSI channel for the tests of the SCSI bus and disk drivers: an
 * EFI_EXT_SCSI_PASS_THRU_PROTOCOL of its own (not Ember's front end, as a third-party
 * driver's would be) over the SCSI model (fake_scsi.h), on a handle of its own with the
 * device path PciRoot(0x0)/Pci(0x3,0x0). Targets 0-7, LUNs 0-7. */
#ifndef EMBER_TEST_FAKE_SCSI_PASS_THRU_H
#define EMBER_TEST_FAKE_SCSI_PASS_THRU_H

#include <efi/protocol/ext_scsi_pass_thru.h>
#include "fake_scsi.h"

struct fake_scsi_pt {
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL protocol;
	EFI_EXT_SCSI_PASS_THRU_MODE mode;
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *path;
	struct fake_scsi scsi;
	UINT32 max_transfer; /* bytes per command; more is EFI_BAD_BUFFER_SIZE */
	UINTN busy_count;    /* the next commands get EFI_NOT_READY (the channel is busy) */
	UINTN pass_thrus, channel_resets, lun_resets;
	UINTN misaligned; /* buffers that did not honour IoAlign */
};

/* A channel (IoAlign 4, 1 MiB per command) with no units yet; units are added to
 * pt->scsi before the drivers are connected. */
struct fake_scsi_pt *fake_scsi_pt_create(void);
/* Disconnects the drivers, removes the handle, frees everything. */
void fake_scsi_pt_destroy(struct fake_scsi_pt *pt);

#endif
