/* Device path nodes (UEFI 2.10, 10.2-10.3): walking, measuring, validating and filling them.
 * Pure logic (lib/devpath_node.c): no allocation, so the library, the applications and the
 * core share it. */
#ifndef EMBER_LIB_DEVPATH_NODE_H
#define EMBER_LIB_DEVPATH_NODE_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>

/* Size of the End node that terminates every path. */
#define DP_END_SIZE 4

/* ---- Walking nodes (the caller trusts the path) ---- */

/* The node's Length field. */
UINTN dp_node_length(const EFI_DEVICE_PATH_PROTOCOL *node);
/* True for End Entire Device Path. */
bool dp_is_end(const EFI_DEVICE_PATH_PROTOCOL *node);
/* True for End This Instance or End Entire. */
bool dp_is_end_instance(const EFI_DEVICE_PATH_PROTOCOL *node);
/* The node following this one. */
EFI_DEVICE_PATH_PROTOCOL *dp_next(const EFI_DEVICE_PATH_PROTOCOL *node);
/* Bytes in the path including its End node; 0 for NULL or a node shorter than 4 bytes. */
UINTN dp_size(const EFI_DEVICE_PATH_PROTOCOL *path);
/* Fills a node header (the length is little-endian and unaligned), or an End node. */
void dp_set_node(EFI_DEVICE_PATH_PROTOCOL *node, UINT8 type, UINT8 subtype, UINTN length);
void dp_set_end(EFI_DEVICE_PATH_PROTOCOL *node);

/* Validates an untrusted path: every node header lies within max_size bytes, every length
 * is at least 4 and fits, End nodes are exactly 4 bytes, and an End Entire node comes
 * before max_size runs out. max_size 0 means no bound (the caller vouches for the memory). */
bool dp_is_valid(const EFI_DEVICE_PATH_PROTOCOL *path, UINTN max_size);
/* True when path holds more than one instance. */
bool dp_is_multi_instance(const EFI_DEVICE_PATH_PROTOCOL *path);
/* True when path begins with every node of prefix except its final End node
 * (a NULL prefix is empty; a NULL path starts with nothing). */
bool dp_starts_with(const EFI_DEVICE_PATH_PROTOCOL *path, const EFI_DEVICE_PATH_PROTOCOL *prefix);

#endif
