/* The variable store on QEMU's VARS pflash, directly below the code (drivers/cfi_flash);
 * with -bios the region is ROM and the variables live in RAM. */
#include <ember/core/varstore.h>
#include <ember/drivers/cfi_flash.h>
#include "qemu.h"
#include "reset/layout.h"

_Static_assert(FW_VARS_SIZE == VARSTORE_REGION_SIZE, "the VARS region is the store's region");

/* Where the VARS region is: directly below the code, in both -bios and pflash layouts. */
UINT64 pflash_vars_base(void)
{
	return 0x100000000ULL - FW_CODE_SIZE - FW_VARS_SIZE;
}

/* Starts the variable services on the VARS flash, or in RAM when it is not writable;
 * returns whether the variables are persistent. */
bool pflash_variables_start(void)
{
	struct cfi_flash_region region = {pflash_vars_base(), VARSTORE_BLOCK_SIZE, false};

	return cfi_flash_variables_start(&region, serial_raw_write);
}
