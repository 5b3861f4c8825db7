/* Memory allocation services (UEFI 2.10, 7.2: AllocatePages, FreePages, GetMemoryMap,
 * AllocatePool, FreePool). Steps that read the map and then act on what it showed run
 * at TPL_NOTIFY, so that no notification function allocates in between. */
#define APP_TEST_SUITE "30_memory"
#include "conformance.h"

#define OEM_TYPE 0x70000123u
#define OS_TYPE 0x80000456u

static EFI_STATUS alloc(EFI_ALLOCATE_TYPE type, UINT32 mem_type, UINTN pages,
			EFI_PHYSICAL_ADDRESS *addr)
{
	return app_bs->AllocatePages(type, (EFI_MEMORY_TYPE)mem_type, pages, addr);
}

/* The conventional descriptor with the lowest (or highest) start and at least `pages`. */
static EFI_MEMORY_DESCRIPTOR *find_free(const struct mmap *m, UINT64 pages, bool lowest)
{
	EFI_MEMORY_DESCRIPTOR *best = NULL;

	for (UINTN i = 0; i < mmap_count(m); i++) {
		EFI_MEMORY_DESCRIPTOR *d = mmap_desc(m, i);
		if (d->Type != EfiConventionalMemory || d->NumberOfPages < pages)
			continue;
		if (!best || (lowest ? d->PhysicalStart < best->PhysicalStart
				     : d->PhysicalStart > best->PhysicalStart))
			best = d;
	}
	return best;
}

APP_TEST(allocate_any_pages)
{
	EFI_PHYSICAL_ADDRESS addr = 0;

	if (!CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 3, &addr), EFI_SUCCESS))
		return;
	CHECK(addr != 0 && IS_ALIGNED(addr, EFI_PAGE_SIZE));
	volatile UINT8 *p = (volatile UINT8 *)(UINTN)addr;
	p[0] = 0x5a;
	p[3 * EFI_PAGE_SIZE - 1] = 0xa5;
	CHECK(p[0] == 0x5a && p[3 * EFI_PAGE_SIZE - 1] == 0xa5);
	CHECK_EQ(memory_type_at(addr), EfiLoaderData);
	CHECK_EQ(memory_type_at(addr + 2 * EFI_PAGE_SIZE), EfiLoaderData);
	CHECK_STATUS(app_bs->FreePages(addr, 3), EFI_SUCCESS);
	CHECK_EQ(memory_type_at(addr), EfiConventionalMemory);
}

APP_TEST(allocate_pages_invalid_memory_type)
{
	static const UINT32 bad[] = {
	    EfiMaxMemoryType, EfiMaxMemoryType + 1, 0x10000,
	    0x6fffffff,	      EfiPersistentMemory,  EfiUnacceptedMemoryType};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EFI_PHYSICAL_ADDRESS addr = 0;
		EFI_STATUS status = alloc(AllocateAnyPages, bad[i], 1, &addr);
		if (!CHECK_STATUS(status, EFI_INVALID_PARAMETER) && !EFI_ERROR(status))
			app_bs->FreePages(addr, 1);
	}
}

APP_TEST(allocate_pages_conventional_type)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	EFI_STATUS status = alloc(AllocateAnyPages, EfiConventionalMemory, 1, &addr);

	/* Not in 2.10's list of errors, but pages "allocated" as free memory would still be
	 * free in the map and handed out again; every firmware must refuse them. */
	CHECK_STATUS(status, EFI_INVALID_PARAMETER);
	if (!EFI_ERROR(status))
		app_bs->FreePages(addr, 1);
}

APP_TEST(allocate_pages_oem_and_os_types)
{
	static const UINT32 types[] = {0x70000000, OEM_TYPE, 0x7fffffff,
				       0x80000000, OS_TYPE,  0xffffffff};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		EFI_PHYSICAL_ADDRESS addr = 0;
		if (!CHECK_STATUS(alloc(AllocateAnyPages, types[i], 2, &addr), EFI_SUCCESS))
			continue;
		CHECK_EQ(memory_type_at(addr), types[i]);
		CHECK_EQ(memory_type_at(addr + EFI_PAGE_SIZE), types[i]);
		CHECK_STATUS(app_bs->FreePages(addr, 2), EFI_SUCCESS);
	}
}

