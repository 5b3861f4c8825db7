/* Memory protection: the access attributes (EFI_MEMORY_RP, RO, XP) of every page the
 * memory map describes, kept in the map's ranges beside their type and applied by the
 * platform's page tables (plat_memory_protect). Each type has a default (the NX policy,
 * mem_type_protection) that a page gets whenever it is allocated or freed, so what an
 * image or a program set on its pages is undone when they are given back. */
#define LOG_PREFIX "mem: "
#include "memmap.h"
#include "../services.h"
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/lib/util.h>

#define PROTECTION_LOCK_TPL TPL_NOTIFY

static bool protection_on; /* the platform applies protections: mem_protection_start ran */

UINT64 mem_type_protection(UINT32 type)
{
	switch (type) {
	/* Code, and LoaderData, from which OS loaders (GRUB, the Linux EFI stub of 6.1
	 * relocating itself) run code they placed there without asking (docs/design.md). */
	case EfiLoaderCode:
	case EfiLoaderData:
	case EfiBootServicesCode:
	case EfiRuntimeServicesCode:
		return 0;
	default:
		return EFI_MEMORY_XP;
	}
}

bool mem_protection_enabled(void)
{
	return protection_on;
}

/* Gives the page tables the protection the map records for [start, start + pages);
 * called when it changed with a range's type. A failure (no memory to split a page
 * table) leaves the pages as they were: say so, nothing else can be done. */
void mem_protection_apply(UINT64 start, UINT64 pages, UINT64 protection)
{
	EFI_STATUS status;

	if (!protection_on)
		return;
	status = plat_memory_protect(start, pages, protection);
	if (EFI_ERROR(status))
		log_warn("Ember: cannot protect 0x%llx-0x%llx: %r\n", (unsigned long long)start,
			 (unsigned long long)(start + (pages << EFI_PAGE_SHIFT) - 1), status);
}

/* The first range ending after address, re-read at every step: the platform may
 * allocate page tables while it works, which changes the array. */
static const struct mem_range *range_from(UINT64 address)
{
	size_t n;
	const struct mem_range *r = memmap_ranges(&n);

	for (size_t i = 0; i < n; i++)
		if (mem_range_end(&r[i]) > address)
			return &r[i];
	return NULL;
}

EFI_STATUS mem_protection_start(void)
{
	EFI_TPL old = tpl_raise(PROTECTION_LOCK_TPL);
	const struct mem_range *r;
	EFI_STATUS status = EFI_SUCCESS;
	UINT64 at = 0;

	/* The map has recorded each type's protection from the start; the page tables
	 * catch up here, range by range. */
	while (!EFI_ERROR(status) && (r = range_from(at))) {
		UINT64 start = MAX(r->start, at), end = mem_range_end(r);
		status = plat_memory_protect(start, (end - start) >> EFI_PAGE_SHIFT, r->protection);
		at = end;
	}
	protection_on = !EFI_ERROR(status);
	tpl_restore(old);
	if (EFI_ERROR(status)) {
		log_warn("Ember: memory protection is off: %r\n", status);
		return status;
	}
	return mem_attribute_install();
}

static bool described_range(const struct mem_range *r)
{
	(void)r;
	return true; /* memmap_span_is checks that ranges cover the span */
}

static bool not_free(const struct mem_range *r)
{
	return r->type != EfiConventionalMemory;
}

/* Sets, then clears, attributes on each piece of the span whose protection changes. */
static EFI_STATUS protect_span(UINT64 start, UINT64 end, UINT64 set, UINT64 clear)
{
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT64 at = start; !EFI_ERROR(status) && at < end;) {
		const struct mem_range *r = memmap_find(at);
		UINT64 piece_end = MIN(mem_range_end(r), end),
		       pages = (piece_end - at) >> EFI_PAGE_SHIFT;
		UINT64 want = (r->protection | set) & ~clear;
		if (want != r->protection) {
			status = plat_memory_protect(at, pages, want);
			if (!EFI_ERROR(status))
				status = memmap_protect(at, pages, want);
			memmap_reserve();
		}
		at = piece_end;
	}
	return status;
}

EFI_STATUS mem_protect(UINT64 start, UINT64 pages, UINT64 set, UINT64 clear)
{
	EFI_TPL old = tpl_raise(PROTECTION_LOCK_TPL);
	EFI_STATUS status;

	if (!protection_on)
		status = EFI_UNSUPPORTED;
	else if (!memmap_span_is(start, pages, described_range))
		status = EFI_UNSUPPORTED; /* not memory the map knows */
	else if (!memmap_span_is(start, pages, not_free))
		status = EFI_ACCESS_DENIED; /* free memory keeps its protection */
	else
		status = protect_span(start, start + (pages << EFI_PAGE_SHIFT), set, clear);
	tpl_restore(old);
	return status;
}

EFI_STATUS mem_protection_start_with_image(UINT64 code, UINT64 data, UINT64 end)
{
	EFI_STATUS status = mem_protection_start();

	if (EFI_ERROR(status))
		return status; /* it said why */
	status = mem_protect(code, (data - code) >> EFI_PAGE_SHIFT, EFI_MEMORY_RO, EFI_MEMORY_XP);
	if (!EFI_ERROR(status))
		status =
		    mem_protect(data, (end - data) >> EFI_PAGE_SHIFT, EFI_MEMORY_XP, EFI_MEMORY_RO);
	if (EFI_ERROR(status))
		log_warn("Ember: the firmware image is not protected: %r\n", status);
	return status;
}

EFI_STATUS mem_get_protection(UINT64 start, UINT64 pages, UINT64 *attributes)
{
	EFI_TPL old = tpl_raise(PROTECTION_LOCK_TPL);
	UINT64 end = start + (pages << EFI_PAGE_SHIFT);
	EFI_STATUS status = EFI_SUCCESS;

	if (!memmap_span_is(start, pages, described_range)) {
		status = EFI_UNSUPPORTED;
	} else {
		*attributes = memmap_find(start)->protection;
		for (UINT64 at = start; at < end; at = mem_range_end(memmap_find(at)))
			if (memmap_find(at)->protection != *attributes)
				status = EFI_NO_MAPPING; /* not the same on every page */
	}
	tpl_restore(old);
	return status;
}
