/* The memory map: sorted, non-overlapping page ranges, each with its type, attributes and
 * whether the core's allocator owns it (FreePages may only give back what it owns). */
#ifndef CORE_MEM_MEMMAP_H
#define CORE_MEM_MEMMAP_H

#include <stdbool.h>
#include <efi/boot_services.h>

struct mem_range {
	UINT64 start; /* physical address, page-aligned */
	UINT64 pages;
	UINT64 attribute;
	UINT32 type;
	bool allocated;	   /* handed out by AllocatePages (or pool), so it can be freed */
	UINT64 protection; /* EFI_MEMORY_RP/RO/XP now in the page tables (not in GetMemoryMap) */
};

static inline UINT64 mem_range_end(const struct mem_range *r)
{
	return r->start + (r->pages << EFI_PAGE_SHIFT);
}

/* The ranges, in address order. Valid until the next change. */
const struct mem_range *memmap_ranges(size_t *count);
/* The current map key: changes with every change to the map. */
UINTN memmap_key(void);

/* Adds a platform range at start-up (no overlap with existing ranges). */
EFI_STATUS memmap_add(UINT64 start, UINT64 pages, EFI_MEMORY_TYPE type, UINT64 attribute);

/* Retypes [start, start + pages): each existing piece keeps its cache attributes; the
 * runtime attribute follows the new type, the protection becomes the one given (*changed
 * says whether any piece had another). The caller has checked the span. */
EFI_STATUS memmap_retype(UINT64 start, UINT64 pages, EFI_MEMORY_TYPE type, bool allocated,
			 UINT64 protection, bool *changed);

/* Records protection for every page of [start, start + pages), splitting and merging
 * ranges; the caller has checked that the map describes the whole span. */
EFI_STATUS memmap_protect(UINT64 start, UINT64 pages, UINT64 protection);

/* The range holding address, or NULL when the map does not describe it. */
const struct mem_range *memmap_find(UINT64 address);

/* True when every page of [start, start + pages) is in a range matching the predicate. */
bool memmap_span_is(UINT64 start, UINT64 pages, bool (*match)(const struct mem_range *));

/* Grows the range array ahead of need; called after every change, outside the retype. */
void memmap_reserve(void);

#endif
