/* The IDE controller driver (UEFI driver model): binds to PciIo handles of class 01/01
 * (PIIX3/PIIX4 IDE and the like), finds each channel's registers (legacy ports in
 * compatibility mode, BARs 0-3 in native mode, as the programming interface says), resets
 * the channels and gives each drive that answers a child handle. */
#define LOG_PREFIX "ide: "
#include "ide.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/drivers/pci_driver.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define PCI_CLASS_CODE 0x09 /* programming interface, subclass, class */
#define PCI_CLASS_MASS_STORAGE 0x01
#define PCI_SUBCLASS_IDE 0x01
#define ALL_DRIVES 0xf
#define PCI_BAR4 0x20 /* bit channel * 2 + drive */

/* Legacy ports of the two channels: command block and device control. */
static const UINT16 legacy_cmd[IDE_CHANNELS] = {0x1f0, 0x170};
static const UINT16 legacy_ctl[IDE_CHANNELS] = {0x3f6, 0x376};

struct ide_instance {
	struct pci_driver_dev pci;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINT8 prog_if;
	struct ide_channel channels[IDE_CHANNELS];
	void *prd_page; /* both channels' PRD tables, when bus mastering works */
	void *prd_mapping;
	EFI_EVENT exit_event;
};

static bool is_ide(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT8 class[3] = {0, 0, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, PCI_CLASS_CODE, 3, class);
	return class[2] == PCI_CLASS_MASS_STORAGE && class[1] == PCI_SUBCLASS_IDE;
}

/* The drives a remaining path asks for (UEFI 2.10, 11.1): NULL all, End none, an
 * Ata(channel,drive,0) node that one; false for any other node. */
static bool drives_asked(EFI_DEVICE_PATH_PROTOCOL *remaining, UINT32 *drives)
{
	ATAPI_DEVICE_PATH ata;

	*drives = remaining ? 0 : ALL_DRIVES;
	if (!remaining || dp_is_end(remaining))
		return true;
	if (remaining->Type != MESSAGING_DEVICE_PATH || remaining->SubType != MSG_ATAPI_DP ||
	    dp_node_length(remaining) != sizeof(ata))
		return false;
	mem_copy(&ata, remaining, sizeof(ata)); /* a node need not be aligned */
	if (ata.PrimarySecondary >= IDE_CHANNELS || ata.SlaveMaster >= IDE_DRIVES || ata.Lun)
		return false;
	*drives = 1u << (ata.PrimarySecondary * IDE_DRIVES + ata.SlaveMaster);
	return true;
}

/* Drives asked for that have no child and were not tried since Start (or since their child
 * was stopped), or all those without a child when a remaining path names one. */
static UINT32 drives_to_try(struct ide_instance *inst, UINT32 asked, bool named)
{
	UINT32 drives = 0;

	for (UINT32 i = 0; i < IDE_CHANNELS * IDE_DRIVES; i++) {
		struct ide_channel *ch = &inst->channels[i / IDE_DRIVES];

		if ((asked & (1u << i)) && !ch->devices[i % IDE_DRIVES] &&
		    (named || !ch->probed[i % IDE_DRIVES]))
			drives |= 1u << i;
	}
	return drives;
}

static struct ide_instance *instance_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct ide_instance, pci) : NULL;
}

static EFI_STATUS EFIAPI ide_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ide_instance *inst;
	UINT32 asked;
	EFI_STATUS status;

	if (!drives_asked(remaining, &asked))
		return EFI_UNSUPPORTED;
	status = driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
				 is_ide);
	if (status != EFI_ALREADY_STARTED)
		return status;
	inst = instance_on(this, controller);
	if (inst && drives_to_try(inst, asked, remaining && !dp_is_end(remaining)))
		return EFI_SUCCESS;
	return EFI_ALREADY_STARTED;
}

/* Where each channel's registers are: legacy ports unless the programming interface puts
 * the channel in native mode, then BAR 2n (command block) and BAR 2n+1 (control at 2). */
static void locate_channels(struct ide_instance *inst)
{
	for (UINT8 i = 0; i < IDE_CHANNELS; i++) {
		struct ide_channel *ch = &inst->channels[i];

		ch->pci_io = inst->pci.pci_io;
		ch->index = i;
		ch->selected = 0xff;
		if (inst->prog_if & IDE_PROG_IF_NATIVE(i)) {
			ch->cmd_bar = (UINT8)(2 * i);
			ch->cmd_base = 0;
			ch->ctl_bar = (UINT8)(2 * i + 1);
			ch->ctl_base = 2;
		} else {
			ch->cmd_bar = ch->ctl_bar = EFI_PCI_IO_PASS_THROUGH_BAR;
			ch->cmd_base = legacy_cmd[i];
			ch->ctl_base = legacy_ctl[i];
		}
	}
}

