/* The PCI bus driver (UEFI driver model, a bus driver): binds to a root bridge, enumerates
 * and configures everything behind it, and creates a child handle per function. Stop with
 * children removes them; Stop without children releases the root bridge. */
#define LOG_PREFIX "pci: "
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include "pci_bus.h"
#include <ember/lib/guids.h>

/* A remaining path, if any, must name a PCI function. */
static bool remaining_is_pci(EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return !remaining || remaining->Type == END_DEVICE_PATH_TYPE ||
	       (remaining->Type == HARDWARE_DEVICE_PATH && remaining->SubType == HW_PCI_DP);
}

static EFI_STATUS EFIAPI pci_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	void *interface;
	EFI_STATUS status;

	if (!remaining_is_pci(remaining))
		return EFI_UNSUPPORTED;
	status = driver_can_open(this->DriverBindingHandle, controller,
				 &efi_pci_root_bridge_io_protocol_guid, NULL);
	if (EFI_ERROR(status))
		return status;
	return protocol_get(controller, &efi_device_path_protocol_guid, &interface);
}

/* Creates the children in discovery order (a bridge before what is behind it), taking
 * each created function off the scan's list. */
static void create_children(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
			    EFI_DEVICE_PATH_PROTOCOL *root_path, struct pci_scan *scan)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	struct list *l, *next;

	for (l = scan->functions.next; l != &scan->functions; l = l->next) {
		struct pci_function *f = list_entry(l, struct pci_function, link);
		EFI_DEVICE_PATH_PROTOCOL *parent = f->parent ? f->parent->device_path : root_path;
		EFI_STATUS status =
		    parent ? pci_child_create(driver, controller, parent, f) : EFI_NOT_FOUND;
		if (EFI_ERROR(status))
			log_warn("no handle for %02x:%02x.%x: %r\n", f->bus, f->dev, f->fn, status);
		else
			pci_rom_start_drivers(this->ImageHandle, f);
	}
	for (l = scan->functions.next; l != &scan->functions; l = next) {
		struct pci_function *f = list_entry(l, struct pci_function, link);
		next = l->next;
		pool_free(f->inner.reqs);
		f->inner.reqs = NULL;
		if (f->handle) {
			list_del(&f->link);
			f->parent = NULL; /* may go away before this child does */
		}
	}
}

static void log_functions(struct pci_scan *scan)
{
	for (struct list *l = scan->functions.next; l != &scan->functions; l = l->next) {
		struct pci_function *f = list_entry(l, struct pci_function, link);
		log_debug("%02x:%02x.%x %04x:%04x class %02x%02x%02x%s\n", f->bus, f->dev, f->fn,
			  f->vendor_id, f->device_id, f->class_code[2], f->class_code[1],
			  f->class_code[0], f->is_bridge ? " bridge" : "");
		for (int i = 0; i < PCI_MAX_BAR; i++)
			if (f->bars[i].offset)
				log_debug("  BAR%d %s %llx size %llx%s\n", i,
					  f->bars[i].is_io ? "io" : "mem", f->bars[i].req.base,
					  f->bars[i].req.size,
					  f->bars[i].req.assigned ? "" : " (unassigned)");
	}
}

static EFI_STATUS EFIAPI pci_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *root;
	EFI_DEVICE_PATH_PROTOCOL *path;
	struct pci_scan *scan;
	EFI_STATUS status;

	status = protocol_open(controller, &efi_pci_root_bridge_io_protocol_guid, (void **)&root,
			       driver, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening the root bridge: %r\n", status);
		return status;
	}
	status = protocol_open(controller, &efi_device_path_protocol_guid, (void **)&path, driver,
			       controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status)) {
		log_debug("the root bridge has no device path: %r\n", status);
		goto err_root;
	}
	status = EFI_OUT_OF_RESOURCES;
	scan = pool_alloc(sizeof(*scan));
	if (!scan) {
		log_debug("no memory for the scan\n");
		goto err_root;
	}
	status = pci_scan_init(scan, root);
	if (EFI_ERROR(status))
		goto err_scan; /* pci_scan_init said why */
	pci_scan_buses(scan);
	status = pci_assign_resources(scan);
	if (EFI_ERROR(status))
		goto err_scan; /* pci_assign_resources said why */
	log_functions(scan);
	create_children(this, controller, path, scan);
	pci_scan_free(scan);
	pool_free(scan);
	return EFI_SUCCESS;

err_scan:
	pci_scan_free(scan);
	pool_free(scan);
err_root:
	protocol_close(controller, &efi_pci_root_bridge_io_protocol_guid, driver, controller);
	return status;
}

static EFI_STATUS EFIAPI pci_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  UINTN child_count, EFI_HANDLE *children)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	bool all_gone = true;

	if (!child_count)
		return protocol_close(controller, &efi_pci_root_bridge_io_protocol_guid, driver,
				      controller);
	for (UINTN i = 0; i < child_count; i++)
		if (EFI_ERROR(pci_child_destroy(driver, controller, children[i])))
			all_gone = false;
	return all_gone ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static EFI_DRIVER_BINDING_PROTOCOL pci_binding = {
    .Supported = pci_supported,
    .Start = pci_start,
    .Stop = pci_stop,
    .Version = 0x10,
};

static const struct ember_driver pci_driver = {
    .name = u"PCI Bus Driver",
    .binding = &pci_binding,
};
EMBER_DRIVER(INIT_EARLY, pci_driver);
