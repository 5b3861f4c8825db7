/* The boot page's variables: BootOrder, Boot####, Timeout (UEFI 2.10, 3.3), read into the
 * page's varstore and written back from it. */
#ifndef APPS_SETUP_BOOT_VARS_H
#define APPS_SETUP_BOOT_VARS_H

#include "setup.h"
#include "pure/boot_store.h"

/* A global variable's value in a new pool block (its size in *size), NULL when missing. */
void *boot_var_read(const CHAR16 *name, UINTN *size, UINT32 *attributes);

/* The rows from BootOrder (the first BOOT_ROWS), their state, and Timeout. */
EFI_STATUS boot_vars_load(struct boot_store *s);

/* Writes Timeout, each row's ACTIVE bit, deletes the removed rows' options, BootOrder. */
EFI_STATUS boot_vars_save(const struct boot_store *s);

/* An option's description (units CHAR16s); "(unreadable)" when it cannot be read. */
void boot_vars_description(UINT16 number, CHAR16 *out, size_t units);

/* Writes a new active Boot#### for path and appends it to BootOrder. */
EFI_STATUS boot_vars_add(const EFI_DEVICE_PATH_PROTOCOL *path, const CHAR16 *description);

#endif
