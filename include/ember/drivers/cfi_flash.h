/* The variable store on a CFI flash with the Intel command set (drivers/cfi_flash): QEMU's
 * VARS pflash on x86-64 and AArch64. */
#ifndef EMBER_CFI_FLASH_H
#define EMBER_CFI_FLASH_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

/* Where the variables' flash is and how the platform sees it. */
struct cfi_flash_region {
	UINT64 address;	    /* VARSTORE_REGION_SIZE bytes from here */
	UINT32 block_size;  /* what the chip erases at once */
	bool device_memory; /* mapped as device memory, where only aligned loads work (AArch64) */
};

/* Starts the variable services on the flash region, or in RAM seeded from it when it does
 * not answer a CFI query (ROM) or does not work; returns whether the variables are
 * persistent. What the store lost on mounting is written with write too (the platform's
 * early output; NULL: the log only). */
bool cfi_flash_variables_start(const struct cfi_flash_region *region,
			       void (*write)(const char *s, size_t n));

#endif
