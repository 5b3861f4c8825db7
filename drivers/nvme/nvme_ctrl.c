/* The NVMe controller: register access through PciIo (BAR 0), its DMA area, and bringing it
 * up and down (NVM Express 1.4, 7.6.1 initialisation, 7.6.2 shutdown), with the timeouts
 * CAP.TO gives. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define POLL_MAX_US 1000
#define TO_UNIT_NS 500000000ull /* CAP.TO counts 500 ms */

UINT32 nvme_read32(struct nvme_ctrl *c, UINT32 offset)
{
	UINT32 value = 0xffffffff;

	c->pci_io->Mem.Read(c->pci_io, EfiPciIoWidthUint32, NVME_BAR, offset, 1, &value);
	return value;
}

void nvme_write32(struct nvme_ctrl *c, UINT32 offset, UINT32 value)
{
	c->pci_io->Mem.Write(c->pci_io, EfiPciIoWidthUint32, NVME_BAR, offset, 1, &value);
}

void nvme_poll_pause(UINT64 start_ns)
{
	UINT64 waited_us = (core_time_ns() - start_ns) / 1000;

	/* An eighth of the time waited so far: quick completions are seen at once, and a long
	 * wait (a timeout of many seconds) costs few register reads. */
	core_stall_us(MIN(MAX(waited_us / 8, 1), POLL_MAX_US));
}

/* 64-bit registers as two dwords, low first: controllers need not take 64-bit accesses. */
static void write64(struct nvme_ctrl *c, UINT32 offset, UINT64 value)
{
	nvme_write32(c, offset, (UINT32)value);
	nvme_write32(c, offset + 4, (UINT32)(value >> 32));
}

void *nvme_page(struct nvme_ctrl *c, enum nvme_page page)
{
	return c->mem + (UINTN)page * NVME_PAGE_SIZE;
}

UINT64 nvme_page_addr(struct nvme_ctrl *c, enum nvme_page page)
{
	return c->mem_addr + (UINT64)page * NVME_PAGE_SIZE;
}

static EFI_STATUS alloc_area(struct nvme_ctrl *c)
{
	EFI_PCI_IO_PROTOCOL *pci_io = c->pci_io;
	UINTN bytes = NVME_PAGES * NVME_PAGE_SIZE;
	void *host;
	EFI_STATUS status;

	status = pci_io->AllocateBuffer(pci_io, AllocateAnyPages, EfiBootServicesData, NVME_PAGES,
					&host, 0);
	if (EFI_ERROR(status))
		return status;
	status = pci_io->Map(pci_io, EfiPciIoOperationBusMasterCommonBuffer, host, &bytes,
			     &c->mem_addr, &c->mem_mapping);
	if (EFI_ERROR(status))
		goto err_free;
	/* Queues and PRP lists must be page-aligned and contiguous for the controller. */
	if (bytes != NVME_PAGES * NVME_PAGE_SIZE || (c->mem_addr & (NVME_PAGE_SIZE - 1))) {
		status = EFI_OUT_OF_RESOURCES;
		goto err_unmap;
	}
	c->mem = host;
	mem_set(c->mem, 0, NVME_PAGES * NVME_PAGE_SIZE);
	return EFI_SUCCESS;

err_unmap:
	pci_io->Unmap(pci_io, c->mem_mapping);
err_free:
	pci_io->FreeBuffer(pci_io, NVME_PAGES, host);
	return status;
}

EFI_STATUS nvme_ctrl_init(struct nvme_ctrl *c)
{
	EFI_STATUS status;

	c->cap = nvme_read32(c, NVME_REG_CAP) | (UINT64)nvme_read32(c, NVME_REG_CAP + 4) << 32;
	c->version = nvme_read32(c, NVME_REG_VS);
	if (c->cap == UINT64_MAX || !NVME_CAP_CSS_NVM(c->cap) || NVME_CAP_MPSMIN(c->cap)) {
		/* The driver needs the NVM command set and 4 KiB pages. */
		log_debug("CAP %#llx: not usable\n", (unsigned long long)c->cap);
		return EFI_UNSUPPORTED;
	}
	c->doorbell_stride = 4u << NVME_CAP_DSTRD(c->cap);
	/* TO 0 would mean no wait at all: allow one unit. */
	c->ready_timeout_ns = (NVME_CAP_TO(c->cap) ? NVME_CAP_TO(c->cap) : 1) * TO_UNIT_NS;
	status = alloc_area(c);
	if (EFI_ERROR(status))
		log_debug("DMA area: %r\n", status);
	return status;
}

