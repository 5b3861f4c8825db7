/* An editor of flattened device trees (the Devicetree Specification 0.4, chapter 5), for
 * EFI_DT_FIXUP_PROTOCOL: a checked tree is copied into a buffer in the canonical layout
 * (header, memory reservation block, structure block, strings block, packed, free room at
 * the end), where properties are set and nodes added, each edit bounded by the buffer. */
#ifndef EMBER_FDT_EDIT_H
#define EMBER_FDT_EDIT_H

#include <stdbool.h>
#include <ember/lib/fdt.h>

struct fdt_edit {
	UINT8 *blob;
	UINT32 capacity;
	struct fdt view; /* the reader's view of the tree as it stands (size: capacity) */
};

/* Copies the tree f (which passed fdt_check) into buffer (apart from f), capacity bytes;
 * false when it does not fit or its reservation block is unterminated. */
bool fdt_edit_copy(struct fdt_edit *e, const struct fdt *f, void *buffer, UINT32 capacity);

/* The bytes the tree uses (all blocks, without the free room). */
UINT32 fdt_edit_used(const struct fdt_edit *e);

/* Sets (adds or replaces) the node's property; false when the buffer is too small. */
bool fdt_edit_set_prop(struct fdt_edit *e, long node, const char *name, const void *value,
		       UINT32 len);

/* Adds a node named name as parent's first child; its offset, or -1 when there is no room. */
long fdt_edit_add_node(struct fdt_edit *e, long parent, const char *name);

/* Sets the header's total size (the buffer the tree will live in, at least what it uses). */
void fdt_edit_set_total(struct fdt_edit *e, UINT32 total);

/* The fix-up Ember applies for the machine: the first memory node's reg becomes the RAM
 * [base, base + size) (a "memory@..." node is added when there is none), in the cells of the
 * root's #address-cells and #size-cells; false when the buffer is too small or the cells
 * cannot hold the numbers. */
bool fdt_edit_set_memory(struct fdt_edit *e, UINT64 base, UINT64 size);

/* Calls fn for each reservation of the tree (which passed fdt_check): the memory reservation
 * block's entries, then the reg ranges of the enabled children of /reserved-memory (no_map: the
 * node says "no-map"); a child whose reg does not parse is skipped. Stops at fn's false,
 * and returns false then. */
typedef bool (*fdt_reservation_fn)(void *ctx, UINT64 base, UINT64 size, bool no_map);
bool fdt_reservations(const struct fdt *f, fdt_reservation_fn fn, void *ctx);

#endif
