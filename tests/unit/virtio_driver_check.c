/* Checks shared by the virtio driver tests (see virtio_driver_check.h). */
#include <stdio.h>

#include "support/test.h"
#include "virtio_driver_check.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <efi/protocol/component_name2.h>
#include <ember/core/core.h>

void virtio_check_no_errors(struct fake_virtio *d)
{
	if (!EXPECT_EQ(d->pci->errors, 0))
		printf("    device saw: %s\n", d->pci->last_error);
}

void virtio_check_clean(struct fake_virtio *d)
{
	EXPECT_EQ(d->pci->attributes, EFI_PCI_IO_ATTRIBUTE_IO);
	EXPECT_EQ(d->pci->live_maps, 0);
	EXPECT_EQ(d->pci->live_buffers, 0);
	EXPECT(!d->queues[0].enabled);
	EXPECT(!(d->status & VIRTIO_STATUS_DRIVER_OK));
	EXPECT(fake_pci_io_unclaimed(d->pci));
	virtio_check_no_errors(d);
}

void virtio_check_disconnect(struct fake_virtio *d)
{
	EXPECT_STATUS(driver_disconnect(d->pci->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(d->status, 0);
}

CHAR16 *virtio_check_controller_name(EFI_DRIVER_BINDING_PROTOCOL *db, struct fake_virtio *d,
				     EFI_HANDLE child)
{
	static const EFI_GUID names_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;
	EFI_COMPONENT_NAME2_PROTOCOL *names;
	CHAR16 *name = NULL;

	if (EFI_ERROR(protocol_get(db->DriverBindingHandle, &names_guid, (void **)&names)) ||
	    EFI_ERROR(names->GetControllerName(names, d->pci->handle, child, (CHAR8 *)"en", &name)))
		return NULL;
	return name;
}

void virtio_check_exit_boot_services(struct fake_virtio *d)
{
	static const EFI_GUID exit_group = EFI_EVENT_GROUP_EXIT_BOOT_SERVICES;
	UINTN buffers = d->pci->live_buffers;

	event_signal_group(&exit_group);
	/* The device stops all DMA; memory now belongs to the OS and is not touched. */
	EXPECT_EQ(d->status, 0);
	EXPECT_EQ(d->pci->live_buffers, buffers);
	virtio_check_no_errors(d);
	fake_virtio_destroy(d);
}