/* Tries the drives given of one channel. The signatures are read right after the reset,
 * before any command: a command's task file is written to both drives, over the other
 * drive's signature. */
static bool start_channel(EFI_DRIVER_BINDING_PROTOCOL *this, struct ide_instance *inst,
			  struct ide_channel *ch, UINT32 drives)
{
	bool found[IDE_DRIVES] = {false, false}, atapi[IDE_DRIVES] = {false, false};
	bool created = false;

	if (EFI_ERROR(ide_channel_reset(ch)))
		return false;
	for (UINT8 d = 0; d < IDE_DRIVES; d++)
		found[d] = (drives & (1u << d)) && !EFI_ERROR(ide_signature(ch, d, &atapi[d]));
	for (UINT8 d = 0; d < IDE_DRIVES; d++) {
		if (!(drives & (1u << d)))
			continue;
		ch->probed[d] = true;
		if (found[d])
			created |=
			    !EFI_ERROR(ide_device_create(ch, d, atapi[d], inst->pci.controller,
							 this->DriverBindingHandle, inst->path));
	}
	return created;
}

/* Tries the drives given, channel by channel; EFI_SUCCESS when one of them gave a child. */
static EFI_STATUS start_drives(EFI_DRIVER_BINDING_PROTOCOL *this, struct ide_instance *inst,
			       UINT32 drives)
{
	bool created = false;

	for (UINT8 c = 0; c < IDE_CHANNELS; c++) {
		UINT32 mine = drives >> (c * IDE_DRIVES) & ((1u << IDE_DRIVES) - 1);

		if (mine)
			created |= start_channel(this, inst, &inst->channels[c], mine);
	}
	return created ? EFI_SUCCESS : EFI_NOT_FOUND;
}

static void EFIAPI ide_exit_boot_services(EFI_EVENT event, void *context)
{
	struct ide_instance *inst = context;

	for (UINT8 i = 0; i < IDE_CHANNELS; i++)
		ide_dma_stop(&inst->channels[i]);
}

/* Whether BAR 4 holds the bus-master registers: an I/O BAR with an address. */
static bool has_bus_master(EFI_PCI_IO_PROTOCOL *pci_io)
{
	UINT32 bar = 0;

	if (EFI_ERROR(pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, PCI_BAR4, 1, &bar)))
		return false;
	return (bar & 1) && (bar & ~3u);
}

/* A page for the PRD tables, mapped for the bus master below 4 GiB. */
static EFI_STATUS map_prd_page(struct ide_instance *inst, UINT64 *addr)
{
	EFI_PCI_IO_PROTOCOL *pci_io = inst->pci.pci_io;
	UINTN bytes = EFI_PAGE_SIZE;
	void *host = NULL;
	EFI_STATUS status =
	    pci_io->AllocateBuffer(pci_io, AllocateAnyPages, EfiBootServicesData, 1, &host, 0);

	if (EFI_ERROR(status))
		return status;
	status = pci_io->Map(pci_io, EfiPciIoOperationBusMasterCommonBuffer, host, &bytes, addr,
			     &inst->prd_mapping);
	if (!EFI_ERROR(status) && (bytes < EFI_PAGE_SIZE || *addr >> 32)) {
		pci_io->Unmap(pci_io, inst->prd_mapping);
		status = EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(status)) {
		pci_io->FreeBuffer(pci_io, 1, host);
		return status;
	}
	inst->prd_page = host;
	return EFI_SUCCESS;
}

static void release_dma(struct ide_instance *inst)
{
	EFI_PCI_IO_PROTOCOL *pci_io = inst->pci.pci_io;

	if (!inst->prd_page)
		return;
	event_close(inst->exit_event);
	pci_io->Unmap(pci_io, inst->prd_mapping);
	pci_io->FreeBuffer(pci_io, 1, inst->prd_page);
	inst->prd_page = NULL;
}

/* Bus-master DMA for both channels where the function offers it; PIO otherwise. */
static void setup_dma(struct ide_instance *inst)
{
	UINT64 addr;
	EFI_STATUS status = EFI_UNSUPPORTED;

	if (has_bus_master(inst->pci.pci_io))
		status = pci_driver_enable(&inst->pci, EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, 0);
	if (!EFI_ERROR(status))
		status = map_prd_page(inst, &addr);
	if (!EFI_ERROR(status)) {
		status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK,
				      ide_exit_boot_services, inst, NULL, &inst->exit_event);
		if (EFI_ERROR(status))
			release_dma(inst);
	}
	if (EFI_ERROR(status)) {
		log_debug("no bus-master DMA, PIO only: %r\n", status);
		return;
	}
	for (UINT8 i = 0; i < IDE_CHANNELS; i++) {
		struct ide_channel *ch = &inst->channels[i];

		ch->dma = true;
		ch->prd = (UINT32 *)((UINT8 *)inst->prd_page + i * IDE_PRDS * IDE_PRD_BYTES);
		ch->prd_addr = addr + i * IDE_PRDS * IDE_PRD_BYTES;
	}
}

