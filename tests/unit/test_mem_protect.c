/* Memory protection (core/mem/protect.c, core/mem/memory_attribute.c, core/image/protect.c,
 * core/image/pe_protect.c): the NX policy per memory type, EFI_MEMORY_ATTRIBUTE_PROTOCOL's
 * argument checks, splitting and merging the map's ranges, protection given back when
 * pages are freed, and loaded images' code RO and data XP. Each test turns protection on
 * in a child process (the unit-test platform's page tables are an array). */
#include <string.h>
#include "support/test.h"
#include "support/test_platform.h"
#include "pe_builder.h"
#include "../../core/services.h"
#include "../../core/mem/memmap.h"
#include <ember/core/pe.h>
#include <ember/lib/guids.h>
#include <efi/protocol/memory_attribute.h>
#include <efi/memory_attributes_table.h>
#include <ember/lib/str.h>

#define PAGE 4096ULL
#define RO EFI_MEMORY_RO
#define XP EFI_MEMORY_XP
#define RP EFI_MEMORY_RP

static EFI_MEMORY_ATTRIBUTE_PROTOCOL *start_protection(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = NULL;

	if (!ASSERT_STATUS(mem_protection_start(), EFI_SUCCESS))
		return NULL;
	ASSERT_STATUS(protocol_locate(&efi_memory_attribute_protocol_guid, (void **)&ma),
		      EFI_SUCCESS);
	return ma;
}

static EFI_PHYSICAL_ADDRESS allocate(EFI_MEMORY_TYPE type, UINTN pages)
{
	EFI_PHYSICAL_ADDRESS a = 0;

	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, type, pages, &a), EFI_SUCCESS);
	return a;
}

static UINT64 get(EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma, EFI_PHYSICAL_ADDRESS base, UINT64 pages)
{
	UINT64 a = 0xdead;

	EXPECT_STATUS(ma->GetMemoryAttributes(ma, base, pages * PAGE, &a), EFI_SUCCESS);
	return a;
}

static size_t map_ranges(void)
{
	size_t n;

	memmap_ranges(&n);
	return n;
}

static UINTN map_descriptors(UINTN *key)
{
	static UINT8 map[64 * 1024];
	UINTN size = sizeof(map), descriptor_size = 1;
	UINT32 version;

	EXPECT_STATUS(mem_get_map(&size, (void *)map, key, &descriptor_size, &version),
		      EFI_SUCCESS);
	return size / descriptor_size;
}

/* Code types and LoaderData run; every other type, free memory included, gets XP. */
static void policy_follows_the_type(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	EFI_PHYSICAL_ADDRESS code = allocate(EfiLoaderCode, 1), data = allocate(EfiLoaderData, 1);
	EFI_PHYSICAL_ADDRESS bs_data = allocate(EfiBootServicesData, 1);
	EFI_PHYSICAL_ADDRESS rt_data = allocate(EfiRuntimeServicesData, 1);
	EFI_PHYSICAL_ADDRESS bs_code = allocate(EfiBootServicesCode, 1);

	ASSERT(ma != NULL);
	EXPECT_EQ(get(ma, code, 1), 0);
	EXPECT_EQ(test_page_protection(code), 0);
	EXPECT_EQ(get(ma, data, 1), 0);
	EXPECT_EQ(get(ma, bs_code, 1), 0);
	EXPECT_EQ(get(ma, bs_data, 1), XP);
	EXPECT_EQ(test_page_protection(bs_data), XP);
	EXPECT_EQ(get(ma, rt_data, 1), XP);
	EXPECT_EQ(test_page_protection(rt_data), XP);
	mem_free_pages(code, 1);
	EXPECT_EQ(get(ma, code, 1), XP); /* free memory */
	EXPECT_EQ(test_page_protection(code), XP);
}

TEST(memory_protection_policy_follows_the_type)
{
	RUN_ISOLATED(policy_follows_the_type);
}

