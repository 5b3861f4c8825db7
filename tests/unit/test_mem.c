/* Memory map, pages and pool. */
#include "support/test.h"
#include "../../core/services.h"
#include "../../core/mem/memmap.h"
#include <ember/lib/str.h>

#define DESCRIPTOR_AT(map, i, dsize) ((EFI_MEMORY_DESCRIPTOR *)((UINT8 *)(map) + (i) * (dsize)))

static UINTN map_snapshot(UINT8 *buffer, UINTN capacity, UINTN *key, UINTN *dsize)
{
	UINTN size = capacity;
	UINT32 version;

	ASSERT_STATUS(
	    efi_get_memory_map(&size, (EFI_MEMORY_DESCRIPTOR *)buffer, key, dsize, &version),
	    EFI_SUCCESS);
	EXPECT_EQ(version, 1);
	return size / *dsize;
}

/* The type of the page at address according to GetMemoryMap. */
static UINT32 type_at(UINT64 address)
{
	static UINT8 buffer[64 * 1024];
	UINTN key, dsize, n = map_snapshot(buffer, sizeof(buffer), &key, &dsize);

	for (UINTN i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = DESCRIPTOR_AT(buffer, i, dsize);
		if (address >= d->PhysicalStart &&
		    address < d->PhysicalStart + (d->NumberOfPages << EFI_PAGE_SHIFT))
			return d->Type;
	}
	return 0xffffffff;
}

TEST(map_is_sorted_merged_and_keyed)
{
	static UINT8 buffer[64 * 1024];
	UINTN key1, key2, dsize, n;
	EFI_PHYSICAL_ADDRESS a;

	n = map_snapshot(buffer, sizeof(buffer), &key1, &dsize);
	EXPECT(dsize >= sizeof(EFI_MEMORY_DESCRIPTOR));
	for (UINTN i = 1; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR *p = DESCRIPTOR_AT(buffer, i - 1, dsize);
		EFI_MEMORY_DESCRIPTOR *d = DESCRIPTOR_AT(buffer, i, dsize);
		UINT64 prev_end = p->PhysicalStart + (p->NumberOfPages << EFI_PAGE_SHIFT);
		EXPECT(prev_end <= d->PhysicalStart);
		/* Neighbours of the same kind must have been merged. */
		EXPECT(!(prev_end == d->PhysicalStart && p->Type == d->Type &&
			 p->Attribute == d->Attribute));
	}
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 3, &a), EFI_SUCCESS);
	map_snapshot(buffer, sizeof(buffer), &key2, &dsize);
	EXPECT(key2 != key1);
	EXPECT_EQ(type_at(a), EfiLoaderData);
	EXPECT_EQ(type_at(a + 2 * 4096), EfiLoaderData);
	ASSERT_STATUS(efi_free_pages(a, 3), EFI_SUCCESS);
	map_snapshot(buffer, sizeof(buffer), &key1, &dsize);
	EXPECT(key1 != key2);
	EXPECT_EQ(type_at(a), EfiConventionalMemory);
}

TEST(get_memory_map_sizes)
{
	UINTN size = 0, key, dsize;
	UINT32 version;
	EFI_MEMORY_DESCRIPTOR d;

	EXPECT_STATUS(efi_get_memory_map(NULL, NULL, &key, &dsize, &version),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_get_memory_map(&size, NULL, &key, &dsize, &version),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT(size >= dsize);
	EXPECT_EQ(size % dsize, 0);
	/* A big enough size with no buffer is a caller error, not a success. */
	size = 1 << 20;
	EXPECT_STATUS(efi_get_memory_map(&size, NULL, &key, &dsize, &version),
		      EFI_INVALID_PARAMETER);
	size = sizeof(d) - 1;
	EXPECT_STATUS(efi_get_memory_map(&size, &d, &key, &dsize, &version), EFI_BUFFER_TOO_SMALL);
}

TEST(allocate_pages_arguments)
{
	EFI_PHYSICAL_ADDRESS a = 0;

	EXPECT_STATUS(efi_allocate_pages(MaxAllocateType, EfiLoaderData, 1, &a),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiConventionalMemory, 1, &a),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiMaxMemoryType, 1, &a),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pages(AllocateAnyPages, 0x6fffffff, 1, &a),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiPersistentMemory, 1, &a),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 1, NULL),
		      EFI_INVALID_PARAMETER);
	/* OEM and OS-reserved types are allowed. */
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, 0x70000001, 1, &a), EFI_SUCCESS);
	EXPECT_EQ(type_at(a), 0x70000001);
	EXPECT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, 0x80000000, 1, &a), EFI_SUCCESS);
	EXPECT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);
}

