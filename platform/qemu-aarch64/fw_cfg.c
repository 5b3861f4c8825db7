/* fw_cfg's transport on the virt machine ("qemu,fw-cfg-mmio"): a big-endian 16-bit
 * selector at +8, the data register at +0 (read only), and the DMA address register at +16:
 * writes (etc/ramfb, the table loader's pointers) and big reads (kernels, RAM disks, ACPI
 * tables) go through DMA, one exit to QEMU per request instead of one per 8 bytes. */
#include <ember/lib/str.h>
#include "aarch64.h"

#define FW_CFG_DATA 0x00
#define FW_CFG_SELECTOR 0x08
#define FW_CFG_DMA 0x10
#define DMA_POLL_LIMIT 10000000
/* Reads this long or longer go through DMA when the device has it. */
#define DMA_READ_MIN 64

static void select_item(uint16_t select)
{
	*(volatile uint16_t *)(uintptr_t)(machine.fw_cfg_base + FW_CFG_SELECTOR) =
	    __builtin_bswap16(select);
}

typedef uint64_t __attribute__((aligned(1), may_alias)) unaligned_u64;

/* A DMA request (big-endian fields), in RAM where QEMU reads it and writes its status. */
struct dma_access {
	uint32_t control, length;
	uint64_t address;
};

bool fw_cfg_present(void)
{
	static int known = -1;
	uint8_t signature[4];

	if (known < 0) {
		known = 0;
		if (!machine.fw_cfg_base)
			return false;
		select_item(FW_CFG_SIGNATURE);
		for (int i = 0; i < 4; i++)
			signature[i] = mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
		known = mem_cmp(signature, "QEMU", 4) == 0;
	}
	return known;
}

static bool has_dma(void)
{
	static int known = -1;
	uint8_t features[4];

	if (known < 0) {
		select_item(FW_CFG_ID);
		for (int i = 0; i < 4; i++)
			features[i] = mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
		known = features[0] & FW_CFG_FEATURE_DMA;
	}
	return known;
}

/* One DMA request (control: the operation bits); true when QEMU did it without error. */
static bool dma(uint32_t control, void *buffer, uint32_t size)
{
	static struct dma_access request;
	uint32_t status = 0;

	request.control = __builtin_bswap32(control);
	request.length = __builtin_bswap32(size);
	request.address = __builtin_bswap64((uint64_t)(uintptr_t)buffer);
	/* The request and the buffer in memory before the device is told. */
	__asm__ __volatile__("dsb sy" : : : "memory");
	*(volatile uint64_t *)(uintptr_t)(machine.fw_cfg_base + FW_CFG_DMA) =
	    __builtin_bswap64((uint64_t)(uintptr_t)&request);
	for (uint32_t i = 0; i < DMA_POLL_LIMIT; i++) {
		status = __builtin_bswap32(*(volatile uint32_t *)&request.control);
		if (!(status & ~FW_CFG_DMA_ERROR))
			break;
	}
	__asm__ __volatile__("dsb sy" : : : "memory");
	return !status;
}

/* Selects an item and moves offset bytes into it: the data register and DMA share the
 * position. */
static bool seek(uint16_t select, uint32_t offset)
{
	uint32_t selected = (uint32_t)select << 16 | FW_CFG_DMA_SELECT;

	if (has_dma())
		return dma(selected | FW_CFG_DMA_SKIP, NULL, offset);
	select_item(select);
	for (uint32_t i = 0; i < offset; i++)
		mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
	return true;
}

void fw_cfg_read_at(uint16_t select, uint32_t offset, void *buffer, uint32_t size)
{
	uint8_t *bytes = buffer;
	uint32_t i = 0;

	if (!fw_cfg_present()) {
		mem_set(buffer, 0, size);
		return;
	}
	if (!seek(select, offset)) {
		mem_set(buffer, 0, size);
		return;
	}
	if (size >= DMA_READ_MIN && has_dma()) {
		/* A failed transfer leaves the position unknown: nothing sound to read then. */
		if (!dma(FW_CFG_DMA_READ, buffer, size))
			mem_set(buffer, 0, size);
		return;
	}
	/* Eight bytes a read where there are eight (the register is big-endian, so a load
	 * gives them in memory order): one trap to QEMU instead of eight. */
	for (; i + 8 <= size; i += 8)
		*(unaligned_u64 *)(bytes + i) =
		    *(volatile uint64_t *)(uintptr_t)(machine.fw_cfg_base + FW_CFG_DATA);
	for (; i < size; i++)
		bytes[i] = mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
}

bool fw_cfg_write_at(uint16_t select, uint32_t offset, const void *buffer, uint32_t size)
{
	if (!fw_cfg_present() || !has_dma())
		return false; /* the data register is read-only: writing needs DMA */
	if (offset && !seek(select, offset))
		return false;
	return dma((uint32_t)(offset ? 0 : (uint32_t)select << 16 | FW_CFG_DMA_SELECT) |
		       FW_CFG_DMA_WRITE,
		   (void *)buffer, size);
}
