/* fw_cfg's transport on x86-64: every item is a byte stream; the DMA interface moves whole
 * buffers in one exit to QEMU, which matters for big items (kernels, ACPI tables) under
 * TCG. */
#define LOG_PREFIX "fw_cfg: "
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "tables/fw_cfg.h"
#include "cpu/io.h"

#define PORT_SELECTOR 0x510
#define PORT_DATA 0x511
#define PORT_DMA 0x514

/* Fields are big-endian, as the device reads them. */
struct dma_access {
	uint32_t control;
	uint32_t length;
	uint64_t address;
} __attribute__((aligned(16)));

static bool present, has_dma;
static struct dma_access dma;

static uint32_t be32(uint32_t v)
{
	return __builtin_bswap32(v);
}

/* One DMA transfer; false when the device flags an error. */
static bool dma_transfer(uint32_t control, void *buffer, uint32_t size)
{
	uint64_t address = (uint64_t)(uintptr_t)&dma;

	dma.control = be32(control);
	dma.length = be32(size);
	dma.address = __builtin_bswap64((uint64_t)(uintptr_t)buffer);
	__asm__ __volatile__("" ::: "memory");
	/* High half first; writing the low half starts the transfer. */
	outl(PORT_DMA, be32((uint32_t)(address >> 32)));
	outl(PORT_DMA + 4, be32((uint32_t)address));
	while (be32(*(volatile uint32_t *)&dma.control) & ~FW_CFG_DMA_ERROR)
		;
	return !(be32(dma.control) & FW_CFG_DMA_ERROR);
}

bool fw_cfg_init(void)
{
	char signature[4];

	outw(PORT_SELECTOR, FW_CFG_SIGNATURE);
	for (int i = 0; i < 4; i++)
		signature[i] = (char)inb(PORT_DATA);
	present = mem_cmp(signature, "QEMU", 4) == 0;
	if (present)
		has_dma = fw_cfg_read32(FW_CFG_ID) & FW_CFG_FEATURE_DMA;
	return present;
}

bool fw_cfg_present(void)
{
	return present;
}

void fw_cfg_read_at(uint16_t select, uint32_t offset, void *buffer, uint32_t size)
{
	uint8_t *out = buffer;

	if (!present) {
		mem_set(buffer, 0, size);
		return;
	}
	if (has_dma) {
		uint32_t selected = ((uint32_t)select << 16) | FW_CFG_DMA_SELECT;
		bool ok = true;
		if (offset) {
			ok = dma_transfer(selected | FW_CFG_DMA_SKIP, NULL, offset);
			ok &= dma_transfer(FW_CFG_DMA_READ, buffer, size);
		} else {
			ok = dma_transfer(selected | FW_CFG_DMA_READ, buffer, size);
		}
		if (!ok)
			log_debug("item %#x: DMA read of %u bytes at %u failed\n", select, size,
				  offset);
		return;
	}
	outw(PORT_SELECTOR, select);
	for (uint32_t i = 0; i < offset; i++)
		inb(PORT_DATA);
	for (uint32_t i = 0; i < size; i++)
		out[i] = inb(PORT_DATA);
}

/* Writing goes through DMA only (the data port is read-only since QEMU 2.4). */
bool fw_cfg_write_at(uint16_t select, uint32_t offset, const void *buffer, uint32_t size)
{
	uint32_t selected = ((uint32_t)select << 16) | FW_CFG_DMA_SELECT;
	bool ok;

	if (!present || !has_dma) {
		log_debug("item %#x: writing needs the DMA interface\n", select);
		return false;
	}
	if (offset)
		ok = dma_transfer(selected | FW_CFG_DMA_SKIP, NULL, offset) &&
		     dma_transfer(FW_CFG_DMA_WRITE, (void *)buffer, size);
	else
		ok = dma_transfer(selected | FW_CFG_DMA_WRITE, (void *)buffer, size);
	if (!ok)
		log_debug("item %#x: DMA write of %u bytes at %u failed\n", select, size, offset);
	return ok;
}
