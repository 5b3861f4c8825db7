/* QEMU's firmware configuration device (fw_cfg), as both QEMU platforms reach it: x86-64
 * through I/O ports, AArch64's virt machine through MMIO. Each platform gives the transport
 * (fw_cfg_present, fw_cfg_read_at, fw_cfg_write_at); fw_cfg.c builds the rest on it, so the
 * code reading QEMU's items (the kernel, bootorder, ACPI and SMBIOS tables) is shared.
 * Items are byte streams; numeric items are little-endian, the file directory big-endian
 * (QEMU docs/specs/fw_cfg.rst). */
#ifndef EMBER_QEMU_FW_CFG_H
#define EMBER_QEMU_FW_CFG_H

#include <stdbool.h>
#include <stdint.h>

#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_ID 0x0001
#define FW_CFG_RAM_SIZE 0x0003
#define FW_CFG_NB_CPUS 0x0005
#define FW_CFG_KERNEL_SIZE 0x0008
#define FW_CFG_INITRD_SIZE 0x000b
#define FW_CFG_BOOT_MENU 0x000e
#define FW_CFG_KERNEL_DATA 0x0011
#define FW_CFG_INITRD_DATA 0x0012
#define FW_CFG_CMDLINE_SIZE 0x0014
#define FW_CFG_CMDLINE_DATA 0x0015
#define FW_CFG_SETUP_SIZE 0x0017
#define FW_CFG_SETUP_DATA 0x0018
#define FW_CFG_FILE_DIR 0x0019

/* FW_CFG_ID's bit for the DMA interface. */
#define FW_CFG_FEATURE_DMA 0x2
/* A DMA request's control bits; the device clears all but ERROR when it is done. */
#define FW_CFG_DMA_ERROR 0x01
#define FW_CFG_DMA_READ 0x02
#define FW_CFG_DMA_SKIP 0x04
#define FW_CFG_DMA_SELECT 0x08
#define FW_CFG_DMA_WRITE 0x10

/* The platform's transport: */
/* Whether the device is there (its signature reads "QEMU"). */
bool fw_cfg_present(void);
/* Reads size bytes of an item, offset bytes from its start; zeros without the device. */
void fw_cfg_read_at(uint16_t select, uint32_t offset, void *buffer, uint32_t size);
/* Writes an item offset bytes from its start (DMA only); false when the device refused. */
bool fw_cfg_write_at(uint16_t select, uint32_t offset, const void *buffer, uint32_t size);

/* Built on the transport (fw_cfg.c): */
/* Reads size bytes of an item from its start. */
void fw_cfg_read(uint16_t select, void *buffer, uint32_t size);
/* Writes an item from its start; false when the device refused. */
bool fw_cfg_write(uint16_t select, const void *buffer, uint32_t size);
/* A numeric item's value (0 without the device). */
uint16_t fw_cfg_read16(uint16_t select);
uint32_t fw_cfg_read32(uint16_t select);
uint64_t fw_cfg_read64(uint16_t select);
/* The selector and size of a named file ("etc/table-loader"); false if absent. */
bool fw_cfg_find(const char *name, uint16_t *select, uint32_t *size);

#endif