APP_TEST(allocate_pages_bad_allocate_type)
{
	EFI_PHYSICAL_ADDRESS addr = 0;

	CHECK_STATUS(alloc(MaxAllocateType, EfiLoaderData, 1, &addr), EFI_INVALID_PARAMETER);
	CHECK_STATUS(alloc((EFI_ALLOCATE_TYPE)0x100, EfiLoaderData, 1, &addr),
		     EFI_INVALID_PARAMETER);
}

APP_TEST(allocate_pages_null_memory)
{
	CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 1, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(alloc(AllocateMaxAddress, EfiLoaderData, 1, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(alloc(AllocateAddress, EfiLoaderData, 1, NULL), EFI_INVALID_PARAMETER);
}

APP_TEST(allocate_pages_too_many)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	EFI_STATUS status = alloc(AllocateAnyPages, EfiLoaderData, (UINTN)1 << 40, &addr);

	CHECK_STATUS(status, EFI_OUT_OF_RESOURCES);
}

APP_TEST(allocate_max_address)
{
	EFI_PHYSICAL_ADDRESS addr = 0xffffffff;
	struct mmap m;

	if (CHECK_STATUS(alloc(AllocateMaxAddress, EfiLoaderData, 4, &addr), EFI_SUCCESS)) {
		CHECK(addr + 4 * EFI_PAGE_SIZE - 1 <= 0xffffffff);
		app_bs->FreePages(addr, 4);
	}
	/* A limit that is not page aligned, inside a free region: the whole allocation
	 * must lie at or below it. */
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	if (CHECK_STATUS(mmap_get(&m), EFI_SUCCESS)) {
		EFI_MEMORY_DESCRIPTOR *d = find_free(&m, 8, false);
		if (CHECK(d)) {
			UINT64 max = d->PhysicalStart + 6 * EFI_PAGE_SIZE + 0x7ff;
			addr = max;
			if (CHECK_STATUS(alloc(AllocateMaxAddress, EfiLoaderData, 2, &addr),
					 EFI_SUCCESS)) {
				CHECK(addr + 2 * EFI_PAGE_SIZE - 1 <= max);
				CHECK(IS_ALIGNED(addr, EFI_PAGE_SIZE));
				app_bs->FreePages(addr, 2);
			}
		}
		mmap_free(&m);
	}
	app_bs->RestoreTPL(old);
}

#define LOW_LIMIT 0x100000 /* 1 MiB */

/* Allocates every free page below LOW_LIMIT (recording the ranges); true when none is
 * left free there. */
static bool take_low_memory(EFI_PHYSICAL_ADDRESS *start, UINTN *pages, UINTN *n, UINTN max)
{
	for (int round = 0; round < 4; round++) {
		struct mmap m;
		bool took = false;
		if (mmap_get(&m) != EFI_SUCCESS)
			return false;
		for (UINTN i = 0; i < mmap_count(&m) && *n < max; i++) {
			EFI_MEMORY_DESCRIPTOR *d = mmap_desc(&m, i);
			if (d->Type != EfiConventionalMemory || d->PhysicalStart >= LOW_LIMIT)
				continue;
			UINT64 count =
			    MIN(d->NumberOfPages, (LOW_LIMIT - d->PhysicalStart) / EFI_PAGE_SIZE);
			EFI_PHYSICAL_ADDRESS at = d->PhysicalStart;
			if (alloc(AllocateAddress, EfiLoaderData, count, &at) == EFI_SUCCESS) {
				start[*n] = at;
				pages[(*n)++] = count;
				took = true;
			}
		}
		mmap_free(&m);
		if (!took)
			return true;
	}
	return false;
}

APP_TEST(allocate_max_address_below_all_free_memory)
{
	EFI_PHYSICAL_ADDRESS start[32];
	UINTN pages[32], n = 0;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);

	/* Make sure no page below 1 MiB is free, then ask for one there. 2.10 lists both
	 * EFI_NOT_FOUND ("could not be found") and EFI_OUT_OF_RESOURCES ("could not be
	 * allocated") without saying which applies; EDK2 answers the latter. */
	if (CHECK(take_low_memory(start, pages, &n, ARRAY_SIZE(start)))) {
		EFI_PHYSICAL_ADDRESS addr = LOW_LIMIT - 1;
		EFI_STATUS status = alloc(AllocateMaxAddress, EfiLoaderData, 1, &addr);
		CHECK_STATUS2(status, EFI_NOT_FOUND, EFI_OUT_OF_RESOURCES);
		if (!EFI_ERROR(status))
			app_bs->FreePages(addr, 1);
	}
	for (UINTN i = 0; i < n; i++)
		app_bs->FreePages(start[i], pages[i]);
	app_bs->RestoreTPL(old);
}

