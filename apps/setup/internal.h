/* The setup app's own parts, shared between its files (pages use setup.h only). */
#ifndef APPS_SETUP_INTERNAL_H
#define APPS_SETUP_INTERNAL_H

#include "setup.h"
#include <efi/protocol/hii_config_routing.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/hii_string.h>

#define SETUP_FORMS_ROOM 16384
#define SETUP_STRINGS_ROOM 16384

/* The form set's GUID, also its varstores' and its vendor device path's. */
extern const EFI_GUID setup_formset_guid;

/* The protocols the app uses, found at start (main.c). */
extern EFI_HII_CONFIG_ROUTING_PROTOCOL *setup_routing;
extern EFI_FORM_BROWSER2_PROTOCOL *setup_browser;
extern EFI_HII_STRING_PROTOCOL *setup_strings;
extern EFI_HII_DATABASE_PROTOCOL *setup_database;
/* The published package list, 0 between two builds. */
extern EFI_HII_HANDLE setup_hii;

/* The Config Access protocol of the app's handle (access.c). */
extern EFI_HII_CONFIG_ACCESS_PROTOCOL setup_access;

/* The form a page asked to reopen after a rebuild (setup_rebuild), 0 for none. */
extern EFI_FORM_ID setup_reopen;

/* The package list of the form set (build.c), in a new pool block; NULL on failure. */
EFI_HII_PACKAGE_LIST_HEADER *setup_package_list(void);

#endif