TEST(allocate_address_and_max_address)
{
	EFI_PHYSICAL_ADDRESS a, b, max;

	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 4, &a), EFI_SUCCESS);
	ASSERT_STATUS(efi_free_pages(a, 4), EFI_SUCCESS);
	/* The same place is free again: take it by address. */
	b = a + 4096;
	ASSERT_STATUS(efi_allocate_pages(AllocateAddress, EfiBootServicesData, 2, &b), EFI_SUCCESS);
	EXPECT_EQ(b, a + 4096);
	EXPECT_EQ(type_at(a), EfiConventionalMemory);
	EXPECT_EQ(type_at(a + 4096), EfiBootServicesData);
	/* Allocated pages cannot be allocated again; a misaligned address is not a page. */
	EXPECT_STATUS(efi_allocate_pages(AllocateAddress, EfiBootServicesData, 1, &b),
		      EFI_NOT_FOUND);
	b = a + 1;
	EXPECT_STATUS(efi_allocate_pages(AllocateAddress, EfiBootServicesData, 1, &b),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(efi_free_pages(a + 4096, 2), EFI_SUCCESS);
	/* MaxAddress: at or below the limit, and as high as possible. */
	max = a + 3 * 4096 - 1;
	ASSERT_STATUS(efi_allocate_pages(AllocateMaxAddress, EfiLoaderData, 1, &max), EFI_SUCCESS);
	EXPECT(max + 4096 - 1 <= a + 3 * 4096 - 1);
	EXPECT_STATUS(efi_free_pages(max, 1), EFI_SUCCESS);
	max = 0x1000;
	EXPECT(EFI_ERROR(efi_allocate_pages(AllocateMaxAddress, EfiLoaderData, 1, &max)));
}

TEST(free_pages_rules)
{
	EFI_PHYSICAL_ADDRESS a;

	/* Three pages, the top one given back: a two-page allocation with a free page above. */
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 3, &a), EFI_SUCCESS);
	ASSERT_STATUS(efi_free_pages(a + 2 * 4096, 1), EFI_SUCCESS);
	EXPECT_STATUS(efi_free_pages(a + 1, 1), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_free_pages(a, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_free_pages(a, 3), EFI_NOT_FOUND); /* one page too many */
	EXPECT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);   /* part of an allocation */
	EXPECT_STATUS(efi_free_pages(a, 1), EFI_NOT_FOUND); /* twice */
	EXPECT_STATUS(efi_free_pages(a + 4096, 1), EFI_SUCCESS);
	EXPECT_EQ(type_at(a), EfiConventionalMemory);
}

TEST(runtime_types_get_the_runtime_attribute)
{
	static UINT8 buffer[64 * 1024];
	EFI_PHYSICAL_ADDRESS a;
	UINTN key, dsize, n;
	bool seen = false;

	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiRuntimeServicesCode, 1, &a),
		      EFI_SUCCESS);
	n = map_snapshot(buffer, sizeof(buffer), &key, &dsize);
	for (UINTN i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR *d = DESCRIPTOR_AT(buffer, i, dsize);
		if (d->PhysicalStart <= a &&
		    a < d->PhysicalStart + (d->NumberOfPages << EFI_PAGE_SHIFT)) {
			EXPECT(d->Attribute & EFI_MEMORY_RUNTIME);
			seen = true;
		} else if (d->Type == EfiConventionalMemory) {
			EXPECT(!(d->Attribute & EFI_MEMORY_RUNTIME));
		}
	}
	EXPECT(seen);
	EXPECT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);
	EXPECT_EQ(type_at(a), EfiConventionalMemory);
}

TEST(many_allocations_grow_the_map)
{
	static EFI_PHYSICAL_ADDRESS pages[600];

	/* Every other page kept: hundreds of separate ranges, more than the static array. */
	for (size_t i = 0; i < ARRAY_SIZE(pages); i++)
		ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages,
						 i % 2 ? EfiLoaderData : EfiBootServicesData, 1,
						 &pages[i]),
			      EFI_SUCCESS);
	for (size_t i = 0; i < ARRAY_SIZE(pages); i += 2)
		ASSERT_STATUS(efi_free_pages(pages[i], 1), EFI_SUCCESS);
	for (size_t i = 1; i < ARRAY_SIZE(pages); i += 2)
		EXPECT_EQ(type_at(pages[i]), EfiLoaderData);
	for (size_t i = 1; i < ARRAY_SIZE(pages); i += 2)
		ASSERT_STATUS(efi_free_pages(pages[i], 1), EFI_SUCCESS);
}

