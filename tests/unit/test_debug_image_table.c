/* EFI_DEBUG_IMAGE_INFO_TABLE (core/image/debug_table.c, UEFI 2.10 18.4): published as a
 * configuration table once an image is loaded; one NORMAL entry per loaded image with its
 * LoadedImage and handle, added at LoadImage and removed at UnloadImage, with no gaps;
 * UpdateStatus says "modified" after a change and never stays "in progress". */
#include <string.h>

#include "support/test.h"
#include "pe_builder.h"
#include <ember/core/core.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/debug_image_info.h>
#include <ember/lib/crc32.h>
#include "../../core/image/image.h"

#define IMAGES 20 /* more than one growth step of the table */

static UINT8 pe_file[PEB_FILE_SIZE];

static EFI_DEBUG_IMAGE_INFO_TABLE_HEADER *find_table(void)
{
	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++)
		if (guid_eq(&core_st->ConfigurationTable[i].VendorGuid,
			    &efi_debug_image_info_table_guid))
			return core_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

/* How many entries name this image (its LoadedImage and its handle, type NORMAL). */
static int entries_for(const EFI_DEBUG_IMAGE_INFO_TABLE_HEADER *t, EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
	int n = 0;

	if (EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return -1;
	for (UINT32 i = 0; i < t->TableSize; i++) {
		const EFI_DEBUG_IMAGE_INFO_NORMAL *e = t->EfiDebugImageInfoTable[i].NormalImage;
		if (e && e->ImageInfoType == EFI_DEBUG_IMAGE_INFO_TYPE_NORMAL &&
		    e->LoadedImageProtocolInstance == li && e->ImageHandle == image)
			n++;
	}
	return n;
}

static EFI_HANDLE load(void)
{
	EFI_HANDLE image = NULL;

	ASSERT_STATUS(core_st->BootServices->LoadImage(FALSE, core_image_handle, NULL, pe_file,
						       sizeof(pe_file), &image),
		      EFI_SUCCESS);
	return image;
}

TEST(debug_image_table_follows_load_and_unload)
{
	EFI_HANDLE images[IMAGES];
	EFI_DEBUG_IMAGE_INFO_TABLE_HEADER *t;
	UINT32 before;

	peb_build(pe_file);
	images[0] = load();
	t = find_table();
	ASSERT(t != NULL);
	before = t->TableSize - 1; /* images other tests left loaded */
	for (int i = 1; i < IMAGES; i++)
		images[i] = load();
	EXPECT_EQ(t->TableSize, before + IMAGES);
	for (int i = 0; i < IMAGES; i++)
		EXPECT_EQ(entries_for(t, images[i]), 1);
	EXPECT_EQ(t->UpdateStatus & EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS, 0);
	EXPECT(t->UpdateStatus & EFI_DEBUG_IMAGE_INFO_TABLE_MODIFIED);

	/* A debugger clears "modified"; an unload sets it again and takes the entry out. */
	t->UpdateStatus = 0;
	for (int i = 0; i < IMAGES; i += 2)
		EXPECT_STATUS(core_st->BootServices->UnloadImage(images[i]), EFI_SUCCESS);
	EXPECT(t->UpdateStatus & EFI_DEBUG_IMAGE_INFO_TABLE_MODIFIED);
	EXPECT_EQ(t->UpdateStatus & EFI_DEBUG_IMAGE_INFO_UPDATE_IN_PROGRESS, 0);
	EXPECT_EQ(t->TableSize, before + IMAGES / 2);
	for (UINT32 i = 0; i < t->TableSize; i++)
		EXPECT(t->EfiDebugImageInfoTable[i].NormalImage != NULL);
	for (int i = 1; i < IMAGES; i += 2) {
		EXPECT_EQ(entries_for(t, images[i]), 1);
		EXPECT_STATUS(core_st->BootServices->UnloadImage(images[i]), EFI_SUCCESS);
	}
	EXPECT_EQ(t->TableSize, before);
	EXPECT(find_table() == t); /* one table, published once */
}

/* An image that fails to load leaves no entry behind. */
TEST(debug_image_table_skips_images_that_fail_to_load)
{
	EFI_HANDLE image = NULL;
	EFI_DEBUG_IMAGE_INFO_TABLE_HEADER *t;
	UINT32 before;

	peb_build(pe_file);
	image = load();
	t = find_table();
	ASSERT(t != NULL);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	before = t->TableSize;
	peb_put(pe_file, PEB_RELOC_FILE + 8, 4 << 12, 2); /* an unknown relocation type */
	EXPECT(EFI_ERROR(core_st->BootServices->LoadImage(FALSE, core_image_handle, NULL, pe_file,
							  sizeof(pe_file), &image)));
	EXPECT_EQ(t->TableSize, before);
}

/* EFI_SYSTEM_TABLE_POINTER: one page on a 4 MiB boundary with "IBI SYST", the system
 * table's address and a CRC-32 over the structure; the rest of the allocation is free. */
TEST(system_table_pointer_is_aligned_and_checked)
{
	EFI_SYSTEM_TABLE_POINTER *p, copy;
	EFI_PHYSICAL_ADDRESS address;

	ASSERT_STATUS(image_publish_system_table_pointer(), EFI_SUCCESS);
	p = image_system_table_pointer;
	ASSERT(p != NULL);
	address = (EFI_PHYSICAL_ADDRESS)(uintptr_t)p;
	EXPECT_EQ(address % (4ULL << 20), 0);
	EXPECT_EQ(p->Signature, 0x5453595320494249ULL);
	EXPECT(p->EfiSystemTableBase == (EFI_PHYSICAL_ADDRESS)(uintptr_t)core_st);
	copy = *p;
	copy.Crc32 = 0;
	EXPECT_EQ(p->Crc32, crc32(&copy, sizeof(copy)));
	EXPECT(mem_is_allocated(p, EFI_PAGE_SIZE));
	EXPECT(!mem_is_allocated((UINT8 *)p + EFI_PAGE_SIZE, 1)); /* the rest went back */
	mem_free_pages(address, 1);
	image_system_table_pointer = NULL;
}