void nvme_ctrl_release(struct nvme_ctrl *c)
{
	if (!c->mem)
		return;
	c->pci_io->Unmap(c->pci_io, c->mem_mapping);
	c->pci_io->FreeBuffer(c->pci_io, NVME_PAGES, c->mem);
	c->mem = NULL;
}

/* Polls CSTS until (CSTS & mask) == value or CAP.TO has passed; a fatal status (CFS) ends
 * the wait too. */
static EFI_STATUS wait_status(struct nvme_ctrl *c, UINT32 mask, UINT32 value)
{
	UINT64 start = core_time_ns();

	for (;;) {
		UINT32 csts = nvme_read32(c, NVME_REG_CSTS);

		if (csts == 0xffffffff || (csts & NVME_CSTS_CFS))
			return EFI_DEVICE_ERROR;
		if ((csts & mask) == value)
			return EFI_SUCCESS;
		if (core_time_ns() - start >= c->ready_timeout_ns)
			return EFI_TIMEOUT;
		nvme_poll_pause(start);
	}
}

EFI_STATUS nvme_ctrl_disable(struct nvme_ctrl *c)
{
	UINT32 cc = nvme_read32(c, NVME_REG_CC);
	UINT32 csts = nvme_read32(c, NVME_REG_CSTS);

	c->io_created = false;
	if (!(cc & NVME_CC_EN) && !(csts & NVME_CSTS_RDY))
		return EFI_SUCCESS;
	nvme_write32(c, NVME_REG_CC, cc & ~NVME_CC_EN);
	/* CFS may be set by the failure that brought us here: only RDY matters now. */
	for (UINT64 start = core_time_ns();;) {
		if (!(nvme_read32(c, NVME_REG_CSTS) & NVME_CSTS_RDY))
			return EFI_SUCCESS;
		if (core_time_ns() - start >= c->ready_timeout_ns)
			return EFI_TIMEOUT;
		nvme_poll_pause(start);
	}
}

EFI_STATUS nvme_ctrl_enable(struct nvme_ctrl *c)
{
	UINT16 entries = (UINT16)MIN(NVME_QUEUE_ENTRIES, NVME_CAP_MQES(c->cap) + 1);
	EFI_STATUS status = nvme_ctrl_disable(c);

	if (EFI_ERROR(status)) {
		log_debug("disable: %r\n", status);
		return status;
	}
	nvme_queue_init(c, &c->admin, 0, entries);
	nvme_write32(c, NVME_REG_AQA, (UINT32)(entries - 1) << 16 | (UINT32)(entries - 1));
	write64(c, NVME_REG_ASQ, nvme_page_addr(c, NVME_PAGE_ADMIN_SQ));
	write64(c, NVME_REG_ACQ, nvme_page_addr(c, NVME_PAGE_ADMIN_CQ));
	nvme_write32(c, NVME_REG_CC,
		     NVME_CC_CSS_NVM | NVME_CC_MPS_4K | NVME_CC_AMS_RR | NVME_CC_IOSQES |
			 NVME_CC_IOCQES | NVME_CC_EN);
	status = wait_status(c, NVME_CSTS_RDY, NVME_CSTS_RDY);
	if (EFI_ERROR(status)) {
		log_debug("enable: %r (CSTS %#x)\n", status, nvme_read32(c, NVME_REG_CSTS));
		return status;
	}
	/* The driver polls: no interrupts (pin-based; MSI-X is never enabled). */
	nvme_write32(c, NVME_REG_INTMS, 0xffffffff);
	c->needs_reset = false;
	return EFI_SUCCESS;
}

void nvme_ctrl_shutdown(struct nvme_ctrl *c)
{
	UINT32 cc = nvme_read32(c, NVME_REG_CC);

	if (cc & NVME_CC_EN) {
		nvme_write32(c, NVME_REG_CC, (cc & ~NVME_CC_SHN_MASK) | NVME_CC_SHN_NORMAL);
		if (EFI_ERROR(wait_status(c, NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_DONE)))
			log_debug("shutdown did not complete\n");
	}
	if (EFI_ERROR(nvme_ctrl_disable(c)))
		log_debug("the controller did not stop\n");
}