static void argument_checks(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	EFI_PHYSICAL_ADDRESS p = allocate(EfiLoaderData, 2), free_page;
	UINT64 a;

	ASSERT(ma != NULL);
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, p, 0, &a), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, p, PAGE, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, p + 1, PAGE, &a), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, p, PAGE + 1, &a), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p, 0, XP), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p, PAGE, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p, PAGE, XP | EFI_MEMORY_WB),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p + 0x800, PAGE, XP), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->ClearMemoryAttributes(ma, p, 0x800, XP), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ma->ClearMemoryAttributes(ma, p, PAGE, EFI_MEMORY_RUNTIME),
		      EFI_INVALID_PARAMETER);
	/* Bytes beyond the address space, or that the memory map does not describe. */
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, 0xfffffffffffff000ULL, 2 * PAGE, &a),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, 0x1000, PAGE, XP), EFI_UNSUPPORTED);
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, 0x1000, PAGE, &a), EFI_UNSUPPORTED);
	/* Free memory keeps the protection of free memory. */
	free_page = allocate(EfiLoaderData, 1);
	mem_free_pages(free_page, 1);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, free_page, PAGE, RO), EFI_ACCESS_DENIED);
	EXPECT_STATUS(ma->ClearMemoryAttributes(ma, free_page, PAGE, XP), EFI_ACCESS_DENIED);
	EXPECT_EQ(get(ma, free_page, 1), XP);
	/* None of the refusals changed anything. */
	EXPECT_EQ(get(ma, p, 2), 0);
}

TEST(memory_attribute_protocol_argument_checks)
{
	RUN_ISOLATED(argument_checks);
}

/* Setting attributes on pages inside a range splits it; clearing them merges it again.
 * GetMemoryMap shows neither, and its key does not change. */
static void split_and_merge(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	EFI_PHYSICAL_ADDRESS p = allocate(EfiBootServicesCode, 4);
	size_t ranges = map_ranges();
	UINTN key, key_after, descriptors = map_descriptors(&key);
	UINT64 a;

	ASSERT(ma != NULL);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p + PAGE, 2 * PAGE, RO), EFI_SUCCESS);
	EXPECT_EQ(map_ranges(), ranges + 2);
	EXPECT_EQ(get(ma, p, 1), 0);
	EXPECT_EQ(get(ma, p + PAGE, 2), RO);
	EXPECT_EQ(get(ma, p + 3 * PAGE, 1), 0);
	EXPECT_EQ(test_page_protection(p), 0);
	EXPECT_EQ(test_page_protection(p + PAGE), RO);
	EXPECT_EQ(test_page_protection(p + 2 * PAGE), RO);
	EXPECT_EQ(test_page_protection(p + 3 * PAGE), 0);
	EXPECT_STATUS(ma->GetMemoryAttributes(ma, p, 4 * PAGE, &a), EFI_NO_MAPPING);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p + 2 * PAGE, PAGE, XP), EFI_SUCCESS);
	EXPECT_EQ(get(ma, p + 2 * PAGE, 1), RO | XP);
	EXPECT_EQ(get(ma, p + PAGE, 1), RO);
	EXPECT_EQ(map_ranges(), ranges + 3);
	EXPECT_EQ(map_descriptors(&key_after), descriptors);
	EXPECT_EQ(key_after, key);
	EXPECT_STATUS(ma->ClearMemoryAttributes(ma, p, 4 * PAGE, RO | XP), EFI_SUCCESS);
	EXPECT_EQ(get(ma, p, 4), 0);
	EXPECT_EQ(map_ranges(), ranges);
	EXPECT_EQ(test_page_protection(p + 2 * PAGE), 0);
	/* Read-protect, and back. */
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p, PAGE, RP), EFI_SUCCESS);
	EXPECT_EQ(test_page_protection(p), RP);
	EXPECT_STATUS(ma->ClearMemoryAttributes(ma, p, PAGE, RP), EFI_SUCCESS);
	EXPECT_EQ(map_ranges(), ranges);
}

