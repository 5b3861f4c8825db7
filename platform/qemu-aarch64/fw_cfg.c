/* QEMU's fw_cfg on MMIO (the virt machine's "qemu,fw-cfg-mmio"): a big-endian 16-bit
 * selector at +8, the data register at +0 (read only), and the DMA address register at +16:
 * writes (etc/ramfb, the table loader's pointers) and big reads (RAM disks, ACPI tables)
 * go through DMA, one exit to QEMU per request instead of one per 8 bytes. */
#include <ember/lib/str.h>
#include "aarch64.h"

#define FW_CFG_DATA 0x00
#define FW_CFG_SELECTOR 0x08
#define FW_CFG_DMA 0x10
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_ID 0x0001
#define FEATURE_DMA 0x2
#define DMA_ERROR 0x01
#define DMA_READ 0x02
#define DMA_SKIP 0x04
#define DMA_SELECT 0x08
#define DMA_WRITE 0x10
#define DMA_POLL_LIMIT 10000000
#define FW_CFG_FILE_DIR 0x0019
#define FILE_NAME_SIZE 56
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

static bool has_dma(void)
{
	static int known = -1;
	uint8_t features[4];

	if (known < 0) {
		select_item(FW_CFG_ID);
		for (int i = 0; i < 4; i++)
			features[i] = mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
		known = features[0] & FEATURE_DMA;
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
		if (!(status & ~DMA_ERROR))
			break;
	}
	__asm__ __volatile__("dsb sy" : : : "memory");
	return !status;
}

void fw_cfg_read(uint16_t select, void *buffer, uint32_t size)
{
	uint8_t *bytes = buffer;
	uint32_t i = 0;

	if (!machine.fw_cfg_base)
		return;
	if (size >= DMA_READ_MIN && has_dma() &&
	    dma((uint32_t)select << 16 | DMA_SELECT | DMA_READ, buffer, size))
		return;
	select_item(select);
	/* Eight bytes a read where there are eight (the register is big-endian, so a load
	 * gives them in memory order): one trap to QEMU instead of eight. */
	for (; i + 8 <= size; i += 8)
		*(unaligned_u64 *)(bytes + i) =
		    *(volatile uint64_t *)(uintptr_t)(machine.fw_cfg_base + FW_CFG_DATA);
	for (; i < size; i++)
		bytes[i] = mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool fw_cfg_find(const char *name, uint16_t *select, uint32_t *size)
{
	uint8_t signature[4], count[4], entry[8 + FILE_NAME_SIZE];
	uint32_t files;

	if (!machine.fw_cfg_base)
		return false;
	fw_cfg_read(FW_CFG_SIGNATURE, signature, sizeof(signature));
	if (mem_cmp(signature, "QEMU", 4) != 0)
		return false;
	/* The directory: a count, then (size, select, reserved, name) entries, big-endian;
	 * the data register keeps its position between reads of the same item. */
	fw_cfg_read(FW_CFG_FILE_DIR, count, sizeof(count));
	files = be32(count);
	for (uint32_t i = 0; i < files; i++) {
		for (uint32_t j = 0; j < sizeof(entry); j++)
			entry[j] = mmio_read8(machine.fw_cfg_base + FW_CFG_DATA);
		entry[sizeof(entry) - 1] = 0;
		if (str8_cmp((const char *)entry + 8, name) == 0) {
			*size = be32(entry);
			*select = (uint16_t)(entry[4] << 8 | entry[5]);
			return true;
		}
	}
	return false;
}

bool fw_cfg_write_at(uint16_t select, uint32_t offset, const void *buffer, uint32_t size)
{
	if (!machine.fw_cfg_base || !has_dma())
		return false; /* the data register is read-only: writing needs DMA */
	if (offset && !dma((uint32_t)select << 16 | DMA_SELECT | DMA_SKIP, NULL, offset))
		return false;
	return dma((uint32_t)(offset ? 0 : (uint32_t)select << 16 | DMA_SELECT) | DMA_WRITE,
		   (void *)buffer, size);
}

bool fw_cfg_write(uint16_t select, const void *buffer, uint32_t size)
{
	return fw_cfg_write_at(select, 0, buffer, size);
}
