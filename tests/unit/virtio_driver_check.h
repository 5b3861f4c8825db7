/* What the tests of the virtio drivers (test_virtio_blk_driver.c, test_virtio_rng.c) check
 * the same way on a fake device (fake_virtio.h): that a driver not bound (or no longer)
 * left the device and its PCI function as it found them, that it made no mistake the
 * device saw, its controller names, and ExitBootServices. */
#ifndef EMBER_TEST_VIRTIO_DRIVER_CHECK_H
#define EMBER_TEST_VIRTIO_DRIVER_CHECK_H

#include "fake_virtio.h"

/* Checks that the device saw no driver mistake (and says the last one it saw). */
void virtio_check_no_errors(struct fake_virtio *d);

/* Checks the device and its function after a driver let go: attributes as before Start,
 * no mapping or buffer left, queue 0 disabled, not DRIVER_OK, PciIo free for another
 * driver, no mistake seen. */
void virtio_check_clean(struct fake_virtio *d);

/* Disconnects the drivers and checks that the device was reset. */
void virtio_check_disconnect(struct fake_virtio *d);

/* The driver's ComponentName2 name for the device (child NULL) or a child, or NULL. */
CHAR16 *virtio_check_controller_name(EFI_DRIVER_BINDING_PROTOCOL *db, struct fake_virtio *d,
				     EFI_HANDLE child);

/* Signals ExitBootServices to a device a driver runs: the device is reset and nothing is
 * freed (the memory is the OS's now). Destroys the device. */
void virtio_check_exit_boot_services(struct fake_virtio *d);

#endif
