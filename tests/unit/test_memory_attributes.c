/* The memory attributes table: the declared runtime image split into RO code and XP data,
 * runtime data XP, every entry inside one map range of its own type. */
#include <string.h>
#include "support/test.h"
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