TEST(memory_attributes_split_and_merge_ranges)
{
	RUN_ISOLATED(split_and_merge);
}

/* Freed pages get the protection of free memory, whatever was set on them; the page
 * tables and the record agree when the platform fails. */
static void free_restores_and_failures_change_nothing(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	EFI_PHYSICAL_ADDRESS p = allocate(EfiLoaderCode, 2), again;
	unsigned calls;

	ASSERT(ma != NULL);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p, 2 * PAGE, RO | RP), EFI_SUCCESS);
	EXPECT_STATUS(mem_free_pages(p, 2), EFI_SUCCESS);
	EXPECT_EQ(get(ma, p, 2), XP);
	EXPECT_EQ(test_page_protection(p + PAGE), XP);
	EXPECT_STATUS(mem_allocate_pages(AllocateAddress, EfiLoaderCode, 2, &p), EFI_SUCCESS);
	EXPECT_EQ(get(ma, p, 2), 0);
	EXPECT_EQ(test_page_protection(p), 0);
	/* No call at all for allocations that keep the protection of free memory. */
	calls = test_memory_protect_calls();
	again = allocate(EfiBootServicesData, 3);
	mem_free_pages(again, 3);
	EXPECT_EQ(test_memory_protect_calls(), calls);
	test_memory_protect_fail(true);
	EXPECT_STATUS(ma->SetMemoryAttributes(ma, p, PAGE, XP), EFI_OUT_OF_RESOURCES);
	test_memory_protect_fail(false);
	EXPECT_EQ(get(ma, p, 2), 0);
}

TEST(memory_protection_restored_on_free)
{
	RUN_ISOLATED(free_restores_and_failures_change_nothing);
}

static EFI_HANDLE load_reference(uint8_t *file)
{
	EFI_HANDLE image = NULL;
	const char *reason = NULL;

	ASSERT_STATUS(
	    image_load(false, core_image_handle, NULL, file, PEB_FILE_SIZE, &image, &reason),
	    EFI_SUCCESS);
	return image;
}

static EFI_PHYSICAL_ADDRESS image_base_of(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;

	protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li);
	return li ? (UINTN)li->ImageBase : 0;
}

/* The reference image (.text at 0x1000, .data at 0x2000, SectionAlignment 4 KiB) gets RO
 * code and XP elsewhere; unloading gives its pages back as free memory. */
static void images_are_protected(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	uint8_t file[PEB_FILE_SIZE];
	EFI_PHYSICAL_ADDRESS base;
	EFI_HANDLE image;

	ASSERT(ma != NULL);
	peb_build(file);
	image = load_reference(file);
	ASSERT(image != NULL);
	base = image_base_of(image);
	EXPECT_EQ(get(ma, base, 1), XP); /* headers */
	EXPECT_EQ(get(ma, base + 0x1000, 1), RO);
	EXPECT_EQ(get(ma, base + 0x2000, 3), XP);
	EXPECT_EQ(test_page_protection(base + 0x1000), RO);
	EXPECT_EQ(test_page_protection(base + 0x2000), XP);
	EXPECT_STATUS(image_unload(image), EFI_SUCCESS);
	EXPECT_EQ(get(ma, base, 5), XP);
	EXPECT_EQ(test_page_protection(base + 0x1000), XP);
}

TEST(loaded_image_code_ro_data_xp)
{
	RUN_ISOLATED(images_are_protected);
}

/* An image whose sections may share pages (SectionAlignment 512) runs as before: all of
 * it executable and writable. */
static void old_images_run_unprotected(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	uint8_t file[PEB_FILE_SIZE];
	EFI_PHYSICAL_ADDRESS base;
	EFI_HANDLE image;

	ASSERT(ma != NULL);
	peb_build(file);
	peb_put(file, PEB_OH_SECTION_ALIGN, 0x200, 4);
	image = load_reference(file);
	ASSERT(image != NULL);
	base = image_base_of(image);
	EXPECT_EQ(get(ma, base, 5), 0);
	image_unload(image);
}

