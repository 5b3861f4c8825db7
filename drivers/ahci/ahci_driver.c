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
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define AHCI_HBA_SIGNATURE SIGNATURE_32('a', 'h', 'c', 'i')
#define PCI_CLASS_CODE 0x09 /* programming interface, subclass, class */

struct ahci_instance {
	struct pci_driver_dev pci;
	struct ahci_hba hba;
};

static bool is_ahci(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT8 class[3] = {0, 0, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, PCI_CLASS_CODE, 3, class);
	return class[2] == AHCI_PCI_CLASS && class[1] == AHCI_PCI_SUBCLASS &&
	       class[0] == AHCI_PCI_PROG_IF;
}

/* The ports a remaining path asks for (UEFI 2.10, 11.1): NULL all of them, End none, a
 * Sata(port,0xFFFF,0) node that port; false for any other node, which names nothing this
 * driver creates (a device behind a port multiplier, a LUN other than 0). */
static bool ports_asked(EFI_DEVICE_PATH_PROTOCOL *remaining, UINT32 *ports)
{
	SATA_DEVICE_PATH sata;

	*ports = remaining ? 0 : 0xffffffff;
	if (!remaining || dp_is_end(remaining))
		return true;
	if (remaining->Type != MESSAGING_DEVICE_PATH || remaining->SubType != MSG_SATA_DP ||
	    dp_node_length(remaining) != sizeof(sata))
		return false;
	mem_copy(&sata, remaining, sizeof(sata)); /* a node need not be aligned */
	if (sata.HBAPortNumber >= AHCI_MAX_PORTS ||
	    sata.PortMultiplierPortNumber != AHCI_NO_PORT_MULTIPLIER || sata.Lun)
		return false;
	*ports = 1u << sata.HBAPortNumber;
	return true;
}

/* The ports asked for that Start should try for a child: those without one, and for a NULL
 * remaining path only those that may give one now: not tried yet, or empty when last tried
 * and showing a device on the link since. A device that could not become a child is tried
 * again only when a remaining path names its port, since each try may cost the driver's
 * timeouts. */
static UINT32 ports_to_try(struct ahci_hba *hba, UINT32 asked, EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	UINT32 ports = 0;

	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_port *port = &hba->ports[i];

		if (!(asked & hba->ports_implemented & (1u << i)) || port->device)
			continue;
		if (remaining || port->probe == AHCI_PROBE_UNTRIED ||
		    (port->probe == AHCI_PROBE_EMPTY && ahci_port_link_seen(port)))
			ports |= 1u << i;
	}
	return ports;
}

static struct ahci_instance *instance_on(EFI_DRIVER_BINDING_PROTOCOL *binding,
					 EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct ahci_instance, pci) : NULL;
}

/* A controller this driver started is supported again while a child asked for is missing:
 * a bus driver's Start creates the children that do not exist yet (11.1), so that a child
 * stopped alone, or not created by a Start that was given an End node, can come back. */
static EFI_STATUS EFIAPI ahci_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ahci_instance *inst;
	UINT32 asked;
	EFI_STATUS status;

	if (!ports_asked(remaining, &asked))
		return EFI_UNSUPPORTED;
	status = driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
				 is_ahci);
	if (status != EFI_ALREADY_STARTED)
		return status;
	inst = instance_on(this, controller);
	if (inst && ports_to_try(&inst->hba, asked, remaining))
		return EFI_SUCCESS;
	return EFI_ALREADY_STARTED;
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

/* Starts a port and makes its device a child, or remembers why it gave none. */
static EFI_STATUS start_port(struct ahci_hba *hba, UINT8 index)
{
	struct ahci_port *port = &hba->ports[index];
	EFI_STATUS status = ahci_port_start(hba, index);

	if (status == EFI_NOT_FOUND) {
		port->probe = AHCI_PROBE_EMPTY;
		return status;
	}
	if (EFI_ERROR(status)) {
		log_debug("port %u does not start: %r\n", index, status);
		port->probe = AHCI_PROBE_FAILED;
		return status;
	}
	status = ahci_device_create(hba, port);
	if (EFI_ERROR(status)) {
		log_debug("port %u: no child: %r\n", index, status);
		port->probe = AHCI_PROBE_FAILED;
		ahci_port_release(port);
	}
	return status;
}

/* Starts the ports given; EFI_SUCCESS when one of them gave a child, else why the last gave
 * none (EFI_NOT_FOUND without ports). */
static EFI_STATUS start_ports(struct ahci_hba *hba, UINT32 ports)
{
	EFI_STATUS status = EFI_NOT_FOUND;
	bool created = false;

	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++) {
		if (!(ports & (1u << i)))
			continue;
		status = start_port(hba, i);
		created |= !EFI_ERROR(status);
	}
	return created ? EFI_SUCCESS : status;
}

static void release_ports(struct ahci_hba *hba)
{
	for (UINT8 i = 0; i < AHCI_MAX_PORTS; i++)
		ahci_port_release(&hba->ports[i]);
}

/* Everything Start does once the PCI function is open; then the children asked for. */
static EFI_STATUS start_hba(struct ahci_instance *inst, UINT32 asked,
			    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ahci_hba *hba = &inst->hba;
	EFI_STATUS status;

	status = protocol_open(hba->controller, &efi_device_path_protocol_guid, (void **)&hba->path,
			       hba->driver, hba->controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
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
	/* The controller is started even when no child could be made. */
	start_ports(hba, ports_to_try(hba, asked, remaining));
	return EFI_SUCCESS;
}

static EFI_STATUS start_controller(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINT32 asked, EFI_DEVICE_PATH_PROTOCOL *remaining)
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
	status = start_hba(inst, asked, remaining);
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

/* Starts the controller, or on one already started creates the children asked for that do
 * not exist yet (EFI_ALREADY_STARTED when there are none to try). */
static EFI_STATUS EFIAPI ahci_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ahci_instance *inst = instance_on(this, controller);
	UINT32 asked, ports;

	if (!ports_asked(remaining, &asked))
		return EFI_UNSUPPORTED;
	if (!inst)
		return start_controller(this, controller, asked, remaining);
	ports = ports_to_try(&inst->hba, asked, remaining);
	return ports ? start_ports(&inst->hba, ports) : EFI_ALREADY_STARTED;
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
	*name = dev->ata.atapi ? (CHAR16 *)u"SATA CD/DVD Drive" : (CHAR16 *)u"SATA Disk";
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