APP_TEST(allocate_address)
{
	EFI_PHYSICAL_ADDRESS addr = 0, at;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);

	if (CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 2, &addr), EFI_SUCCESS) &&
	    CHECK_STATUS(app_bs->FreePages(addr, 2), EFI_SUCCESS)) {
		at = addr;
		if (CHECK_STATUS(alloc(AllocateAddress, EfiLoaderData, 2, &at), EFI_SUCCESS)) {
			CHECK_EQ(at, addr);
			at = addr;
			CHECK_STATUS(alloc(AllocateAddress, EfiLoaderData, 1, &at), EFI_NOT_FOUND);
			at = addr + EFI_PAGE_SIZE;
			CHECK_STATUS(alloc(AllocateAddress, EfiLoaderData, 1, &at), EFI_NOT_FOUND);
			CHECK_STATUS(app_bs->FreePages(addr, 2), EFI_SUCCESS);
		}
	}
	app_bs->RestoreTPL(old);
}

APP_TEST(allocate_address_misaligned)
{
	EFI_PHYSICAL_ADDRESS addr = 0, at;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);

	if (CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 2, &addr), EFI_SUCCESS) &&
	    CHECK_STATUS(app_bs->FreePages(addr, 2), EFI_SUCCESS)) {
		/* No page starts there, so the requested pages cannot be found. */
		at = addr + 0x123;
		EFI_STATUS status = alloc(AllocateAddress, EfiLoaderData, 1, &at);
		CHECK_STATUS(status, EFI_NOT_FOUND);
		if (!EFI_ERROR(status))
			app_bs->FreePages(at & ~(EFI_PHYSICAL_ADDRESS)0xfff, 1);
	}
	app_bs->RestoreTPL(old);
}

APP_TEST(free_pages_not_allocated)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	struct mmap m;

	if (CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 1, &addr), EFI_SUCCESS) &&
	    CHECK_STATUS(app_bs->FreePages(addr, 1), EFI_SUCCESS)) {
		EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
		CHECK_STATUS(app_bs->FreePages(addr, 1), EFI_NOT_FOUND);
		app_bs->RestoreTPL(old);
	}
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	if (CHECK_STATUS(mmap_get(&m), EFI_SUCCESS)) {
		EFI_MEMORY_DESCRIPTOR *d = find_free(&m, 4, false);
		if (CHECK(d))
			CHECK_STATUS(app_bs->FreePages(d->PhysicalStart + EFI_PAGE_SIZE, 2),
				     EFI_NOT_FOUND);
		mmap_free(&m);
	}
	app_bs->RestoreTPL(old);
}

APP_TEST(free_pages_misaligned)
{
	EFI_PHYSICAL_ADDRESS addr = 0;

	if (!CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 1, &addr), EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->FreePages(addr + 0x10, 1), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->FreePages(addr + 0x800, 1), EFI_INVALID_PARAMETER);
	CHECK_EQ(memory_type_at(addr), EfiLoaderData);
	CHECK_STATUS(app_bs->FreePages(addr, 1), EFI_SUCCESS);
}

static EFI_STATUS get_map(struct mmap *m, UINTN *size, UINTN *key)
{
	UINTN dsize;
	UINT32 dver;

	return app_bs->GetMemoryMap(size, (EFI_MEMORY_DESCRIPTOR *)m->buf, key, &dsize, &dver);
}

