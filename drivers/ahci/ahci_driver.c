/* The AHCI driver (UEFI driver model): binds to PciIo handles of class 01/06/01, resets the
 * HBA, starts every port with a device and gives each ATA or ATAPI device a child handle.
 * The HBA's DMA is stopped when the driver stops and at ExitBootServices. */
#define LOG_PREFIX "ahci: "
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/drivers/pci_driver.h>

#define AHCI_HBA_SIGNATURE SIGNATURE_32('a', 'h', 'c', 'i')
#define PCI_CLASS_CODE 0x09 /* programming interface, subclass, class */

struct ahci_instance {
	struct pci_driver_dev pci;
	struct ahci_hba hba;
};

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID device_path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

static bool is_ahci(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT8 class[3] = {0, 0, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, PCI_CLASS_CODE, 3, class);
	return class[2] == AHCI_PCI_CLASS && class[1] == AHCI_PCI_SUBCLASS &&
	       class[0] == AHCI_PCI_PROG_IF;
}

/* A remaining path, when given, must be End or name one SATA device. */
static bool remaining_ok(EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (!remaining || dp_is_end(remaining))
		return true;
	return remaining->Type == MESSAGING_DEVICE_PATH && remaining->SubType == MSG_SATA_DP &&
	       dp_node_length(remaining) == sizeof(SATA_DEVICE_PATH);
}

static EFI_STATUS EFIAPI ahci_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (!remaining_ok(remaining))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller, &pci_io_guid, is_ahci);
}

static void EFIAPI ahci_exit_boot_services(EFI_EVENT event, void *context)
{
	ahci_hba_quiesce(context);
}

/* Bus mastering once the HBA's registers can be read: CAP says whether it can do 64-bit
 * DMA. (pci_driver_start has enabled memory decoding.) */
static EFI_STATUS enable_dma(struct ahci_instance *inst)
{
	UINT64 dac = 0;

	if (ahci_read(&inst->hba, AHCI_CAP) & AHCI_CAP_S64A)
		dac = EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE;
	return pci_driver_enable(&inst->pci, EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, dac);
}

/* Starts each implemented port; a device that answers becomes a child. */
static void start_ports(struct ahci_hba *hba, bool create_children)
{
	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *port = &hba->ports[i];

		if (!(hba->ports_implemented & (1u << i)))
			continue;
		if (EFI_ERROR(ahci_port_start(hba, i)))
			continue;
		if (!create_children || EFI_ERROR(ahci_device_create(hba, port)))
			ahci_port_release(port);
	}
}

static void release_ports(struct ahci_hba *hba)
{
	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++)
		ahci_port_release(&hba->ports[i]);
}

/* Everything Start does once the PCI function is open. */
static EFI_STATUS start_hba(struct ahci_instance *inst, EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ahci_hba *hba = &inst->hba;
	EFI_STATUS status;

	status = protocol_open(hba->controller, &device_path_guid, (void **)&hba->path, hba->driver,
			       hba->controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status)) {
		log_debug("no device path: %r\n", status);
		return status;
	}
	status = enable_dma(inst);
	if (EFI_ERROR(status))
		return status;
	status = ahci_hba_init(hba);
	if (EFI_ERROR(status)) {
		log_debug("HBA reset: %r\n", status);
		return status;
	}
	status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, ahci_exit_boot_services,
			      hba, NULL, &hba->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		return status;
	}
	/* An End remaining path asks for the controller alone, without children. */
	start_ports(hba, !remaining || !dp_is_end(remaining));
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ahci_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ahci_instance *inst = pool_alloc(sizeof(*inst));
	struct ahci_hba *hba;
	EFI_STATUS status;

	if (!inst)
		return EFI_OUT_OF_RESOURCES;
	status = pci_driver_start(&inst->pci, this->DriverBindingHandle, controller,
				  EFI_PCI_IO_ATTRIBUTE_MEMORY, 0);
	if (EFI_ERROR(status))
		goto err_free;
	hba = &inst->hba;
	hba->controller = controller;
	hba->driver = this->DriverBindingHandle;
	hba->pci_io = inst->pci.pci_io;
	status = start_hba(inst, remaining);
	if (EFI_ERROR(status))
		goto err_pci;
	hba->signature = AHCI_HBA_SIGNATURE;
	return EFI_SUCCESS;

err_pci:
	log_warn("cannot start the controller: %r\n", status);
	pci_driver_stop(&inst->pci);
err_free:
	pool_free(inst);
	return status;
}

static struct ahci_instance *instance_on(EFI_DRIVER_BINDING_PROTOCOL *binding,
					 EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct ahci_instance, pci) : NULL;
}

static EFI_STATUS stop_children(struct ahci_hba *hba, UINTN count, EFI_HANDLE *children)
{
	EFI_STATUS result = EFI_SUCCESS;

	for (UINTN i = 0; i < count; i++) {
		struct ahci_device *dev = ahci_device_on(hba, children[i]);

		if (!dev || EFI_ERROR(ahci_device_destroy(hba, dev)))
			result = EFI_DEVICE_ERROR;
	}
	return result;
}

static EFI_STATUS EFIAPI ahci_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct ahci_instance *inst = instance_on(this, controller);
	struct ahci_hba *hba;

	if (!inst)
		return EFI_UNSUPPORTED;
	hba = &inst->hba;
	if (child_count)
		return stop_children(hba, child_count, children);
	event_close(hba->exit_event);
	release_ports(hba);
	pci_driver_stop(&inst->pci);
	hba->signature = 0;
	pool_free(inst);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL ahci_binding;

static EFI_STATUS EFIAPI ahci_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct ahci_instance *inst = instance_on(&ahci_binding, controller);
	struct ahci_device *dev;

	if (!inst)
		return EFI_UNSUPPORTED;
	if (!child) {
		*name = (CHAR16 *)u"AHCI Host Controller";
		return EFI_SUCCESS;
	}
	dev = ahci_device_on(&inst->hba, child);
	if (!dev)
		return EFI_UNSUPPORTED;
	*name = dev->atapi ? (CHAR16 *)u"SATA CD/DVD Drive" : (CHAR16 *)u"SATA Disk";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL ahci_binding = {
    .Supported = ahci_supported,
    .Start = ahci_start,
    .Stop = ahci_stop,
    .Version = 0x10,
};

static const struct ember_driver ahci_driver = {
    .name = u"AHCI Host Controller Driver",
    .binding = &ahci_binding,
    .controller_name = ahci_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, ahci_driver);
