/* A NOR flash region as the variable store sees it: reads of any bytes, programming that
 * can only clear bits (1 -> 0), and erasure of whole blocks back to 0xFF. A platform
 * provides one for its non-volatile storage (a file for ember-run, the VARS pflash on
 * QEMU) by filling in the operations; they may run after ExitBootServices, so they use no
 * boot services. The platform converts the pointers inside its own device (these
 * operations, its MMIO base) at SetVirtualAddressMap; the store converts its pointer to
 * the device. */
#ifndef EMBER_FLASH_H
#define EMBER_FLASH_H

#include <efi/status.h>

struct flash_device {
	UINT32 size;	   /* bytes in the region, a multiple of block_size */
	UINT32 block_size; /* the erase unit */
	/* Copies size bytes at offset into buffer. */
	EFI_STATUS (*read)(struct flash_device *flash, UINT32 offset, void *buffer, UINT32 size);
	/* Programs size bytes at offset: each byte becomes (old & data), as NOR cells do. */
	EFI_STATUS (*program)(struct flash_device *flash, UINT32 offset, const void *data,
			      UINT32 size);
	/* Sets the block that starts at offset (block-aligned) to 0xFF. */
	EFI_STATUS (*erase)(struct flash_device *flash, UINT32 offset);
};

/* A flash over ordinary memory: the volatile store, ember-run's store (a mapped file),
 * the offline tool, tests. Programming follows NOR rules (old & data). */
struct flash_ram {
	struct flash_device dev;
	UINT8 *bytes;
};

/* Makes ram a flash of size bytes at bytes (size a multiple of block_size; the contents
 * are used as they are: fill with 0xFF for an erased flash). */
void flash_ram_init(struct flash_ram *ram, void *bytes, UINT32 size, UINT32 block_size);

#endif
