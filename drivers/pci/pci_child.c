/* Child handles: one per PCI function, carrying EFI_PCI_IO_PROTOCOL and the device path
 * of the root bridge followed by one Pci(dev,fn) node per bridge on the way and one for
 * the function. Each opens the root bridge protocol BY_CHILD_CONTROLLER. */
#define LOG_PREFIX "pci: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include "pci_bus.h"
#include <ember/lib/guids.h>

EFI_STATUS pci_child_create(EFI_HANDLE driver, EFI_HANDLE controller,
			    EFI_DEVICE_PATH_PROTOCOL *parent_path, struct pci_function *f)
{
	PCI_DEVICE_PATH node = {
	    {HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(node), 0}}, f->fn, f->dev};
	void *root;
	EFI_STATUS status;

	f->device_path = dp_append_node(parent_path, &node.Header);
	if (!f->device_path) {
		log_debug("%02x:%02x.%x: no memory for the device path\n", f->bus, f->dev, f->fn);
		return EFI_OUT_OF_RESOURCES;
	}
	pci_io_fill_access(&f->io);
	pci_io_fill_dma(&f->io);
	pci_io_fill_attributes(&f->io);
	pci_io_init_attributes(f);
	f->io.RomSize = 0;
	f->io.RomImage = NULL;
	pci_rom_copy(f);
	f->handle = NULL;
	status = protocol_install_multiple(&f->handle, &efi_device_path_protocol_guid,
					   f->device_path, &efi_pci_io_protocol_guid, &f->io, NULL);
	if (EFI_ERROR(status)) {
		log_debug("%02x:%02x.%x: installing PciIo: %r\n", f->bus, f->dev, f->fn, status);
		goto err_path;
	}
	status = protocol_open(controller, &efi_pci_root_bridge_io_protocol_guid, &root, driver,
			       f->handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("%02x:%02x.%x: opening the root bridge for the child: %r\n", f->bus,
			  f->dev, f->fn, status);
		goto err_uninstall;
	}
	return EFI_SUCCESS;

err_uninstall:
	protocol_uninstall_multiple(f->handle, &efi_device_path_protocol_guid, f->device_path,
				    &efi_pci_io_protocol_guid, &f->io, NULL);
err_path:
	pci_rom_release(f);
	pool_free(f->device_path);
	f->device_path = NULL;
	return status;
}

EFI_STATUS pci_child_destroy(EFI_HANDLE driver, EFI_HANDLE controller, EFI_HANDLE child)
{
	EFI_PCI_IO_PROTOCOL *io;
	struct pci_function *f;
	void *root;
	EFI_STATUS status;

	status = protocol_open(child, &efi_pci_io_protocol_guid, (void **)&io, driver, controller,
			       EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status))
		return status;
	f = pci_function_from(io);
	if (f->signature != PCI_FUNCTION_SIGNATURE)
		return EFI_INVALID_PARAMETER;
	protocol_close(controller, &efi_pci_root_bridge_io_protocol_guid, driver, child);
	if (f->override.GetDriver)
		protocol_uninstall(child, &efi_bus_specific_driver_override_protocol_guid,
				   &f->override);
	f->override.GetDriver = NULL;
	status = protocol_uninstall_multiple(child, &efi_device_path_protocol_guid, f->device_path,
					     &efi_pci_io_protocol_guid, &f->io, NULL);
	if (EFI_ERROR(status)) {
		log_debug("%02x:%02x.%x: removing PciIo: %r\n", f->bus, f->dev, f->fn, status);
		protocol_open(controller, &efi_pci_root_bridge_io_protocol_guid, &root, driver,
			      child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	/* Whatever its driver left running, the device stops mastering the bus. */
	pci_cfg_write16(f, PCI_COMMAND_OFFSET,
			pci_cfg_read16(f, PCI_COMMAND_OFFSET) & ~PCI_COMMAND_BUS_MASTER);
	f->signature = 0;
	pci_rom_release(f);
	pool_free(f->device_path);
	pool_free(f);
	return EFI_SUCCESS;
}
