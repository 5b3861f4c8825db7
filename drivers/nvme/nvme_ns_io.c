/* A namespace's blocks (NVM Express 1.4, 6.9 Read, 6.15 Write, 6.8 Flush): callers' buffers
 * mapped through PciIo piece by piece, each piece one command described by PRPs. BlockIo
 * reports no write caching, so when the controller has a volatile write cache each write
 * is followed by a FLUSH: the data is on the medium when WriteBlocks returns. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/log.h>
#include <ember/lib/util.h>

static struct nvme_ns *to_ns(struct blkdev *blk)
{
	return container_of(blk, struct nvme_ns, blk);
}

static EFI_STATUS rw_command(struct nvme_ns *ns, bool write, EFI_LBA lba, UINT32 blocks,
			     UINT64 data)
{
	struct nvme_ctrl *c = ns->ctrl;
	struct nvme_cmd cmd = {.timeout_ns = NVME_IO_TIMEOUT_NS};
	EFI_STATUS status;

	cmd.sqe.cdw0 = write ? NVME_CMD_WRITE : NVME_CMD_READ;
	cmd.sqe.nsid = ns->nsid;
	cmd.sqe.cdw10 = (UINT32)lba;
	cmd.sqe.cdw11 = (UINT32)(lba >> 32);
	cmd.sqe.cdw12 = blocks - 1;
	if (!nvme_prp_fill(c, &cmd.sqe, data, blocks * ns->blk.media.BlockSize))
		return EFI_INVALID_PARAMETER;
	status = nvme_exec(c, &c->io, &cmd);
	if (EFI_ERROR(status)) {
		log_warn("namespace %u: %s of %u blocks at %llu: %r\n", ns->nsid,
			 write ? "write" : "read", blocks, (unsigned long long)lba, status);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

/* Maps the next piece of the buffer, at most max bytes; *bytes comes back as whole blocks. */
static EFI_STATUS map_piece(struct nvme_ns *ns, bool write, UINT8 *p, UINTN *bytes, UINT64 *addr,
			    void **mapping)
{
	EFI_PCI_IO_PROTOCOL *pci_io = ns->ctrl->pci_io;
	/* BusMasterRead: the controller reads memory (a disk write). */
	EFI_PCI_IO_PROTOCOL_OPERATION op =
	    write ? EfiPciIoOperationBusMasterRead : EfiPciIoOperationBusMasterWrite;
	EFI_STATUS status = pci_io->Map(pci_io, op, p, bytes, addr, mapping);

	if (EFI_ERROR(status))
		return status;
	*bytes = ALIGN_DOWN(*bytes, (UINTN)ns->blk.media.BlockSize);
	if (!*bytes || (*addr & 3)) {
		pci_io->Unmap(pci_io, *mapping);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS transfer(struct nvme_ns *ns, bool write, EFI_LBA lba, UINTN size, UINT8 *p)
{
	UINT32 block = ns->blk.media.BlockSize;
	UINTN max = (UINTN)ns->max_blocks * block;

	while (size) {
		UINTN bytes = MIN(size, max);
		UINT64 addr;
		void *mapping;
		EFI_STATUS status = map_piece(ns, write, p, &bytes, &addr, &mapping);

		if (EFI_ERROR(status))
			return status;
		status = rw_command(ns, write, lba, (UINT32)(bytes / block), addr);
		ns->ctrl->pci_io->Unmap(ns->ctrl->pci_io, mapping);
		if (EFI_ERROR(status))
			return status;
		p += bytes;
		size -= bytes;
		lba += bytes / block;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS ns_flush(struct blkdev *blk)
{
	struct nvme_ns *ns = to_ns(blk);
	struct nvme_ctrl *c = ns->ctrl;
	struct nvme_cmd cmd = {.timeout_ns = NVME_IO_TIMEOUT_NS};

	if (!c->info.volatile_cache)
		return EFI_SUCCESS;
	cmd.sqe.cdw0 = NVME_CMD_FLUSH;
	cmd.sqe.nsid = ns->nsid;
	if (EFI_ERROR(nvme_exec(c, &c->io, &cmd))) {
		log_warn("namespace %u: flush failed\n", ns->nsid);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS ns_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	return transfer(to_ns(blk), false, lba, size, buffer);
}

static EFI_STATUS ns_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	EFI_STATUS status = transfer(to_ns(blk), true, lba, size, (UINT8 *)buffer);

	/* Write-through, as the media promises (WriteCaching FALSE). */
	return EFI_ERROR(status) ? status : ns_flush(blk);
}

static EFI_STATUS ns_reset(struct blkdev *blk, bool extended)
{
	struct nvme_ctrl *c = to_ns(blk)->ctrl;

	/* Only a controller that lost a command needs more than nothing. */
	if (c->needs_reset && EFI_ERROR(nvme_ctrl_recover(c)))
		return EFI_DEVICE_ERROR;
	return EFI_SUCCESS;
}

const struct blkdev_ops nvme_ns_ops = {
    .read = ns_read,
    .write = ns_write,
    .flush = ns_flush,
    .reset = ns_reset,
};
