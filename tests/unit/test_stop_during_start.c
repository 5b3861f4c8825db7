/* A driver is never stopped on a controller while its Start there is still running
 * (core/driver/disconnect.c). A disk whose medium changes under a read reinstalls its BlockIo;
 * when that read came from a driver's Start (the partition driver scanning the disk through
 * DiskIo), the reinstall must not stop DiskIo and free the interface that Start still uses:
 * the reinstall is refused instead. fuzz_scsi_disk found the use after free. */
#include <stdlib.h>

#include "support/test.h"
#include "../../core/services.h"
#include <efi/protocol/driver_binding.h>

static const EFI_GUID binding_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
/* The device's protocol (BlockIo's part) and the one the lower driver puts on top (DiskIo's). */
static const EFI_GUID device_guid = {0x5d0c1e00, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
static const EFI_GUID layer_guid = {0x5d0c1e01, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};

struct layer {
	bool alive;
};

static int device_iface[2];
static EFI_HANDLE controller;
static struct layer *layer; /* the lower driver's current instance */
static bool change_media_in_start, layer_freed_under_start;
static EFI_STATUS reinstall_status;
static int device_generation;

/* The device reinstalls its protocol, as blkdev_media_changed does on a media change. */
static EFI_STATUS media_changed(void)
{
	EFI_STATUS status =
	    protocol_reinstall(controller, &device_guid, &device_iface[device_generation & 1],
			       &device_iface[(device_generation + 1) & 1]);

	if (!EFI_ERROR(status))
		device_generation++;
	return status;
}

static void *device_now(void)
{
	return &device_iface[device_generation & 1];
}

/* The lower driver (DiskIo's shape): opens the device BY_DRIVER, publishes a layer. */
static EFI_STATUS EFIAPI lower_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
					 EFI_DEVICE_PATH_PROTOCOL *rest)
{
	void *p;

	if (c != controller || EFI_ERROR(protocol_get(c, &device_guid, &p)) ||
	    !EFI_ERROR(protocol_get(c, &layer_guid, &p)))
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI lower_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				     EFI_DEVICE_PATH_PROTOCOL *rest)
{
	void *dev;
	EFI_STATUS status = protocol_open(c, &device_guid, &dev, this->DriverBindingHandle, c,
					  EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (EFI_ERROR(status))
		return status;
	layer = calloc(1, sizeof(*layer));
	layer->alive = true;
	status = protocol_install(&controller, &layer_guid, layer);
	if (EFI_ERROR(status)) {
		free(layer);
		protocol_close(c, &device_guid, this->DriverBindingHandle, c);
	}
	return status;
}

static EFI_STATUS EFIAPI lower_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				    EFI_HANDLE *kids)
{
	EFI_STATUS status = protocol_uninstall(c, &layer_guid, layer);

	if (EFI_ERROR(status))
		return status; /* still in use: kept */
	/* Marked instead of freed, so that a use after "free" is seen, not undefined. */
	layer->alive = false;
	protocol_close(c, &device_guid, this->DriverBindingHandle, c);
	return EFI_SUCCESS;
}

/* The upper driver (the partition driver's shape): opens the layer BY_DRIVER and reads
 * through it during Start; the first read finds the medium changed. */
static EFI_STATUS EFIAPI upper_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
					 EFI_DEVICE_PATH_PROTOCOL *rest)
{
	void *p;

	return c == controller && !EFI_ERROR(protocol_get(c, &layer_guid, &p)) ? EFI_SUCCESS
									       : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI upper_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c,
				     EFI_DEVICE_PATH_PROTOCOL *rest)
{
	struct layer *used;
	EFI_STATUS status = protocol_open(c, &layer_guid, (void **)&used, this->DriverBindingHandle,
					  c, EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (EFI_ERROR(status))
		return status;
	if (change_media_in_start) {
		change_media_in_start = false;
		reinstall_status = media_changed();
		layer_freed_under_start = !used->alive;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI upper_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE c, UINTN n,
				    EFI_HANDLE *kids)
{
	return protocol_close(c, &layer_guid, this->DriverBindingHandle, c);
}

static EFI_DRIVER_BINDING_PROTOCOL lower = {lower_supported, lower_start, lower_stop, 0x20};
static EFI_DRIVER_BINDING_PROTOCOL upper = {upper_supported, upper_start, upper_stop, 0x10};

static void install_drivers(void)
{
	EFI_HANDLE h = NULL;

	ASSERT_STATUS(protocol_install(&h, &binding_guid, &lower), EFI_SUCCESS);
	lower.ImageHandle = lower.DriverBindingHandle = h;
	h = NULL;
	ASSERT_STATUS(protocol_install(&h, &binding_guid, &upper), EFI_SUCCESS);
	upper.ImageHandle = upper.DriverBindingHandle = h;
	controller = NULL;
	device_generation = 0;
	ASSERT_STATUS(protocol_install(&controller, &device_guid, device_now()), EFI_SUCCESS);
}

static void remove_drivers(void)
{
	EXPECT_STATUS(driver_disconnect(controller, NULL, NULL), EFI_SUCCESS);
	EXPECT_STATUS(protocol_uninstall(controller, &device_guid, device_now()), EFI_SUCCESS);
	protocol_uninstall(upper.DriverBindingHandle, &binding_guid, &upper);
	protocol_uninstall(lower.DriverBindingHandle, &binding_guid, &lower);
}

TEST(stop_during_start_is_refused)
{
	struct layer *first;

	install_drivers();
	change_media_in_start = true;
	layer_freed_under_start = false;
	EXPECT_STATUS(driver_connect(controller, NULL, NULL, false), EFI_SUCCESS);
	first = layer;
	/* The Start kept what it opened; the device's reinstall was refused, not half done. */
	EXPECT(!layer_freed_under_start);
	EXPECT_STATUS(reinstall_status, EFI_ACCESS_DENIED);
	EXPECT(first->alive);
	/* Once Start has returned, the next media change restarts both drivers. */
	EXPECT_STATUS(media_changed(), EFI_SUCCESS);
	EXPECT(!first->alive);
	EXPECT(layer != first && layer->alive);
	remove_drivers();
	free(first);
	free(layer);
}