APP_TEST(memory_map_argument_checks)
{
	UINTN size = 0, key = 0, dsize = 0;
	UINT32 dver = 0;

	CHECK_STATUS(app_bs->GetMemoryMap(&size, NULL, &key, &dsize, &dver), EFI_BUFFER_TOO_SMALL);
	CHECK(size > 0);
	CHECK_STATUS(app_bs->GetMemoryMap(NULL, NULL, &key, &dsize, &dver), EFI_INVALID_PARAMETER);
	size = 1 << 20;
	CHECK_STATUS(app_bs->GetMemoryMap(&size, NULL, &key, &dsize, &dver), EFI_INVALID_PARAMETER);
}

APP_TEST(memory_map_size_negotiation)
{
	UINTN size, needed, key = 0;
	struct mmap m;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);

	if (!CHECK_STATUS(mmap_get(&m), EFI_SUCCESS)) {
		app_bs->RestoreTPL(old);
		return;
	}
	/* A buffer one descriptor short of the map is too small; the size reported then
	 * is enough for the same map. */
	size = m.size - m.desc_size;
	CHECK_STATUS(get_map(&m, &size, &key), EFI_BUFFER_TOO_SMALL);
	needed = size;
	CHECK(needed >= m.size && needed <= m.cap);
	size = needed;
	CHECK_STATUS(get_map(&m, &size, &key), EFI_SUCCESS);
	CHECK_EQ(size, m.size);
	CHECK_EQ(key, m.key);
	size = m.size - 1;
	CHECK_STATUS(get_map(&m, &size, &key), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, needed);
	/* The map returned fits in a buffer of its own size. */
	size = m.size;
	CHECK_STATUS_KNOWN(get_map(&m, &size, &key), EFI_SUCCESS, FW_EDK2,
			   "EDK2 demands room for the map before it merges adjacent "
			   "descriptors, more than the map it returns");
	mmap_free(&m);
	app_bs->RestoreTPL(old);
}

static bool valid_type(UINT32 type)
{
	return type < EfiMaxMemoryType || type >= 0x70000000;
}

APP_TEST(memory_map_descriptors)
{
	struct mmap m;
	UINTN bad_align = 0, empty = 0, bad_type = 0, unsorted = 0, overlaps = 0;

	if (!CHECK_STATUS(mmap_get(&m), EFI_SUCCESS))
		return;
	CHECK_EQ(m.desc_version, EFI_MEMORY_DESCRIPTOR_VERSION);
	CHECK(m.desc_size >= sizeof(EFI_MEMORY_DESCRIPTOR));
	CHECK(m.desc_size && m.size % m.desc_size == 0);
	CHECK(mmap_count(&m) > 0);
	for (UINTN i = 0; i < mmap_count(&m); i++) {
		EFI_MEMORY_DESCRIPTOR *d = mmap_desc(&m, i);
		bad_align += !IS_ALIGNED(d->PhysicalStart, EFI_PAGE_SIZE);
		empty += d->NumberOfPages == 0;
		bad_type += !valid_type(d->Type);
		if (i) {
			EFI_MEMORY_DESCRIPTOR *p = mmap_desc(&m, i - 1);
			unsorted += p->PhysicalStart > d->PhysicalStart;
			overlaps += p->PhysicalStart + p->NumberOfPages * EFI_PAGE_SIZE >
					d->PhysicalStart &&
				    p->PhysicalStart <= d->PhysicalStart;
		}
	}
	CHECK_EQ(bad_align, 0);
	CHECK_EQ(empty, 0);
	CHECK_EQ(bad_type, 0);
	/* Ascending order is not demanded by 2.10, but Ember promises it (and OVMF does it);
	 * the overlap test relies on it. */
	CHECK_EQ_KNOWN(unsorted, 0, FW_EDK2,
		       "ArmVirtQemu (AAVMF) returns its memory map out of address order");
	CHECK_EQ(overlaps, 0);
	mmap_free(&m);
}

APP_TEST(memory_map_shows_loaded_image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
	struct mmap m;

	if (!CHECK_STATUS(app_bs->HandleProtocol(app_image, &guid_loaded_image, (void **)&li),
			  EFI_SUCCESS) ||
	    !CHECK_STATUS(mmap_get(&m), EFI_SUCCESS))
		return;
	EFI_MEMORY_DESCRIPTOR *d = mmap_find(&m, (UINTN)li->ImageBase);
	if (CHECK(d))
		CHECK_EQ(d->Type, li->ImageCodeType);
	/* This test's own code lies in the same image. */
	d = mmap_find(&m, (UINTN)&mmap_find);
	if (CHECK(d))
		CHECK_EQ(d->Type, li->ImageCodeType);
	mmap_free(&m);
}