TEST(unaligned_image_runs_unprotected)
{
	RUN_ISOLATED(old_images_run_unprotected);
}

/* pe_code_ranges: the code section's pages; no protection for writable code or a section
 * alignment below a page. */
TEST(pe_code_ranges_of_the_reference_image)
{
	uint8_t file[PEB_FILE_SIZE], image[PEB_IMAGE_SIZE] = {0};
	struct pe_image_info info;
	struct pe_range code[4];

	peb_build(file);
	ASSERT_STATUS(pe_parse(file, sizeof(file), &info, NULL), EFI_SUCCESS);
	ASSERT_STATUS(pe_load(file, sizeof(file), &info, image, info.image_base, NULL),
		      EFI_SUCCESS);
	ASSERT_EQ(pe_code_ranges(image, &info, code, 4), 1);
	EXPECT_EQ(code[0].rva, 0x1000);
	EXPECT_EQ(code[0].size, 0x1000);
	EXPECT_EQ(pe_code_ranges(image, &info, code, 0), -1); /* more code than room */
	peb_put(image, PEB_SECTION(0) + 36, 0xe0000020, 4);   /* .text writable too */
	EXPECT_EQ(pe_code_ranges(image, &info, code, 4), -1);
	peb_put(image, PEB_SECTION(0) + 36, 0x60000020, 4);
	info.section_alignment = 0x200;
	EXPECT_EQ(pe_code_ranges(image, &info, code, 4), -1);
}

static const EFI_MEMORY_DESCRIPTOR *mat_entry_at(UINT64 address)
{
	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++) {
		EFI_MEMORY_ATTRIBUTES_TABLE *t = core_st->ConfigurationTable[i].VendorTable;
		if (!guid_eq(&core_st->ConfigurationTable[i].VendorGuid,
			     &efi_memory_attributes_table_guid))
			continue;
		for (UINT32 j = 0; j < t->NumberOfEntries; j++) {
			const EFI_MEMORY_DESCRIPTOR *d =
			    (const void *)((UINT8 *)(t + 1) + j * t->DescriptorSize);
			if (d->PhysicalStart == address)
				return d;
		}
	}
	return NULL;
}

/* A runtime driver image the loader protected is in the memory attributes table as it
 * is mapped: RO code, XP headers and data, each entry of type EfiRuntimeServicesCode. */
static void runtime_image_in_the_table(void)
{
	EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = start_protection();
	uint8_t file[PEB_FILE_SIZE];
	const EFI_MEMORY_DESCRIPTOR *d;
	EFI_PHYSICAL_ADDRESS base;
	EFI_HANDLE image;

	ASSERT(ma != NULL);
	peb_build(file);
	peb_put(file, PEB_OH_SUBSYSTEM, EFI_IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER, 2);
	image = load_reference(file);
	ASSERT(image != NULL);
	base = image_base_of(image);
	runtime_memory_attributes_update();
	d = mat_entry_at(base);
	ASSERT(d != NULL);
	EXPECT_EQ(d->Type, EfiRuntimeServicesCode);
	EXPECT_EQ(d->NumberOfPages, 1);
	EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | XP);
	d = mat_entry_at(base + 0x1000);
	ASSERT(d != NULL);
	EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | RO);
	EXPECT_EQ(d->NumberOfPages, 1);
	d = mat_entry_at(base + 0x2000);
	ASSERT(d != NULL);
	EXPECT_EQ(d->Attribute, EFI_MEMORY_RUNTIME | XP);
	EXPECT_EQ(d->NumberOfPages, 3);
}

TEST(memory_attributes_table_describes_protected_runtime_images)
{
	RUN_ISOLATED(runtime_image_in_the_table);
}
