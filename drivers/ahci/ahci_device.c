/* Devices behind AHCI ports as child handles: the shared ATA layer's disks and ATAPI drives
 * (BlockIo and BlockIo2) with the device path <controller>/Sata(port,0xFFFF,0) and the
 * controller's PciIo opened BY_CHILD_CONTROLLER, over this driver's transport: commands in
 * slot 0, transfers cut into mapped, command-sized pieces. */
#define LOG_PREFIX "ahci: "
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static struct ahci_device *to_ahci(struct ata_dev *ata)
{
	return container_of(ata, struct ahci_device, ata);
}

/* Runs a command of the shared layer: a mapped chunk's data straight from its device
 * address, small transfers in host memory (IDENTIFY data, sense, capacity) through the
 * port's scratch buffer. */
static EFI_STATUS ahci_ata_exec(struct ata_dev *ata, struct ata_request *r)
{
	struct ahci_port *port = to_ahci(ata)->port;
	struct ahci_request req = {
	    .ata = r->ata,
	    .cdb = r->cdb,
	    .data = r->mapped ? r->addr : ahci_scratch_addr(port),
	    .bytes = r->bytes,
	    .write = r->write,
	    .timeout_ms = r->timeout_ms,
	};
	bool bounce = r->bytes && !r->mapped;
	EFI_STATUS status;

	if (bounce && r->bytes > AHCI_SCRATCH_BYTES)
		return EFI_INVALID_PARAMETER;
	if (bounce && r->write)
		mem_copy(ahci_scratch(port), r->buffer, r->bytes);
	status = ahci_exec(port, &req);
	r->error = req.error;
	r->transferred = EFI_ERROR(status) ? 0 : r->bytes;
	if (bounce && !r->write && !EFI_ERROR(status))
		mem_copy(r->buffer, ahci_scratch(port), r->bytes);
	return status;
}

static EFI_STATUS ahci_ata_reset(struct ata_dev *ata)
{
	return ahci_port_recover(to_ahci(ata)->port);
}

