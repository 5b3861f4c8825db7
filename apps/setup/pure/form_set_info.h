/* What the setup screen shows of another driver's form set: its GUID and title, read from
 * the package list the HII database exports for it (bounded by the size given: the bytes
 * come from outside the app). */
#ifndef APPS_SETUP_FORM_SET_INFO_H
#define APPS_SETUP_FORM_SET_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>
#include <efi/protocol/hii_package_list.h>

struct form_set_info {
	EFI_GUID guid;
	EFI_STRING_ID title;
};

/* The first form set of the package list's first forms package (UEFI 2.10, 33.3.1 and
 * 33.3.8: EFI_IFR_FORM_SET); false when there is none or the bytes are not well formed. */
bool form_set_info(const UINT8 *list, size_t size, struct form_set_info *out);

#endif
