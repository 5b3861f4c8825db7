/* Page allocation and the memory map services (UEFI 2.10, section 7.2). */
#include "memmap.h"
#include "../services.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define MEMORY_LOCK_TPL TPL_NOTIFY
#define BELOW_4G 0xffffffffULL
/* Descriptors are larger than the structure, so callers must honour DescriptorSize. */
#define DESCRIPTOR_SIZE (sizeof(EFI_MEMORY_DESCRIPTOR) + sizeof(UINT64))

/* 64 KiB on AArch64, where the OS may use 64 KiB pages (mem_set_runtime_granularity). */
static UINT64 runtime_granularity = EFI_PAGE_SIZE;
static unsigned lock_depth; /* nesting of map_lock: the array's growth allocates inside */
static UINTN key_at_lock;

/* Takes the memory map lock; returns the TPL to give map_unlock. */
static EFI_TPL map_lock(void)
{
	EFI_TPL old = tpl_raise(MEMORY_LOCK_TPL);

	if (lock_depth++ == 0)
		key_at_lock = memmap_key();
	return old;
}

/* Releases the lock. When the outermost holder leaves a changed map, the map-change group
 * is signalled (UEFI 2.10, 7.1): still at the lock's TPL, so the notifications run once
 * the caller's TPL is back, when no memory code is on the way and the map is whole again
 * (a notification may allocate). Not after ExitBootServices: the boot-time events are
 * gone by then. */
static void map_unlock(EFI_TPL old)
{
	if (--lock_depth == 0 && memmap_key() != key_at_lock && !core_boot_services_exited)
		event_signal_group(&efi_event_group_memory_map_change_guid);
	tpl_restore(old);
}

/* Types a caller may allocate: the spec's own (minus free kinds) and the OEM/OS ranges. */
bool mem_type_is_allocatable(UINT32 type)
{
	if (type >= 0x70000000u)
		return true;
	return type < EfiMaxMemoryType && type != EfiConventionalMemory &&
	       type != EfiPersistentMemory && type != EfiUnacceptedMemoryType;
}

static bool is_free(const struct mem_range *r)
{
	return r->type == EfiConventionalMemory;
}

static bool is_owned(const struct mem_range *r)
{
	return r->allocated;
}

/* Retypes pages and gives them their new type's protection (protect.c). The map's array
 * is grown first, since the platform may allocate page tables for the change. */
static EFI_STATUS retype(UINT64 start, UINT64 pages, EFI_MEMORY_TYPE type, bool allocated)
{
	UINT64 protection = mem_type_protection(type);
	bool changed;
	EFI_STATUS status = memmap_retype(start, pages, type, allocated, protection, &changed);

	if (EFI_ERROR(status))
		return status;
	memmap_reserve();
	if (changed)
		mem_protection_apply(start, pages, protection);
	return EFI_SUCCESS;
}

void mem_set_runtime_granularity(UINT64 bytes)
{
	runtime_granularity = bytes > EFI_PAGE_SIZE ? bytes : EFI_PAGE_SIZE;
}

/* The alignment memory of this type gets: the types an OS maps for the runtime, or must
 * leave alone, fill whole pages of the OS's size (UEFI 2.10, 2.3.6: AArch64). */
static UINT64 type_granularity(UINT32 type)
{
	if (type == EfiRuntimeServicesCode || type == EfiRuntimeServicesData ||
	    type == EfiReservedMemoryType || type == EfiACPIMemoryNVS)
		return runtime_granularity;
	return EFI_PAGE_SIZE;
}

/* Highest address at which pages fit, aligned, ending at or below limit (inclusive). */
static bool find_free_top_down(UINT64 limit, UINTN pages, UINT64 align, UINT64 *found)
{
	size_t n;
	const struct mem_range *r = memmap_ranges(&n);
	UINT64 size = (UINT64)pages << EFI_PAGE_SHIFT;

	for (size_t i = n; i-- > 0;) {
		UINT64 end = mem_range_end(&r[i]), start;
		if (!is_free(&r[i]) || r[i].start > limit)
			continue;
		if (end - 1 > limit)
			end = limit + 1;
		if (end - r[i].start < size)
			continue;
		start = ALIGN_DOWN(end - size, align);
		if (start >= r[i].start) {
			*found = start;
			return true;
		}
	}
	return false;
}

/* AllocatePages with an alignment (a power of two, at least a page) for internal users. */
EFI_STATUS mem_allocate_aligned(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type, UINTN pages,
				UINT64 align, EFI_PHYSICAL_ADDRESS *memory)
{
	UINT64 granularity = type_granularity(memory_type), start = *memory, size;
	EFI_STATUS status = EFI_SUCCESS;
	EFI_TPL old;

	if (pages == 0 || pages > (UINT64)1 << (64 - EFI_PAGE_SHIFT - 1))
		return type == AllocateAnyPages ? EFI_OUT_OF_RESOURCES : EFI_NOT_FOUND;
	/* The caller gets whole granules; FreePages rounds the same way. */
	pages = ALIGN_UP((UINT64)pages, granularity >> EFI_PAGE_SHIFT);
	align = MAX(align, granularity);
	size = (UINT64)pages << EFI_PAGE_SHIFT;
	old = map_lock();
	if (type == AllocateAddress) {
		if (!IS_ALIGNED(start, granularity) || start + size < start ||
		    !memmap_span_is(start, pages, is_free))
			status = EFI_NOT_FOUND;
	} else {
		UINT64 limit = type == AllocateMaxAddress ? start : UINT64_MAX;
		bool found = false;
		/* Prefer 32-bit addressable memory, as devices do. */
		if (type == AllocateAnyPages)
			found = find_free_top_down(BELOW_4G, pages, align, &start);
		if (!found)
			found = find_free_top_down(limit, pages, align, &start);
		if (!found)
			status = EFI_OUT_OF_RESOURCES;
	}
	if (!EFI_ERROR(status))
		status = retype(start, pages, memory_type, true);
	if (!EFI_ERROR(status))
		*memory = start;
	map_unlock(old);
	return status;
}

