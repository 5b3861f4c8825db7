/* fw_cfg: every item is a byte stream; the DMA interface moves whole buffers in one exit
 * to QEMU, which matters for big items (kernels, ACPI tables) under TCG. */
#define LOG_PREFIX "fw_cfg: "
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "tables/fw_cfg.h"
#include "cpu/io.h"

#define PORT_SELECTOR 0x510
#define PORT_DATA 0x511
#define PORT_DMA 0x514
#define FEATURE_DMA 0x2

#define DMA_ERROR 0x01
#define DMA_READ 0x02
#define DMA_SKIP 0x04
#define DMA_SELECT 0x08
#define DMA_WRITE 0x10

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
	while (be32(*(volatile uint32_t *)&dma.control) & ~DMA_ERROR)
		;
	return !(be32(dma.control) & DMA_ERROR);
}

bool fw_cfg_init(void)
{
	char signature[4];

	outw(PORT_SELECTOR, FW_CFG_SIGNATURE);
	for (int i = 0; i < 4; i++)
		signature[i] = (char)inb(PORT_DATA);
	present = mem_cmp(signature, "QEMU", 4) == 0;
	if (present)
		has_dma = fw_cfg_read32(FW_CFG_ID) & FEATURE_DMA;
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
		uint32_t selected = ((uint32_t)select << 16) | DMA_SELECT;
		bool ok = true;
		if (offset) {
			ok = dma_transfer(selected | DMA_SKIP, NULL, offset);
			ok &= dma_transfer(DMA_READ, buffer, size);
		} else {
			ok = dma_transfer(selected | DMA_READ, buffer, size);
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

void fw_cfg_read(uint16_t select, void *buffer, uint32_t size)
{
	fw_cfg_read_at(select, 0, buffer, size);
}

/* Writing goes through DMA only (the data port is read-only since QEMU 2.4). */
static bool can_write(uint16_t select)
{
	if (present && has_dma)
		return true;
	log_debug("item %#x: writing needs the DMA interface\n", select);
	return false;
}

bool fw_cfg_write(uint16_t select, const void *buffer, uint32_t size)
{
	if (!can_write(select))
		return false;
	if (dma_transfer(((uint32_t)select << 16) | DMA_SELECT | DMA_WRITE, (void *)buffer, size))
		return true;
	log_debug("item %#x: DMA write of %u bytes failed\n", select, size);
	return false;
}

bool fw_cfg_write_at(uint16_t select, uint32_t offset, const void *buffer, uint32_t size)
{
	if (!can_write(select))
		return false;
	if (dma_transfer(((uint32_t)select << 16) | DMA_SELECT | DMA_SKIP, NULL, offset) &&
	    dma_transfer(DMA_WRITE, (void *)buffer, size))
		return true;
	log_debug("item %#x: DMA write of %u bytes at %u failed\n", select, size, offset);
	return false;
}

uint16_t fw_cfg_read16(uint16_t select)
{
	uint16_t v;

	fw_cfg_read(select, &v, sizeof(v));
	return v;
}

uint32_t fw_cfg_read32(uint16_t select)
{
	uint32_t v;

	fw_cfg_read(select, &v, sizeof(v));
	return v;
}

uint64_t fw_cfg_read64(uint16_t select)
{
	uint64_t v;

	fw_cfg_read(select, &v, sizeof(v));
	return v;
}

/* The directory: a big-endian count, then 64-byte entries {size, select, reserved, name}.
 * Read once; QEMU's directory does not change while the machine runs. */
struct dir_entry {
	uint32_t size;
	uint16_t select;
	uint16_t reserved;
	char name[56];
};
#define MAX_DIR_ENTRIES 256
static struct dir_entry directory[MAX_DIR_ENTRIES];
static uint32_t directory_count;
static bool directory_read;

bool fw_cfg_find(const char *name, uint16_t *select, uint32_t *size)
{
	if (!present)
		return false;
	if (!directory_read) {
		fw_cfg_read(FW_CFG_FILE_DIR, &directory_count, sizeof(directory_count));
		directory_count = be32(directory_count);
		if (directory_count > MAX_DIR_ENTRIES) {
			log_debug("%u files: only the first %u are looked at\n", directory_count,
				  MAX_DIR_ENTRIES);
			directory_count = MAX_DIR_ENTRIES;
		}
		fw_cfg_read_at(FW_CFG_FILE_DIR, 4, directory,
			       directory_count * (uint32_t)sizeof(directory[0]));
		directory_read = true;
	}
	for (uint32_t i = 0; i < directory_count; i++) {
		directory[i].name[55] = 0;
		if (str8_cmp(directory[i].name, name) == 0) {
			*select = __builtin_bswap16(directory[i].select);
			*size = be32(directory[i].size);
			return true;
		}
	}
	return false;
}