static EFI_STATUS open_controller(struct ide_instance *inst)
{
	EFI_PCI_IO_PROTOCOL *pci_io = inst->pci.pci_io;
	EFI_STATUS status;

	status = protocol_open(inst->pci.controller, &efi_device_path_protocol_guid,
			       (void **)&inst->path, inst->pci.driver, inst->pci.controller,
			       EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (EFI_ERROR(status)) {
		log_debug("no device path: %r\n", status);
		return status;
	}
	status = pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, PCI_CLASS_CODE, 1, &inst->prog_if);
	if (EFI_ERROR(status))
		log_debug("programming interface: %r\n", status);
	return status;
}

static EFI_STATUS start_controller(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINT32 asked)
{
	struct ide_instance *inst = pool_alloc(sizeof(*inst));
	EFI_STATUS status;

	if (!inst)
		return EFI_OUT_OF_RESOURCES;
	/* Legacy decoding where the bridge offers it; the ports answer on PIIX regardless. */
	status = pci_driver_start(
	    &inst->pci, this->DriverBindingHandle, controller, EFI_PCI_IO_ATTRIBUTE_IO,
	    EFI_PCI_IO_ATTRIBUTE_IDE_PRIMARY_IO | EFI_PCI_IO_ATTRIBUTE_IDE_SECONDARY_IO);
	if (EFI_ERROR(status))
		goto err_free;
	status = open_controller(inst);
	if (EFI_ERROR(status))
		goto err_pci;
	locate_channels(inst);
	setup_dma(inst);
	/* The controller is started even when no drive answers. */
	start_drives(this, inst, drives_to_try(inst, asked, false));
	return EFI_SUCCESS;

err_pci:
	log_warn("cannot start the controller: %r\n", status);
	pci_driver_stop(&inst->pci);
err_free:
	pool_free(inst);
	return status;
}

static EFI_STATUS EFIAPI ide_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct ide_instance *inst = instance_on(this, controller);
	bool named = remaining && !dp_is_end(remaining);
	UINT32 asked, drives;

	if (!drives_asked(remaining, &asked))
		return EFI_UNSUPPORTED;
	if (!inst)
		return start_controller(this, controller, asked);
	drives = drives_to_try(inst, asked, named);
	return drives ? start_drives(this, inst, drives) : EFI_ALREADY_STARTED;
}

static struct ide_device *device_on(struct ide_instance *inst, EFI_HANDLE child)
{
	for (UINT32 i = 0; i < IDE_CHANNELS * IDE_DRIVES; i++) {
		struct ide_device *dev = inst->channels[i / IDE_DRIVES].devices[i % IDE_DRIVES];

		if (dev && dev->ata.blk.handle == child)
			return dev;
	}
	return NULL;
}

static EFI_STATUS EFIAPI ide_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  UINTN child_count, EFI_HANDLE *children)
{
	struct ide_instance *inst = instance_on(this, controller);
	EFI_STATUS result = EFI_SUCCESS;

	if (!inst)
		return EFI_UNSUPPORTED;
	for (UINTN i = 0; i < child_count; i++) {
		struct ide_device *dev = device_on(inst, children[i]);

		if (!dev ||
		    EFI_ERROR(ide_device_destroy(dev, controller, this->DriverBindingHandle)))
			result = EFI_DEVICE_ERROR;
	}
	if (child_count)
		return result;
	release_dma(inst);
	pci_driver_stop(&inst->pci);
	pool_free(inst);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL ide_binding;

static EFI_STATUS EFIAPI ide_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					     EFI_HANDLE controller, EFI_HANDLE child,
					     CHAR8 *language, CHAR16 **name)
{
	struct ide_instance *inst = instance_on(&ide_binding, controller);
	struct ide_device *dev;

	if (!inst)
		return EFI_UNSUPPORTED;
	if (!child) {
		*name = (CHAR16 *)u"IDE Controller";
		return EFI_SUCCESS;
	}
	dev = device_on(inst, child);
	if (!dev)
		return EFI_UNSUPPORTED;
	*name = dev->ata.atapi ? (CHAR16 *)u"IDE CD/DVD Drive" : (CHAR16 *)u"IDE Disk";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL ide_binding = {
    .Supported = ide_supported,
    .Start = ide_start,
    .Stop = ide_stop,
    .Version = 0x10,
};

static const struct ember_driver ide_driver = {
    .name = u"IDE Controller Driver",
    .binding = &ide_binding,
    .controller_name = ide_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, ide_driver);
