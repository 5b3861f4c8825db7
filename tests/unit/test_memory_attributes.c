/* The memory attributes table: the declared runtime image split into RO code and XP data,
 * runtime data XP, every entry inside one map range of its own type. */
#include <stdio.h>
#include <string.h>
#include "support/test.h"
#include "support/test_platform.h"
#include "../../core/services.h"
#include <ember/lib/str.h>
#include <efi/memory_attributes_table.h>

static EFI_MEMORY_ATTRIBUTES_TABLE *find_table(void)
{
	static const EFI_GUID guid = EFI_MEMORY_ATTRIBUTES_TABLE_GUID;

	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++)
		if (guid_eq(&core_st->ConfigurationTable[i].VendorGuid, &guid))
			return core_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

static const EFI_MEMORY_DESCRIPTOR *entry_at(EFI_MEMORY_ATTRIBUTES_TABLE *t, UINT64 address)
{
	for (UINT32 i = 0; i < t->NumberOfEntries; i++) {
		const EFI_MEMORY_DESCRIPTOR *d =
		    (const void *)((UINT8 *)(t + 1) + i * t->DescriptorSize);
		if (d->PhysicalStart == address)
			return d;
	}
	return NULL;
}

TEST(memory_attributes_table_splits_the_runtime_image)
{
	EFI_MEMORY_ATTRIBUTES_TABLE *t = find_table();
	EFI_PHYSICAL_ADDRESS image, data, data_pages;
	const EFI_MEMORY_DESCRIPTOR *d;
	UINT64 previous_end = 0;

	ASSERT(t != NULL);
	EXPECT_EQ(t->Version, 1);
	EXPECT(t->DescriptorSize >= sizeof(EFI_MEMORY_DESCRIPTOR));
	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiRuntimeServicesCode, 4, &image),
		      EFI_SUCCESS);
	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiRuntimeServicesData, 2, &data),
		      EFI_SUCCESS);
	data_pages = data;
	runtime_image_declare(image, image + 3 * 4096, image + 4 * 4096);
	runtime_memory_attributes_update();

	d = entry_at(t, image);
	ASSERT(d != NULL);
	EXPECT_EQ(d->Type, EfiRuntimeServicesCode);
	EXPECT_EQ(d->NumberOfPages, 3);
	EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | EFI_MEMORY_RO);
	d = entry_at(t, image + 3 * 4096);
	ASSERT(d != NULL);
	EXPECT_EQ(d->Type, EfiRuntimeServicesCode);
	EXPECT_EQ(d->NumberOfPages, 1);
	EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | EFI_MEMORY_XP);
	/* The data pages lie in an entry of runtime data, execute-protected. */
	for (UINT32 i = 0; i < t->NumberOfEntries; i++) {
		d = (const void *)((UINT8 *)(t + 1) + i * t->DescriptorSize);
		EXPECT(d->PhysicalStart >= previous_end); /* ascending, no overlap */
		previous_end = d->PhysicalStart + d->NumberOfPages * 4096;
		if (d->Type == EfiRuntimeServicesData) {
			EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | EFI_MEMORY_XP);
			if (data >= d->PhysicalStart && data < previous_end)
				data = 0;
		}
	}
	EXPECT_EQ(data, 0);
	runtime_image_declare(0, 0, 0);
	mem_free_pages(image, 4);
	mem_free_pages(data_pages, 2);
	runtime_memory_attributes_update();
}

static const EFI_MEMORY_DESCRIPTOR *entry_covering(EFI_MEMORY_ATTRIBUTES_TABLE *t, UINT64 address)
{
	for (UINT32 i = 0; i < t->NumberOfEntries; i++) {
		const EFI_MEMORY_DESCRIPTOR *d =
		    (const void *)((UINT8 *)(t + 1) + i * t->DescriptorSize);
		if (address >= d->PhysicalStart &&
		    address < d->PhysicalStart + d->NumberOfPages * 4096)
			return d;
	}
	return NULL;
}

/* Runtime code whose layout is unknown (not the declared image) is left out; an image
 * that is all code gets one RO entry and no empty XP one. */
TEST(memory_attributes_table_describes_only_known_code)
{
	EFI_MEMORY_ATTRIBUTES_TABLE *t = find_table();
	EFI_PHYSICAL_ADDRESS driver, image;
	const EFI_MEMORY_DESCRIPTOR *d;

	ASSERT(t != NULL);
	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiRuntimeServicesCode, 2, &driver),
		      EFI_SUCCESS);
	/* (Likely next to the other: one map range, of which only the image is described.) */
	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiRuntimeServicesCode, 2, &image),
		      EFI_SUCCESS);
	runtime_image_declare(image, image + 2 * 4096, image + 2 * 4096);
	runtime_memory_attributes_update();
	EXPECT(entry_covering(t, driver) == NULL);
	EXPECT(entry_covering(t, driver + 4096) == NULL);
	d = entry_at(t, image);
	ASSERT(d != NULL);
	EXPECT_EQ(d->NumberOfPages, 2);
	EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | EFI_MEMORY_RO);
	EXPECT(entry_at(t, image + 2 * 4096) == NULL ||
	       entry_at(t, image + 2 * 4096)->Type != EfiRuntimeServicesCode);
	runtime_image_declare(0, 0, 0);
	mem_free_pages(image, 2);
	mem_free_pages(driver, 2);
	runtime_memory_attributes_update();
}

#define MANY_RANGES 140

/* More runtime ranges than the table holds: it keeps the first ones, each still whole and
 * in order, and says so once. */
static void many_runtime_ranges(void)
{
	EFI_MEMORY_ATTRIBUTES_TABLE *t = find_table();
	static EFI_PHYSICAL_ADDRESS rt[MANY_RANGES], gap[MANY_RANGES];
	char log[512];
	UINT64 previous_end = 0;

	ASSERT(t != NULL);
	/* Alternating types keep the map from merging the runtime pages into one range. */
	for (int i = 0; i < MANY_RANGES; i++) {
		ASSERT_STATUS(
		    mem_allocate_pages(AllocateAnyPages, EfiRuntimeServicesData, 1, &rt[i]),
		    EFI_SUCCESS);
		ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData, 1, &gap[i]),
			      EFI_SUCCESS);
	}
	test_log_capture(LOG_LEVEL_WARN);
	runtime_memory_attributes_update();
	runtime_memory_attributes_update();
	snprintf(log, sizeof(log), "%s", test_log_text());
	test_log_stop();
	EXPECT_EQ(t->NumberOfEntries, 128);
	const char *warning = "more than 128 runtime ranges";
	char *first = strstr(log, warning);
	EXPECT(first != NULL);
	EXPECT(first && strstr(first + 1, warning) == NULL);
	for (UINT32 i = 0; i < t->NumberOfEntries; i++) {
		const EFI_MEMORY_DESCRIPTOR *d =
		    (const void *)((UINT8 *)(t + 1) + i * t->DescriptorSize);
		EXPECT(d->PhysicalStart >= previous_end && d->NumberOfPages > 0);
		previous_end = d->PhysicalStart + d->NumberOfPages * 4096;
	}
	for (int i = 0; i < MANY_RANGES; i++) {
		mem_free_pages(rt[i], 1);
		mem_free_pages(gap[i], 1);
	}
	runtime_memory_attributes_update();
	EXPECT(t->NumberOfEntries < 128);
}

TEST(memory_attributes_table_overflow_is_reported_once)
{
	RUN_ISOLATED(many_runtime_ranges);
}
