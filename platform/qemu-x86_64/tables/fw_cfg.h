/* QEMU's firmware configuration device (ports 0x510/0x511, DMA at 0x514). */
#ifndef QEMU_FW_CFG_H
#define QEMU_FW_CFG_H

#include <stdbool.h>
#include <stdint.h>

#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_ID 0x0001
#define FW_CFG_RAM_SIZE 0x0003
#define FW_CFG_NB_CPUS 0x0005
#define FW_CFG_BOOT_MENU 0x000e
#define FW_CFG_KERNEL_SIZE 0x0008
#define FW_CFG_KERNEL_DATA 0x0011
#define FW_CFG_INITRD_SIZE 0x000b
#define FW_CFG_INITRD_DATA 0x0012
#define FW_CFG_CMDLINE_SIZE 0x0014
#define FW_CFG_CMDLINE_DATA 0x0015
#define FW_CFG_SETUP_SIZE 0x0017
#define FW_CFG_SETUP_DATA 0x0018
#define FW_CFG_FILE_DIR 0x0019

/* Detects the device and whether it does DMA; false when there is no fw_cfg. */
bool fw_cfg_init(void);
/* The selector and size of a named file ("etc/e820"); false if absent. */
bool fw_cfg_find(const char *name, uint16_t *select, uint32_t *size);
/* Reads size bytes of an item from its start (or skips offset bytes first). */
void fw_cfg_read(uint16_t select, void *buffer, uint32_t size);
void fw_cfg_read_at(uint16_t select, uint32_t offset, void *buffer, uint32_t size);
/* Writes an item from its start (DMA only); false when the device refused it. */
bool fw_cfg_write(uint16_t select, const void *buffer, uint32_t size);
bool fw_cfg_write_at(uint16_t select, uint32_t offset, const void *buffer, uint32_t size);
uint16_t fw_cfg_read16(uint16_t select);
uint32_t fw_cfg_read32(uint16_t select);
uint64_t fw_cfg_read64(uint16_t select);

#endif