APP_TEST(memory_map_key_changes)
{
	UINTN size, key0 = 0, key1 = 0, key2 = 0, key3 = 0;
	EFI_PHYSICAL_ADDRESS addr = 0;
	struct mmap m;

	if (!CHECK_STATUS(mmap_get(&m), EFI_SUCCESS))
		return;
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	size = m.cap;
	EFI_STATUS s0 = get_map(&m, &size, &key0);
	size = m.cap;
	EFI_STATUS s1 = get_map(&m, &size, &key1);
	EFI_STATUS sa = alloc(AllocateAnyPages, EfiLoaderData, 1, &addr);
	size = m.cap;
	EFI_STATUS s2 = get_map(&m, &size, &key2);
	EFI_STATUS sf = sa == EFI_SUCCESS ? app_bs->FreePages(addr, 1) : EFI_NOT_STARTED;
	size = m.cap;
	EFI_STATUS s3 = get_map(&m, &size, &key3);
	app_bs->RestoreTPL(old);

	CHECK(s0 == EFI_SUCCESS && s1 == EFI_SUCCESS && s2 == EFI_SUCCESS && s3 == EFI_SUCCESS);
	CHECK_STATUS(sa, EFI_SUCCESS);
	CHECK_STATUS(sf, EFI_SUCCESS);
	/* GetMemoryMap itself changes nothing; every allocation and free does. */
	CHECK_EQ(key1, key0);
	CHECK(key2 != key1);
	CHECK(key3 != key2);
	mmap_free(&m);
}

APP_TEST(memory_map_shows_allocation_type)
{
	EFI_PHYSICAL_ADDRESS addr = 0;
	struct mmap m;

	if (!CHECK_STATUS(alloc(AllocateAnyPages, OEM_TYPE, 3, &addr), EFI_SUCCESS))
		return;
	if (CHECK_STATUS(mmap_get(&m), EFI_SUCCESS)) {
		EFI_MEMORY_DESCRIPTOR *d = mmap_find(&m, addr);
		if (CHECK(d)) {
			CHECK_EQ(d->Type, OEM_TYPE);
			CHECK(d->PhysicalStart <= addr &&
			      addr + 3 * EFI_PAGE_SIZE <=
				  d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE);
		}
		mmap_free(&m);
	}
	CHECK_STATUS(app_bs->FreePages(addr, 3), EFI_SUCCESS);
	CHECK_EQ(memory_type_at(addr), EfiConventionalMemory);
}

APP_TEST(allocate_pool_alignment)
{
	static const UINTN sizes[] = {1,   3,	 7,    8,    13,   16,	  17,
				      100, 1000, 4095, 4096, 4097, 12345, 65539};
	void *p[ARRAY_SIZE(sizes)] = {0};
	UINTN misaligned = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (!CHECK_STATUS(app_bs->AllocatePool(EfiLoaderData, sizes[i], &p[i]),
				  EFI_SUCCESS))
			continue;
		misaligned += !IS_ALIGNED((UINTN)p[i], 8);
		mem_set(p[i], (int)i, sizes[i]);
	}
	CHECK_EQ(misaligned, 0);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (!p[i])
			continue;
		UINT8 *b = p[i];
		CHECK(b[0] == (UINT8)i && b[sizes[i] - 1] == (UINT8)i);
		CHECK_STATUS(app_bs->FreePool(p[i]), EFI_SUCCESS);
	}
}

APP_TEST(allocate_pool_memory_types)
{
	static const UINT32 types[] = {EfiLoaderData,
				       EfiBootServicesData,
				       EfiRuntimeServicesData,
				       EfiACPIReclaimMemory,
				       OEM_TYPE,
				       OS_TYPE};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
		void *p = NULL;
		if (!CHECK_STATUS(app_bs->AllocatePool((EFI_MEMORY_TYPE)types[i], 200, &p),
				  EFI_SUCCESS))
			continue;
		/* Pool grows from pages of the requested type (AllocatePool). */
		CHECK_EQ(memory_type_at((UINTN)p), types[i]);
		CHECK_STATUS(app_bs->FreePool(p), EFI_SUCCESS);
	}
}