TEST(pool_alignment_types_and_reuse)
{
	void *p[200];

	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		UINTN size = (i * 37) % 9000;
		ASSERT_STATUS(
		    efi_allocate_pool(i % 3 ? EfiLoaderData : EfiBootServicesData, size, &p[i]),
		    EFI_SUCCESS);
		EXPECT_EQ((uintptr_t)p[i] % 8, 0);
		mem_set(p[i], 0xa5, size);
		EXPECT_EQ(type_at((uintptr_t)p[i]), i % 3 ? EfiLoaderData : EfiBootServicesData);
	}
	for (size_t i = 0; i < ARRAY_SIZE(p); i++)
		EXPECT_STATUS(efi_free_pool(p[i]), EFI_SUCCESS);
}

TEST(pool_arguments_and_bad_frees)
{
	void *p;
	UINT64 on_stack[4];

	EXPECT_STATUS(efi_allocate_pool(EfiLoaderData, 8, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pool(EfiConventionalMemory, 8, &p), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_allocate_pool(EfiMaxMemoryType + 1, 8, &p), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_free_pool(NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_free_pool(&on_stack[2]), EFI_INVALID_PARAMETER);
	ASSERT_STATUS(efi_allocate_pool(EfiLoaderData, 100, &p), EFI_SUCCESS);
	EXPECT_STATUS(efi_free_pool((UINT8 *)p + 16), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(efi_free_pool(p), EFI_SUCCESS);
	EXPECT_STATUS(efi_free_pool(p), EFI_INVALID_PARAMETER); /* double free */
	ASSERT_STATUS(efi_allocate_pool(EfiLoaderData, 70000, &p), EFI_SUCCESS);
	EXPECT_STATUS(efi_free_pool(p), EFI_SUCCESS);
	EXPECT_STATUS(efi_free_pool(p), EFI_INVALID_PARAMETER);
}

TEST(pool_returns_empty_chunks)
{
	static UINT8 buffer[64 * 1024];
	UINTN key, dsize, before, after;
	void *p[2000];

	/* Fill several chunks of one class, free everything: pages go back. */
	map_snapshot(buffer, sizeof(buffer), &key, &dsize);
	before = 0;
	for (UINTN i = 0, n = map_snapshot(buffer, sizeof(buffer), &key, &dsize); i < n; i++)
		if (DESCRIPTOR_AT(buffer, i, dsize)->Type == 0x7abcdef0)
			before += DESCRIPTOR_AT(buffer, i, dsize)->NumberOfPages;
	for (size_t i = 0; i < ARRAY_SIZE(p); i++)
		ASSERT_STATUS(efi_allocate_pool(0x7abcdef0, 40, &p[i]), EFI_SUCCESS);
	for (size_t i = 0; i < ARRAY_SIZE(p); i++)
		ASSERT_STATUS(efi_free_pool(p[i]), EFI_SUCCESS);
	after = 0;
	for (UINTN i = 0, n = map_snapshot(buffer, sizeof(buffer), &key, &dsize); i < n; i++)
		if (DESCRIPTOR_AT(buffer, i, dsize)->Type == 0x7abcdef0)
			after += DESCRIPTOR_AT(buffer, i, dsize)->NumberOfPages;
	EXPECT_EQ(before, 0);
	EXPECT(after <= 4); /* at most one chunk stays for the next allocation */
}

static const EFI_GUID map_change_group = EFI_EVENT_GROUP_MEMORY_MAP_CHANGE;
static UINTN map_changes;

static VOID EFIAPI count_map_change(EFI_EVENT event, VOID *context)
{
	map_changes++;
}

static UINTN current_key(void)
{
	static UINT8 buffer[64 * 1024];
	UINTN key, dsize;

	map_snapshot(buffer, sizeof(buffer), &key, &dsize);
	return key;
}

TEST(memory_map_change_group_follows_the_map)
{
	EFI_PHYSICAL_ADDRESS a;
	EFI_EVENT e;
	void *p, *q;
	UINTN key;

	map_changes = 0;
	ASSERT_STATUS(efi_create_event_ex(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_map_change, NULL,
					  &map_change_group, &e),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 2, &a), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 1);
	ASSERT_STATUS(efi_free_pages(a, 2), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 2);
	/* A failed call changes nothing and signals nothing. */
	EXPECT_STATUS(efi_free_pages(a, 2), EFI_NOT_FOUND);
	EXPECT_EQ(map_changes, 2);
	/* The first block of a fresh type takes pages, the second fits in the same chunk. */
	key = current_key();
	ASSERT_STATUS(efi_allocate_pool(0x7abc0001, 40, &p), EFI_SUCCESS);
	EXPECT(current_key() != key);
	EXPECT_EQ(map_changes, 3);
	key = current_key();
	ASSERT_STATUS(efi_allocate_pool(0x7abc0001, 40, &q), EFI_SUCCESS);
	EXPECT_EQ(current_key(), key);
	EXPECT_EQ(map_changes, 3);
	EXPECT_STATUS(efi_free_pool(q), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 3);
	/* The chunk is the type's last one and stays: nothing changes. Large blocks have
	 * their own pages. */
	EXPECT_STATUS(efi_free_pool(p), EFI_SUCCESS);
	EXPECT_EQ(current_key(), key);
	EXPECT_EQ(map_changes, 3);
	ASSERT_STATUS(efi_allocate_pool(EfiLoaderData, 70000, &p), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 4);
	EXPECT_STATUS(efi_free_pool(p), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 5);
	/* Above the notification's TPL it waits, and changes made meanwhile signal once. */
	EFI_TPL old = efi_raise_tpl(TPL_NOTIFY);
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 1, &a), EFI_SUCCESS);
	ASSERT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 5);
	efi_restore_tpl(old);
	EXPECT_EQ(map_changes, 6);
	efi_close_event(e);
}

