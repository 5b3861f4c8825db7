/* A reader of flattened device trees (the Devicetree Specification 0.4, chapter 5), as
 * QEMU's Arm `virt` machine hands one to its firmware. Every read is bounded by the size
 * the blob was opened with; a malformed blob is refused, never guessed at. */
#ifndef EMBER_FDT_H
#define EMBER_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

struct fdt {
	const UINT8 *blob;
	UINT32 size;
	UINT32 struct_off, struct_size;
	UINT32 strings_off, strings_size;
	UINT32 rsv_off; /* the memory reservation block */
};

/* Checks the header of the blob at blob, at most size bytes; false when it is no tree. */
bool fdt_open(struct fdt *f, const void *blob, size_t size);

/* The offset of the first node after node `after` (-1: from the start) whose name is name
 * (with or without a unit address "@...") or, when name is NULL, whose compatible list
 * holds compatible; -1 when there is none or the structure is malformed. */
long fdt_find_node(const struct fdt *f, long after, const char *name, const char *compatible);

/* The value of the node's property name; false when it has none. */
bool fdt_get_prop(const struct fdt *f, long node, const char *name, const void **value,
		  UINT32 *len);

/* Whether the node's compatible list holds compatible. */
bool fdt_is_compatible(const struct fdt *f, long node, const char *compatible);

/* Reads the idx-th (address, size) pair of a reg property of cells-sized (1 or 2 cells)
 * numbers; false when reg is too short or absent. */
bool fdt_get_reg(const struct fdt *f, long node, UINT32 address_cells, UINT32 size_cells,
		 UINT32 idx, UINT64 *address, UINT64 *size);

/* Whether the whole structure block is well formed: one root node, nodes nested at most 64
 * deep and all closed, every property's value and name inside their blocks, FDT_END last. */
bool fdt_check(const struct fdt *f);

/* The offset after the node's properties (where its first child or its end is); 0 when the
 * node is malformed. */
UINT32 fdt_props_end(const struct fdt *f, long node);

/* The node's child after child prev (-1: the first one); -1 when there is no more. */
long fdt_next_child(const struct fdt *f, long parent, long prev);

/* The idx-th entry of the memory reservation block; false at its terminating (0, 0) entry
 * or where the block would run past the tree. */
bool fdt_mem_rsv(const struct fdt *f, UINT32 idx, UINT64 *address, UINT64 *size);

#endif