/* Maps the next piece of the buffer; *bytes comes back as whole blocks. */
static EFI_STATUS map_chunk(struct ahci_device *dev, bool write, UINT8 *p, UINTN *bytes,
			    UINT64 *addr, void **mapping)
{
	struct ahci_hba *hba = dev->port->hba;
	EFI_STATUS status = ahci_map(hba, write, p, bytes, addr, mapping);

	if (EFI_ERROR(status))
		return status;
	*bytes = ALIGN_DOWN(*bytes, (UINTN)dev->ata.blk.media.BlockSize);
	if (!*bytes || (*addr & 1)) {
		ahci_unmap(hba, *mapping);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

/* Cuts a transfer into mapped pieces the PRDT of one command covers. */
static EFI_STATUS ahci_ata_transfer(struct ata_dev *ata, EFI_LBA lba, UINTN size, void *buffer,
				    bool write, ata_chunk_fn chunk)
{
	struct ahci_device *dev = to_ahci(ata);
	UINT32 block = ata->blk.media.BlockSize;
	UINT64 max = MIN((UINT64)ata->max_blocks * block,
			 (UINT64)AHCI_PRDT_PER_COMMAND * AHCI_PRD_MAX_BYTES);
	UINT8 *p = buffer;

	max = ALIGN_DOWN(max, (UINT64)block);
	while (size) {
		UINTN bytes = (UINTN)MIN((UINT64)size, max);
		UINT64 addr;
		void *mapping;
		EFI_STATUS status = map_chunk(dev, write, p, &bytes, &addr, &mapping);

		if (EFI_ERROR(status))
			return status;
		status = chunk(ata, lba, (UINT32)(bytes / block), p, addr, true, write);
		ahci_unmap(dev->port->hba, mapping);
		if (EFI_ERROR(status))
			return status;
		p += bytes;
		size -= bytes;
		lba += bytes / block;
	}
	return EFI_SUCCESS;
}

static const struct ata_transport_ops ahci_transport = {
    .exec = ahci_ata_exec,
    .reset = ahci_ata_reset,
    .transfer = ahci_ata_transfer,
};

static EFI_DEVICE_PATH_PROTOCOL *sata_path(struct ahci_hba *hba, UINT8 port)
{
	SATA_DEVICE_PATH node = {
	    .Header = {MESSAGING_DEVICE_PATH, MSG_SATA_DP, {sizeof(SATA_DEVICE_PATH), 0}},
	    .HBAPortNumber = port,
	    .PortMultiplierPortNumber = AHCI_NO_PORT_MULTIPLIER,
	    .Lun = 0,
	};

	return dp_append_node(hba->path, &node.Header);
}

static EFI_STATUS probe(struct ahci_device *dev)
{
	UINT32 sig = dev->port->signature;

	dev->ata.ops = &ahci_transport;
	dev->ata.dma = true;
	dev->ata.name = dev->name;
	format_sn(dev->name, sizeof(dev->name), "port %u", dev->port->index);
	if (sig == AHCI_SIG_ATA)
		return ata_disk_probe(&dev->ata);
	if (sig == AHCI_SIG_ATAPI)
		return ata_atapi_probe(&dev->ata);
	log_info("ahci: port %u: device with signature %#x is not supported\n", dev->port->index,
		 sig);
	return EFI_UNSUPPORTED;
}

EFI_STATUS ahci_device_create(struct ahci_hba *hba, struct ahci_port *port)
{
	struct ahci_device *dev = pool_alloc(sizeof(*dev));
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status;

	if (!dev)
		return EFI_OUT_OF_RESOURCES;
	dev->port = port;
	status = probe(dev);
	if (EFI_ERROR(status))
		goto err_free;
	dev->path = sata_path(hba, port->index);
	if (!dev->path) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_free;
	}
	dev->ata.channel = port->index;
	dev->ata.device = AHCI_NO_PORT_MULTIPLIER;
	status = ata_dev_install(&dev->ata, &efi_disk_info_ahci_interface_guid, dev->path);
	if (EFI_ERROR(status))
		goto err_path;
	status =
	    protocol_open(hba->controller, &efi_pci_io_protocol_guid, (void **)&pci_io, hba->driver,
			  dev->ata.blk.handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status))
		goto err_uninstall;
	port->device = dev;
	return EFI_SUCCESS;

err_uninstall:
	ata_dev_uninstall(&dev->ata, dev->path);
err_path:
	pool_free(dev->path);
err_free:
	pool_free(dev);
	return status;
}

EFI_STATUS ahci_device_destroy(struct ahci_hba *hba, struct ahci_device *dev)
{
	EFI_HANDLE handle = dev->ata.blk.handle;
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status;

	protocol_close(hba->controller, &efi_pci_io_protocol_guid, hba->driver, handle);
	status = ata_dev_uninstall(&dev->ata, dev->path);
	if (EFI_ERROR(status)) {
		/* Still in use: the child stays, and so does its claim on the controller. */
		protocol_open(hba->controller, &efi_pci_io_protocol_guid, (void **)&pci_io,
			      hba->driver, handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	/* The port goes with its child: a later Start gives it new memory and probes again. */
	ahci_port_release(dev->port);
	dev->port->device = NULL;
	dev->port->probe = AHCI_PROBE_UNTRIED;
	dev->ata.blk.signature = 0;
	pool_free(dev->path);
	pool_free(dev);
	return EFI_SUCCESS;
}

struct ahci_device *ahci_device_on(struct ahci_hba *hba, EFI_HANDLE child)
{
	for (UINT32 i = 0; i < AHCI_MAX_PORTS; i++) {
		struct ahci_device *dev = hba->ports[i].device;

		if (dev && dev->ata.blk.handle == child)
			return dev;
	}
	return NULL;
}