APP_TEST(allocate_pool_invalid)
{
	static const UINT32 bad[] = {EfiMaxMemoryType, 0x12345, 0x6fffffff, EfiPersistentMemory};
	void *p;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		p = NULL;
		EFI_STATUS status = app_bs->AllocatePool((EFI_MEMORY_TYPE)bad[i], 16, &p);
		if (!CHECK_STATUS(status, EFI_INVALID_PARAMETER) && !EFI_ERROR(status))
			app_bs->FreePool(p);
	}
	CHECK_STATUS(app_bs->AllocatePool(EfiLoaderData, 16, NULL), EFI_INVALID_PARAMETER);
}

APP_TEST(allocate_pool_too_large)
{
	void *p = NULL;

	CHECK_STATUS(app_bs->AllocatePool(EfiLoaderData, (UINTN)1 << 40, &p), EFI_OUT_OF_RESOURCES);
	CHECK_STATUS(app_bs->AllocatePool(OEM_TYPE, (UINTN)1 << 50, &p), EFI_OUT_OF_RESOURCES);
	/* Sizes whose rounding up overflows. */
	if (!KNOWN_CRASH("AllocatePool(EfiLoaderData, ~0 - 0x40)", FW_EDK2,
			 "EDK2 (2022.11) overflows rounding the size up and page-faults"))
		CHECK_STATUS(app_bs->AllocatePool(EfiLoaderData, ~(UINTN)0 - 0x40, &p),
			     EFI_OUT_OF_RESOURCES);
	if (!KNOWN_CRASH("AllocatePool(EfiLoaderData, ~0)", FW_EDK2,
			 "EDK2 (2022.11) overflows rounding the size up and page-faults"))
		CHECK_STATUS(app_bs->AllocatePool(EfiLoaderData, ~(UINTN)0, &p),
			     EFI_OUT_OF_RESOURCES);
}

APP_TEST(allocate_pool_zero_bytes)
{
	void *p = NULL;
	EFI_STATUS status = app_bs->AllocatePool(EfiLoaderData, 0, &p);

	/* 2.10 does not say what an empty allocation returns; if it succeeds, the buffer
	 * must be freeable. */
	if (status == EFI_SUCCESS)
		CHECK_STATUS(app_bs->FreePool(p), EFI_SUCCESS);
	else
		CHECK(EFI_ERROR(status));
}

APP_TEST(free_pool_invalid)
{
	EFI_PHYSICAL_ADDRESS addr = 0;

	CHECK_STATUS(app_bs->FreePool(NULL), EFI_INVALID_PARAMETER);
	/* A pointer into zeroed pages that never came from AllocatePool: the bytes before
	 * it are readable, so a firmware can look for its pool header safely. */
	if (CHECK_STATUS(alloc(AllocateAnyPages, EfiLoaderData, 2, &addr), EFI_SUCCESS)) {
		mem_set((void *)(UINTN)addr, 0, 2 * EFI_PAGE_SIZE);
		CHECK_STATUS(app_bs->FreePool((UINT8 *)(UINTN)addr + EFI_PAGE_SIZE + 64),
			     EFI_INVALID_PARAMETER);
		app_bs->FreePages(addr, 2);
	}
}

APP_TEST(free_pool_returns_pages)
{
	void *p = NULL;
	UINTN size = 1 << 20;

	if (!CHECK_STATUS(app_bs->AllocatePool(OEM_TYPE, size, &p), EFI_SUCCESS))
		return;
	CHECK_EQ(memory_type_at((UINTN)p + size / 2), OEM_TYPE);
	CHECK_STATUS(app_bs->FreePool(p), EFI_SUCCESS);
	/* "On return, the memory's type is EfiConventionalMemory" (FreePool): true at least
	 * for pages the allocation had to itself. */
	CHECK_EQ(memory_type_at((UINTN)p + size / 2), EfiConventionalMemory);
}
