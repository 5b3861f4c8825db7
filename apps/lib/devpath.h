/* Device path helpers for applications: comparing and building device paths (UEFI 2.10,
 * chapter 10); walking them comes from lib/devpath_node.c. Built paths come from pool and
 * are freed with app_free(). */
#ifndef APP_LIB_DEVPATH_H
#define APP_LIB_DEVPATH_H

#include "app.h"
#include <ember/lib/devpath_node.h>

/* Whether both paths have identical bytes up to and including their end nodes. */
bool dp_equal(const EFI_DEVICE_PATH_PROTOCOL *a, const EFI_DEVICE_PATH_PROTOCOL *b);

/* A new path: `a` without its end node, followed by `b` (either may be NULL). */
EFI_DEVICE_PATH_PROTOCOL *dp_append(const EFI_DEVICE_PATH_PROTOCOL *a,
				    const EFI_DEVICE_PATH_PROTOCOL *b);

/* A new path of one vendor node per GUID (hardware vendor nodes), then the end node. */
EFI_DEVICE_PATH_PROTOCOL *dp_vendor_path(EFI_GUID *const *guids, size_t count);

/* A new path of a single file-path media node for `name`, then the end node. */
EFI_DEVICE_PATH_PROTOCOL *dp_file_path(const CHAR16 *name);

#endif
