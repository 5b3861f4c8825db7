/* A virtio-scsi device (virtio 1.x, 5.6) on the fake virtio-pci device (fake_virtio.h):
 * the control queue answers task management, the request queue carries commands to the
 * SCSI target model (fake_scsi.h). Layouts are checked: a request header of 19 bytes plus
 * cdb_size, a response of 12 plus sense_size, data out before the response, data in after. */
#ifndef EMBER_TEST_FAKE_VIRTIO_SCSI_H
#define EMBER_TEST_FAKE_VIRTIO_SCSI_H

#include "fake_scsi.h"
#include "fake_virtio.h"

struct fake_virtio_scsi {
	struct fake_scsi scsi;
	UINT8 next_response;   /* forced on the next command (0: none) */
	UINT32 extra_residual; /* reported beyond what the model left untransferred */
	UINTN commands, tmfs;
	UINT8 last_lun[8];
	UINTN tpl; /* the TPL the last command was sent at */
};

/* The device (VERSION_1 and INOUT offered, 3 queues of 64 entries, cdb_size 32,
 * sense_size 96, max_target 255, max_lun 16383) with an empty model. */
struct fake_virtio *fake_virtio_scsi_create(enum fake_virtio_interface interface);
/* Its state. */
struct fake_virtio_scsi *fake_virtio_scsi(struct fake_virtio *d);
/* Destroys the device and frees the model's media. */
void fake_virtio_scsi_destroy(struct fake_virtio *d);

#endif
