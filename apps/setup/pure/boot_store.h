/* The boot page's varstore ("SetupBoot"): what the browser edits of the boot options, one
 * row a Boot#### in BootOrder's order, and the rules of its changes. Pure, unit-tested. */
#ifndef APPS_SETUP_BOOT_STORE_H
#define APPS_SETUP_BOOT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

#define BOOT_ROWS 16

struct boot_store {
	UINT16 timeout;		  /* the Timeout variable, seconds */
	UINT16 count;		  /* rows in use */
	UINT16 number[BOOT_ROWS]; /* Boot#### of each row */
	UINT8 active[BOOT_ROWS];  /* LOAD_OPTION_ACTIVE of each row */
	UINT8 remove[BOOT_ROWS];  /* deleted when saved */
};

#define BOOT_OFF_TIMEOUT 0
#define BOOT_OFF_ACTIVE(row) (4 + 2 * BOOT_ROWS + (row))

/* Swaps row with the one above (up) or below it: false when there is none. */
bool boot_store_move(struct boot_store *s, unsigned row, bool up);

/* The new BootOrder: the kept rows in order, then the entries of old (old_count) that no
 * row names (options the page does not show, or added since it was read). Writes at most
 * room entries into out; returns how many there are. */
size_t boot_store_order(const struct boot_store *s, const UINT16 *old, size_t old_count,
			UINT16 *out, size_t room);

#endif
