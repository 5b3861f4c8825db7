/* The HII resource of a loaded image (core/image/pe_resource.c): the reference image of
 * pe_builder with a resource directory written into its .data, as EDK2's build lays one
 * out (root entry named "HII", two levels of one entry each, a data entry). */
#include <stdlib.h>
#include <string.h>
#include "support/test.h"
#include "pe_builder.h"
#include <ember/core/pe.h>
#include <ember/core/core.h>
#include <ember/lib/guids.h>
#include <efi/protocol/loaded_image.h>

/* The free end of .data's raw data, so that the file carries them too. */
#define RES_RVA 0x2180
#define LIST_RVA 0x21e8
#define LIST_SIZE 24

/* Writes the directory (at res) and a package list of one END package (at list). */
static void put_resource(uint8_t *headers, uint8_t *r, uint8_t *list)
{
	static const uint8_t guid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

	peb_put(headers, PEB_OH_DIR(2), RES_RVA, 4);
	peb_put(headers, PEB_OH_DIR(2) + 4, 0x68, 4);
	peb_put(r, 12, 1, 2);				/* root: one named entry */
	peb_put(r, 16, 0x80000060, 4);			/* its name at 0x60 */
	peb_put(r, 20, 0x80000018, 4);			/* a table at 0x18 */
	peb_put(r, 0x18 + 14, 1, 2);			/* one ID entry */
	peb_put(r, 0x18 + 20, 0x80000030, 4);		/* a table at 0x30 */
	peb_put(r, 0x30 + 14, 1, 2);			/* one ID entry */
	peb_put(r, 0x30 + 20, 0x48, 4);			/* the data entry at 0x48 */
	peb_put(r, 0x48, LIST_RVA, 4);			/* the list's RVA */
	peb_put(r, 0x4c, LIST_SIZE, 4);			/* its size */
	memcpy(r + 0x60, "\x03\x00H\x00I\x00I\x00", 8); /* "HII", counted */
	memcpy(list, guid, 16);
	peb_put(list, 16, LIST_SIZE, 4);
	peb_put(list, 20, 0xdf000004, 4); /* END */
}

static uint8_t *loaded_with_resource(void)
{
	uint8_t file[PEB_FILE_SIZE], *image = malloc(PEB_IMAGE_SIZE);
	struct pe_image_info info;

	peb_build(file);
	if (!image || EFI_ERROR(pe_parse(file, sizeof(file), &info, NULL)) ||
	    EFI_ERROR(pe_load(file, sizeof(file), &info, image, PEB_IMAGE_BASE, NULL))) {
		free(image);
		return NULL;
	}
	put_resource(image, image + RES_RVA, image + LIST_RVA);
	return image;
}

TEST(pe_hii_resource_found)
{
	uint8_t *image = loaded_with_resource();
	UINT32 rva = 0, size = 0;

	ASSERT(image != NULL);
	EXPECT(pe_hii_resource(image, PEB_IMAGE_SIZE, &rva, &size));
	EXPECT_EQ(rva, LIST_RVA);
	EXPECT_EQ(size, LIST_SIZE);
	free(image);
}

TEST(pe_hii_resource_refused)
{
	static const struct {
		size_t offset;
		uint64_t value;
		int width;
	} breaks[] = {
	    {RES_RVA + 0x62, 'X', 1},		       /* another name */
	    {RES_RVA + 0x60, 4, 2},		       /* "HII" and one more character */
	    {RES_RVA + 16, 0x60, 4},		       /* an ID, not a name */
	    {RES_RVA + 20, 0x80000070, 4},	       /* a table past the directory */
	    {RES_RVA + 0x18 + 20, 0x80000018, 4},      /* a table that is its own child */
	    {RES_RVA + 0x4c, PEB_IMAGE_SIZE, 4},       /* data past the image */
	    {RES_RVA + 0x48, 0xfffffff0, 4},	       /* an RVA that wraps */
	    {RES_RVA + 0x4c, 19, 4},		       /* shorter than a list header */
	    {PEB_OH_DIR(2) + 4, 0x5f, 4},	       /* directory too short for the name */
	    {PEB_OH_DIR(2), PEB_IMAGE_SIZE - 0x10, 4}, /* directory past the image */
	};
	UINT32 rva, size;

	for (size_t i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++) {
		uint8_t *image = loaded_with_resource();

		ASSERT(image != NULL);
		peb_put(image, breaks[i].offset, breaks[i].value, breaks[i].width);
		EXPECT_EQ(pe_hii_resource(image, PEB_IMAGE_SIZE, &rva, &size) ? i : 99, 99);
		free(image);
	}
	/* Without a resource directory, nothing. */
	{
		uint8_t *image = loaded_with_resource();

		ASSERT(image != NULL);
		peb_put(image, PEB_OH_DIR(2), 0, 4);
		EXPECT(!pe_hii_resource(image, PEB_IMAGE_SIZE, &rva, &size));
		free(image);
	}
}

/* LoadImage publishes the list as EFI_HII_PACKAGE_LIST_PROTOCOL on the image's handle and
 * UnloadImage takes it away with the handle. */
TEST(load_image_publishes_hii_packages)
{
	uint8_t file[PEB_FILE_SIZE];
	EFI_HANDLE image = NULL;
	EFI_LOADED_IMAGE_PROTOCOL *loaded;
	void *list = NULL;
	const char *reason = NULL;

	peb_build(file);
	put_resource(file, file + peb_file_offset(RES_RVA), file + peb_file_offset(LIST_RVA));
	ASSERT_STATUS(image_load_builtin(core_image_handle, file, sizeof(file), &image, &reason),
		      EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&loaded),
		      EFI_SUCCESS);
	EXPECT_STATUS(protocol_get(image, &efi_hii_package_list_protocol_guid, &list), EFI_SUCCESS);
	EXPECT(list == (uint8_t *)loaded->ImageBase + LIST_RVA);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	/* A list the HII checks refuse (no END package) is not published. */
	peb_put(file, peb_file_offset(LIST_RVA) + 20, 0xe0000004, 4);
	ASSERT_STATUS(image_load_builtin(core_image_handle, file, sizeof(file), &image, &reason),
		      EFI_SUCCESS);
	EXPECT_STATUS(protocol_get(image, &efi_hii_package_list_protocol_guid, &list),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
}