/* A notification that changes the map itself, the first time it runs. */
static VOID EFIAPI allocating_notify(EFI_EVENT event, VOID *context)
{
	EFI_PHYSICAL_ADDRESS a;

	if (map_changes++ == 0 &&
	    !EFI_ERROR(efi_allocate_pages(AllocateAnyPages, EfiBootServicesData, 3, &a)))
		efi_free_pages(a, 3);
}

TEST(memory_map_change_notification_may_allocate)
{
	EFI_PHYSICAL_ADDRESS a;
	EFI_EVENT e;

	map_changes = 0;
	ASSERT_STATUS(efi_create_event_ex(EVT_NOTIFY_SIGNAL, TPL_NOTIFY, allocating_notify, NULL,
					  &map_change_group, &e),
		      EFI_SUCCESS);
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 1, &a), EFI_SUCCESS);
	/* Its own change signals it once more, after it returned; the map stays sound. */
	EXPECT_EQ(map_changes, 2);
	EXPECT_EQ(type_at(a), EfiLoaderData);
	EXPECT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);
	EXPECT_EQ(map_changes, 3);
	efi_close_event(e);
}

/* AArch64's 64 KiB granularity (UEFI 2.10, 2.3.6): runtime code and data, reserved and ACPI
 * NVS memory are aligned and sized to it; other types, and freeing them, are unchanged. */
TEST(runtime_types_fill_whole_granules)
{
	const UINT32 types[] = {EfiRuntimeServicesCode, EfiRuntimeServicesData,
				EfiReservedMemoryType, EfiACPIMemoryNVS};
	EFI_PHYSICAL_ADDRESS a, b, c;
	void *pool;

	mem_set_runtime_granularity(0x10000);
	for (UINTN i = 0; i < ARRAY_SIZE(types); i++) {
		ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, types[i], 1, &a), EFI_SUCCESS);
		EXPECT_EQ(a % 0x10000, 0);
		/* All 16 pages are the caller's, and the pages after them are not. */
		EXPECT_EQ(type_at(a + 15 * 4096), types[i]);
		EXPECT(type_at(a + 16 * 4096) != types[i]);
		/* Freed as allocated (one page asked, one granule freed); a page inside a
		 * granule is not a start. */
		EXPECT_STATUS(efi_free_pages(a + 4096, 1), EFI_INVALID_PARAMETER);
		ASSERT_STATUS(efi_free_pages(a, 1), EFI_SUCCESS);
		EXPECT_EQ(type_at(a + 15 * 4096), EfiConventionalMemory);
	}
	/* Other types still come a page at a time, side by side. */
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 1, &b), EFI_SUCCESS);
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 1, &c), EFI_SUCCESS);
	EXPECT_EQ(b - c, 4096);
	ASSERT_STATUS(efi_free_pages(b, 1), EFI_SUCCESS);
	ASSERT_STATUS(efi_free_pages(c, 1), EFI_SUCCESS);
	/* AllocateAddress: only at a granule's start. */
	ASSERT_STATUS(efi_allocate_pages(AllocateAnyPages, EfiLoaderData, 32, &b), EFI_SUCCESS);
	ASSERT_STATUS(efi_free_pages(b, 32), EFI_SUCCESS);
	a = ALIGN_UP(b, 0x10000) + 4096;
	EXPECT_STATUS(efi_allocate_pages(AllocateAddress, EfiRuntimeServicesData, 1, &a),
		      EFI_NOT_FOUND);
	/* Pool blocks of runtime data lie in runtime granules too. */
	pool = pool_alloc_typed(EfiRuntimeServicesData, 100);
	ASSERT(pool != NULL);
	EXPECT_EQ(type_at(ALIGN_DOWN((UINT64)(uintptr_t)pool, 0x10000)), EfiRuntimeServicesData);
	pool_free(pool);
	mem_set_runtime_granularity(0);
}
