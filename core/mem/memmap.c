/* The memory map as a sorted array of ranges.
 * The array starts in static storage and grows into pages it allocates for itself; it
 * always keeps spare slots, so a retype (which adds at most two ranges) never fails for
 * lack of room and never has to allocate in the middle of a change. */
#include "memmap.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define INITIAL_CAPACITY 128
#define SPARE_SLOTS 8 /* a retype needs 2; growing needs a retype of its own, plus freeing */

static struct mem_range initial_ranges[INITIAL_CAPACITY];
static struct mem_range *ranges = initial_ranges;
static size_t count, capacity = INITIAL_CAPACITY;
static UINTN key = 1;
static bool growing;

const struct mem_range *memmap_ranges(size_t *n)
{
	*n = count;
	return ranges;
}

UINTN memmap_key(void)
{
	return key;
}

/* Index of the first range ending after addr (count if none). */
static size_t first_ending_after(UINT64 addr)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mem_range_end(&ranges[mid]) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void insert_at(size_t index, const struct mem_range *r)
{
	mem_copy(&ranges[index + 1], &ranges[index], (count - index) * sizeof(*r));
	ranges[index] = *r;
	count++;
}

static void remove_at(size_t index)
{
	mem_copy(&ranges[index], &ranges[index + 1], (count - index - 1) * sizeof(ranges[0]));
	count--;
}

static bool same_kind(const struct mem_range *a, const struct mem_range *b)
{
	return a->type == b->type && a->attribute == b->attribute && a->allocated == b->allocated &&
	       a->protection == b->protection;
}

/* Merges range i with its successor when they touch and are of the same kind. */
static void merge_with_next(size_t i)
{
	if (i + 1 < count && mem_range_end(&ranges[i]) == ranges[i + 1].start &&
	    same_kind(&ranges[i], &ranges[i + 1])) {
		ranges[i].pages += ranges[i + 1].pages;
		remove_at(i + 1);
	}
}

EFI_STATUS memmap_add(UINT64 start, UINT64 pages, EFI_MEMORY_TYPE type, UINT64 attribute)
{
	UINT64 end = start + (pages << EFI_PAGE_SHIFT);
	size_t i = first_ending_after(start);

	if (pages == 0 || end <= start || count + SPARE_SLOTS >= capacity)
		return EFI_INVALID_PARAMETER;
	if (i < count && ranges[i].start < end)
		return EFI_INVALID_PARAMETER; /* overlaps */
	if (type == EfiRuntimeServicesCode || type == EfiRuntimeServicesData)
		attribute |= EFI_MEMORY_RUNTIME;
	insert_at(i, &(struct mem_range){start, pages, attribute, type, false,
					 mem_type_protection(type)});
	merge_with_next(i);
	if (i > 0)
		merge_with_next(i - 1);
	key++;
	return EFI_SUCCESS;
}

/* Splits range i so that a range begins exactly at addr (addr inside range i). */
static void split_at(size_t i, UINT64 addr)
{
	struct mem_range tail = ranges[i];
	UINT64 head_pages = (addr - ranges[i].start) >> EFI_PAGE_SHIFT;

	if (addr == ranges[i].start)
		return;
	ranges[i].pages = head_pages;
	tail.start = addr;
	tail.pages -= head_pages;
	insert_at(i + 1, &tail);
}

static bool is_runtime_type(UINT32 type)
{
	return type == EfiRuntimeServicesCode || type == EfiRuntimeServicesData;
}

/* Splits the ranges at start and end and returns the index of the first range of the span
 * (the caller has room for the two ranges this may add). */
static size_t split_span(UINT64 start, UINT64 end, size_t *past)
{
	size_t first = first_ending_after(start), i;

	split_at(first, start);
	if (ranges[first].start < start)
		first++;
	for (i = first; i < count && ranges[i].start < end; i++)
		if (mem_range_end(&ranges[i]) > end)
			split_at(i, end);
	*past = i;
	return first;
}

/* Merges from the end of a changed span back to the range before it. */
static void merge_span(size_t first, size_t past)
{
	for (size_t j = past; j-- > (first ? first - 1 : 0);)
		merge_with_next(j);
}

EFI_STATUS memmap_retype(UINT64 start, UINT64 pages, EFI_MEMORY_TYPE type, bool allocated,
			 UINT64 protection, bool *changed)
{
	UINT64 end = start + (pages << EFI_PAGE_SHIFT);
	size_t first, past;

	if (count + 2 > capacity)
		return EFI_OUT_OF_RESOURCES; /* cannot happen while SPARE_SLOTS hold */
	*changed = false;
	first = split_span(start, end, &past);
	for (size_t i = first; i < past; i++) {
		*changed |= ranges[i].protection != protection;
		ranges[i].type = type;
		ranges[i].allocated = allocated;
		ranges[i].protection = protection;
		ranges[i].attribute &= ~EFI_MEMORY_RUNTIME;
		if (is_runtime_type(type))
			ranges[i].attribute |= EFI_MEMORY_RUNTIME;
	}
	merge_span(first, past);
	key++;
	return EFI_SUCCESS;
}

/* The reported map does not change, so neither does its key: a program may set
 * attributes between GetMemoryMap and ExitBootServices. */
EFI_STATUS memmap_protect(UINT64 start, UINT64 pages, UINT64 protection)
{
	UINT64 end = start + (pages << EFI_PAGE_SHIFT);
	size_t first, past;

	if (count + 2 > capacity)
		return EFI_OUT_OF_RESOURCES; /* cannot happen while SPARE_SLOTS hold */
	first = split_span(start, end, &past);
	for (size_t i = first; i < past; i++)
		ranges[i].protection = protection;
	merge_span(first, past);
	return EFI_SUCCESS;
}

const struct mem_range *memmap_find(UINT64 address)
{
	size_t i = first_ending_after(address);

	return i < count && ranges[i].start <= address ? &ranges[i] : NULL;
}

bool memmap_span_is(UINT64 start, UINT64 pages, bool (*match)(const struct mem_range *))
{
	UINT64 end = start + (pages << EFI_PAGE_SHIFT), at = start;

	if (pages == 0 || end <= start)
		return false;
	for (size_t i = first_ending_after(start); i < count && at < end; i++) {
		if (ranges[i].start > at || !match(&ranges[i]))
			return false;
		at = mem_range_end(&ranges[i]);
	}
	return at >= end;
}

/* Allocation for the array itself goes through the page allocator (page.c). */
EFI_STATUS mem_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type, UINTN pages,
			      EFI_PHYSICAL_ADDRESS *memory);
EFI_STATUS mem_free_pages(EFI_PHYSICAL_ADDRESS memory, UINTN pages);

void memmap_reserve(void)
{
	EFI_PHYSICAL_ADDRESS new_array;
	struct mem_range *old = ranges;
	size_t old_capacity = capacity, new_capacity = capacity * 2;
	UINTN new_pages = EFI_SIZE_TO_PAGES(new_capacity * sizeof(struct mem_range));

	if (growing || count + SPARE_SLOTS < capacity)
		return;
	growing = true;
	if (!EFI_ERROR(
		mem_allocate_pages(AllocateAnyPages, EfiBootServicesData, new_pages, &new_array))) {
		mem_copy((void *)(uintptr_t)new_array, ranges, count * sizeof(struct mem_range));
		ranges = (struct mem_range *)(uintptr_t)new_array;
		capacity = new_capacity;
		if (old != initial_ranges)
			mem_free_pages((uintptr_t)old,
				       EFI_SIZE_TO_PAGES(old_capacity * sizeof(struct mem_range)));
	}
	growing = false;
}
