/* The boot page's parts shared between boot_page.c and boot_file.c. */
#ifndef APPS_SETUP_BOOT_PAGE_H
#define APPS_SETUP_BOOT_PAGE_H

#include "boot_vars.h"

/* Lets the user pick a file and adds an active boot option for it; asks for a rebuild. */
EFI_STATUS boot_file_add(EFI_BROWSER_ACTION_REQUEST *request);

/* Lets the user pick a file and starts it (LoadImage, StartImage). */
EFI_STATUS boot_file_start(void);

/* The device path of a file: its volume's path and a file-path node. Pool, NULL on failure. */
EFI_DEVICE_PATH_PROTOCOL *boot_file_path(EFI_HANDLE volume, const CHAR16 *path);

#endif
