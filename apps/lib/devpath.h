/* Device path helpers for applications: walking, measuring, comparing and building
 * device paths (UEFI 2.10, chapter 10). Built paths come from pool and are freed with
 * app_free(). */
#ifndef APP_LIB_DEVPATH_H
#define APP_LIB_DEVPATH_H

#include "app.h"

/* The length of one node, from its unaligned Length field. */
static inline UINT16 dp_node_len(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	return (UINT16)(n->Length[0] | (n->Length[1] << 8));
}

static inline void dp_set_len(EFI_DEVICE_PATH_PROTOCOL *n, UINT16 len)
{
	n->Length[0] = (UINT8)len;
	n->Length[1] = (UINT8)(len >> 8);
}

static inline bool dp_is_end(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	return n->Type == END_DEVICE_PATH_TYPE && n->SubType == END_ENTIRE_DEVICE_PATH_SUBTYPE;
}

static inline EFI_DEVICE_PATH_PROTOCOL *dp_next(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	return (EFI_DEVICE_PATH_PROTOCOL *)((const UINT8 *)n + dp_node_len(n));
}

/* Size in bytes including the end node; 0 when a node is malformed (length < 4). */
size_t dp_size(const EFI_DEVICE_PATH_PROTOCOL *dp);

/* Whether both paths have identical bytes up to and including their end nodes. */
bool dp_equal(const EFI_DEVICE_PATH_PROTOCOL *a, const EFI_DEVICE_PATH_PROTOCOL *b);

/* Writes an end-of-entire-path node. */
void dp_set_end(EFI_DEVICE_PATH_PROTOCOL *n);

/* A new path: `a` without its end node, followed by `b` (either may be NULL). */
EFI_DEVICE_PATH_PROTOCOL *dp_append(const EFI_DEVICE_PATH_PROTOCOL *a,
				    const EFI_DEVICE_PATH_PROTOCOL *b);

/* A new path of one vendor node per GUID (hardware vendor nodes), then the end node. */
EFI_DEVICE_PATH_PROTOCOL *dp_vendor_path(EFI_GUID *const *guids, size_t count);

/* A new path of a single file-path media node for `name`, then the end node. */
EFI_DEVICE_PATH_PROTOCOL *dp_file_path(const CHAR16 *name);

#endif
