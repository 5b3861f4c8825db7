/* QEMU's ramfb display (drivers/ramfb), published by the QEMU platforms over their fw_cfg. */
#ifndef EMBER_RAMFB_H
#define EMBER_RAMFB_H

#include <stdbool.h>
#include <stdint.h>
#include <efi/types.h>

/* How the platform reaches fw_cfg's files (etc/ramfb is written, by DMA). */
struct ramfb_fw_cfg {
	bool (*find)(const char *name, uint16_t *select, uint32_t *size);
	bool (*write)(uint16_t select, const void *buffer, uint32_t size);
};

/* Publishes a Graphics Output Protocol over the ramfb when QEMU has one (-device ramfb);
 * none is no error. */
EFI_STATUS ramfb_publish(const struct ramfb_fw_cfg *fw_cfg);

#endif