EFI_STATUS mem_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type, UINTN pages,
			      EFI_PHYSICAL_ADDRESS *memory)
{
	return mem_allocate_aligned(type, memory_type, pages, EFI_PAGE_SIZE, memory);
}

EFI_STATUS mem_free_pages(EFI_PHYSICAL_ADDRESS memory, UINTN pages)
{
	EFI_STATUS status = EFI_NOT_FOUND;
	EFI_TPL old;

	const struct mem_range *r;
	UINT64 granularity;

	if (!IS_ALIGNED(memory, EFI_PAGE_SIZE) || pages == 0)
		return EFI_INVALID_PARAMETER;
	old = map_lock();
	/* Pages of a type allocated in granules are freed in granules. */
	r = memmap_find(memory);
	granularity = r && r->allocated ? type_granularity(r->type) : EFI_PAGE_SIZE;
	if (!IS_ALIGNED(memory, granularity))
		status = EFI_INVALID_PARAMETER;
	else
		pages = ALIGN_UP((UINT64)pages, granularity >> EFI_PAGE_SHIFT);
	if (status == EFI_NOT_FOUND && memmap_span_is(memory, pages, is_owned))
		status = retype(memory, pages, EfiConventionalMemory, false);
	map_unlock(old);
	return status;
}

bool mem_is_allocated(const void *address, UINTN size)
{
	UINT64 a = (UINT64)(uintptr_t)address, first = ALIGN_DOWN(a, EFI_PAGE_SIZE);
	UINT64 pages;
	EFI_TPL old;
	bool ok;

	if (size == 0 || a + size < a)
		return false;
	pages = EFI_SIZE_TO_PAGES(a + size - first);
	old = tpl_raise(MEMORY_LOCK_TPL);
	ok = memmap_span_is(first, pages, is_owned);
	tpl_restore(old);
	return ok;
}

/* Number of descriptors after merging neighbours of equal type and attributes. */
static size_t merged_count(const struct mem_range *r, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || mem_range_end(&r[i - 1]) != r[i].start ||
		    r[i - 1].type != r[i].type || r[i - 1].attribute != r[i].attribute)
			out++;
	return out;
}

/* GetMemoryMap's work: never allocates, so the map it returns is the map that is. */
EFI_STATUS mem_get_map(UINTN *map_size, EFI_MEMORY_DESCRIPTOR *map, UINTN *map_key,
		       UINTN *descriptor_size, UINT32 *descriptor_version)
{
	EFI_TPL old = tpl_raise(MEMORY_LOCK_TPL);
	size_t n;
	const struct mem_range *r = memmap_ranges(&n);
	UINTN needed = merged_count(r, n) * DESCRIPTOR_SIZE;
	EFI_STATUS status = EFI_SUCCESS;

	if (descriptor_size)
		*descriptor_size = DESCRIPTOR_SIZE;
	if (descriptor_version)
		*descriptor_version = EFI_MEMORY_DESCRIPTOR_VERSION;
	if (*map_size < needed) {
		status = EFI_BUFFER_TOO_SMALL;
	} else if (!map) {
		status = EFI_INVALID_PARAMETER;
	} else {
		UINT8 *out = (UINT8 *)map;
		EFI_MEMORY_DESCRIPTOR *d = NULL;
		for (size_t i = 0; i < n; i++) {
			if (d &&
			    d->PhysicalStart + (d->NumberOfPages << EFI_PAGE_SHIFT) == r[i].start &&
			    d->Type == r[i].type && d->Attribute == r[i].attribute) {
				d->NumberOfPages += r[i].pages;
				continue;
			}
			d = (EFI_MEMORY_DESCRIPTOR *)out;
			mem_set(out, 0, DESCRIPTOR_SIZE);
			d->Type = r[i].type;
			d->PhysicalStart = r[i].start;
			d->NumberOfPages = r[i].pages;
			d->Attribute = r[i].attribute;
			out += DESCRIPTOR_SIZE;
		}
		if (map_key)
			*map_key = memmap_key();
	}
	*map_size = needed;
	tpl_restore(old);
	return status;
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type,
				     UINTN pages, EFI_PHYSICAL_ADDRESS *memory)
{
	if ((UINT32)type >= MaxAllocateType || !mem_type_is_allocatable(memory_type) || !memory)
		return EFI_INVALID_PARAMETER;
	return mem_allocate_pages(type, memory_type, pages, memory);
}

EFI_STATUS EFIAPI efi_free_pages(EFI_PHYSICAL_ADDRESS memory, UINTN pages)
{
	return mem_free_pages(memory, pages);
}

EFI_STATUS EFIAPI efi_get_memory_map(UINTN *map_size, EFI_MEMORY_DESCRIPTOR *map, UINTN *map_key,
				     UINTN *descriptor_size, UINT32 *descriptor_version)
{
	if (!map_size)
		return EFI_INVALID_PARAMETER;
	return mem_get_map(map_size, map, map_key, descriptor_size, descriptor_version);
}

/* Takes the platform's view of memory at start-up. */
EFI_STATUS mem_init(const struct core_memory_range *ranges, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		EFI_STATUS status = memmap_add(ranges[i].base, ranges[i].pages, ranges[i].type,
					       ranges[i].attribute);
		if (EFI_ERROR(status))
			return status;
	}
	memmap_reserve();
	return EFI_SUCCESS;
}
