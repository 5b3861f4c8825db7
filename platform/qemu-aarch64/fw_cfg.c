/* QEMU's fw_cfg on MMIO (the virt machine's "qemu,fw-cfg-mmio"): a big-endian 16-bit
 * selector at +8 and the data register at +0, read a byte at a time. (DMA at +16 is not
 * used yet.) */
#include <ember/lib/str.h>
#include "aarch64.h"

#define FW_CFG_DATA 0x00
#define FW_CFG_SELECTOR 0x08
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR 0x0019
#define FILE_NAME_SIZE 56

static void select_item(uint16_t select)
{
	*(volatile uint16_t *)(uintptr_t)(machine.fw_cfg_base + FW_CFG_SELECTOR) =
	    __builtin_bswap16(select);
}

typedef uint64_t __attribute__((aligned(1), may_alias)) unaligned_u64;

void fw_cfg_read(uint16_t select, void *buffer, uint32_t size)
{
	uint8_t *bytes = buffer;
	uint32_t i = 0;

	if (!machine.fw_cfg_base)
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
