/* LoadImage (core/image/load.c and file.c, UEFI 2.10 7.4.1) over fake devices: an image
 * named by a device path is read through the file system on the device the path leads to,
 * else LoadFile2 (never for a boot-policy load), else LoadFile, with the rest of the path
 * passed on; errors of those come back; the pages take the subsystem's memory types; an
 * image that cannot move is placed at its base or refused; images are named after their
 * file, else their PDB, else their address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "pe_builder.h"
#include "../../core/services.h"
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/simple_file_system.h>

static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static const EFI_GUID lf_guid = EFI_LOAD_FILE_PROTOCOL_GUID;
static const EFI_GUID lf2_guid = EFI_LOAD_FILE2_PROTOCOL_GUID;
static const EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
static const EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static const EFI_GUID li_dp_guid = EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID;

static UINT8 pe_file[PEB_FILE_SIZE];

/* ---- A device with LoadFile and/or LoadFile2 ---- */

struct loader {
	EFI_LOAD_FILE_PROTOCOL protocol;
	unsigned calls;
	BOOLEAN boot_policy;
	EFI_DEVICE_PATH_PROTOCOL *file_path;
	EFI_STATUS probe_status, read_status; /* != EFI_SUCCESS: fail that call */
};

static EFI_STATUS EFIAPI loader_load_file(EFI_LOAD_FILE_PROTOCOL *this,
					  EFI_DEVICE_PATH_PROTOCOL *path, BOOLEAN boot_policy,
					  UINTN *size, VOID *buffer)
{
	struct loader *l = (struct loader *)this;

	l->calls++;
	l->boot_policy = boot_policy;
	l->file_path = path;
	if (!buffer) {
		if (l->probe_status != EFI_SUCCESS)
			return l->probe_status == EFI_WARN_UNKNOWN_GLYPH ? EFI_SUCCESS
									 : l->probe_status;
		*size = sizeof(pe_file);
		return EFI_BUFFER_TOO_SMALL;
	}
	if (EFI_ERROR(l->read_status))
		return l->read_status;
	memcpy(buffer, pe_file, sizeof(pe_file));
	*size = sizeof(pe_file);
	return EFI_SUCCESS;
}

struct device {
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *path;
	struct loader lf, lf2;
};

/* A VenHw() device numbered n, with LoadFile and/or LoadFile2. */
static void device_add(struct device *d, int n, bool lf, bool lf2)
{
	CHAR16 text[64] = u"VenHw(0C0DE000-0000-0000-0000-00000000000?)";

	memset(d, 0, sizeof(*d));
	text[str16_len(text) - 2] = (CHAR16)('0' + n);
	d->path = dp_from_text(text);
	ASSERT(d->path != NULL);
	d->lf.protocol.LoadFile = d->lf2.protocol.LoadFile = loader_load_file;
	ASSERT_STATUS(protocol_install(&d->handle, &dp_guid, d->path), EFI_SUCCESS);
	if (lf)
		ASSERT_STATUS(protocol_install(&d->handle, &lf_guid, &d->lf), EFI_SUCCESS);
	if (lf2)
		ASSERT_STATUS(protocol_install(&d->handle, &lf2_guid, &d->lf2), EFI_SUCCESS);
}

static void device_remove(struct device *d)
{
	void *p;

	if (!EFI_ERROR(protocol_get(d->handle, &lf_guid, &p)))
		protocol_uninstall(d->handle, &lf_guid, p);
	if (!EFI_ERROR(protocol_get(d->handle, &lf2_guid, &p)))
		protocol_uninstall(d->handle, &lf2_guid, p);
	if (!EFI_ERROR(protocol_get(d->handle, &sfs_guid, &p)))
		protocol_uninstall(d->handle, &sfs_guid, p);
	protocol_uninstall(d->handle, &dp_guid, d->path);
	pool_free(d->path);
}

/* The device's path followed by file path nodes. */
static EFI_DEVICE_PATH_PROTOCOL *path_to(struct device *d, const CHAR16 *dir, const CHAR16 *name)
{
	EFI_DEVICE_PATH_PROTOCOL *p = dp_dup(d->path), *node, *next;

	for (int i = 0; i < 2; i++) {
		const CHAR16 *part = i ? name : dir;
		if (!part)
			continue;
		node = dp_file_path(part);
		next = dp_append(p, node);
		pool_free(node);
		pool_free(p);
		p = next;
	}
	return p;
}

static EFI_STATUS load(BOOLEAN boot_policy, EFI_DEVICE_PATH_PROTOCOL *path, EFI_HANDLE *image)
{
	*image = NULL;
	return core_st->BootServices->LoadImage(boot_policy, core_image_handle, path, NULL, 0,
						image);
}

static EFI_LOADED_IMAGE_PROTOCOL *loaded(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;

	protocol_get(image, &li_guid, (void **)&li);
	return li;
}

static bool same_path(const EFI_DEVICE_PATH_PROTOCOL *a, const EFI_DEVICE_PATH_PROTOCOL *b)
{
	return a && b && dp_size(a) == dp_size(b) && !memcmp(a, b, dp_size(a));
}

TEST(load_image_checks_its_arguments)
{
	EFI_BOOT_SERVICES *bs = core_st->BootServices;
	EFI_HANDLE image = NULL;
	static const UINT8 broken[] = {0x01, 0x01, 0x02, 0x00}; /* node shorter than a header */
	EFI_DEVICE_PATH_PROTOCOL *nowhere =
	    dp_from_text(u"VenHw(0C0DE000-0000-0000-0000-0000000000FF)/x.efi");

	peb_build(pe_file);
	EXPECT_STATUS(bs->LoadImage(FALSE, core_image_handle, NULL, pe_file, sizeof(pe_file), NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bs->LoadImage(FALSE, NULL, NULL, pe_file, sizeof(pe_file), &image),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    bs->LoadImage(FALSE, (EFI_HANDLE)pe_file, NULL, pe_file, sizeof(pe_file), &image),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bs->LoadImage(FALSE, core_image_handle, NULL, NULL, 0, &image),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(bs->LoadImage(FALSE, core_image_handle, (EFI_DEVICE_PATH_PROTOCOL *)broken,
				    NULL, 0, &image),
		      EFI_INVALID_PARAMETER);
	ASSERT(nowhere != NULL);
	EXPECT_STATUS(bs->LoadImage(FALSE, core_image_handle, nowhere, NULL, 0, &image),
		      EFI_NOT_FOUND);
	EXPECT(image == NULL);
	pool_free(nowhere);
}

TEST(load_image_through_load_file2_and_load_file)
{
	struct device d;
	EFI_HANDLE image;
	EFI_DEVICE_PATH_PROTOCOL *path, *file_node = dp_file_path(u"\\EFI\\x.efi");
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_DEVICE_PATH_PROTOCOL *li_path;

	peb_build(pe_file);
	device_add(&d, 1, true, true);
	path = path_to(&d, u"\\EFI\\x.efi", NULL);
	ASSERT(path && file_node);
	/* Not a boot-policy load: LoadFile2, given the rest of the path. */
	ASSERT_STATUS(load(FALSE, path, &image), EFI_SUCCESS);
	EXPECT_EQ(d.lf2.calls, 2);
	EXPECT_EQ(d.lf.calls, 0);
	EXPECT(!d.lf2.boot_policy);
	EXPECT(same_path(d.lf2.file_path, file_node));
	li = loaded(image);
	ASSERT(li != NULL);
	EXPECT(li->DeviceHandle == d.handle);
	EXPECT(li->ParentHandle == core_image_handle);
	EXPECT(same_path(li->FilePath, file_node));
	EXPECT_STATUS(protocol_get(image, &li_dp_guid, (void **)&li_path), EFI_SUCCESS);
	EXPECT(same_path(li_path, path));
	EXPECT_EQ(li->ImageCodeType, EfiLoaderCode);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	/* A boot-policy load never uses LoadFile2 (UEFI 2.10, 13.2). */
	ASSERT_STATUS(load(TRUE, path, &image), EFI_SUCCESS);
	EXPECT_EQ(d.lf2.calls, 2);
	EXPECT_EQ(d.lf.calls, 2);
	EXPECT(d.lf.boot_policy);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	/* Without LoadFile, a boot-policy load finds nothing. */
	protocol_uninstall(d.handle, &lf_guid, &d.lf);
	EXPECT_STATUS(load(TRUE, path, &image), EFI_NOT_FOUND);
	device_remove(&d);
	pool_free(file_node);
	pool_free(path);
}

TEST(load_image_reports_load_file_errors)
{
	struct device d;
	EFI_HANDLE image;
	EFI_DEVICE_PATH_PROTOCOL *path;

	peb_build(pe_file);
	device_add(&d, 2, true, false);
	path = path_to(&d, u"x.efi", NULL);
	d.lf.read_status = EFI_DEVICE_ERROR;
	EXPECT_STATUS(load(TRUE, path, &image), EFI_DEVICE_ERROR);
	d.lf.read_status = EFI_SUCCESS;
	d.lf.probe_status = EFI_NO_MEDIA;
	EXPECT_STATUS(load(TRUE, path, &image), EFI_NO_MEDIA);
	/* A size probe that succeeds has nothing to load. */
	d.lf.probe_status = EFI_WARN_UNKNOWN_GLYPH; /* (the fake's code for "succeed") */
	EXPECT_STATUS(load(TRUE, path, &image), EFI_NOT_FOUND);
	/* A file that is no image. */
	d.lf.probe_status = EFI_SUCCESS;
	memset(pe_file, 0, sizeof(pe_file));
	EXPECT_STATUS(load(TRUE, path, &image), EFI_LOAD_ERROR);
	EXPECT(image == NULL);
	device_remove(&d);
	pool_free(path);
}

/* ---- A device with a file system holding one file ---- */

struct fake_fs {
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL sfs;
	EFI_FILE_PROTOCOL root, file;
	const CHAR16 *name;
	bool is_directory, short_read, no_volume, no_info;
	unsigned opens, closes;
};

static struct fake_fs fs;

static EFI_STATUS EFIAPI fs_open(EFI_FILE_PROTOCOL *this, EFI_FILE_PROTOCOL **out, CHAR16 *name,
				 UINT64 mode, UINT64 attributes)
{
	if (this != &fs.root || mode != EFI_FILE_MODE_READ)
		return EFI_INVALID_PARAMETER;
	if (str16_cmp(name, fs.name))
		return EFI_NOT_FOUND;
	fs.opens++;
	*out = &fs.file;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fs_close(EFI_FILE_PROTOCOL *this)
{
	fs.closes++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fs_read(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	UINTN n = MIN(*size, sizeof(pe_file) - (fs.short_read ? 1 : 0));

	memcpy(buffer, pe_file, n);
	*size = n;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fs_get_info(EFI_FILE_PROTOCOL *this, EFI_GUID *type, UINTN *size,
				     VOID *buffer)
{
	EFI_FILE_INFO *info = buffer;

	if (fs.no_info)
		return EFI_DEVICE_ERROR;
	if (*size < SIZE_OF_EFI_FILE_INFO + 2)
		return EFI_BUFFER_TOO_SMALL;
	memset(info, 0, SIZE_OF_EFI_FILE_INFO + 2);
	info->Size = SIZE_OF_EFI_FILE_INFO + 2;
	info->FileSize = sizeof(pe_file);
	info->Attribute = fs.is_directory ? EFI_FILE_DIRECTORY : 0;
	*size = info->Size;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fs_open_volume(EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *this,
					EFI_FILE_PROTOCOL **root)
{
	if (fs.no_volume)
		return EFI_MEDIA_CHANGED;
	*root = &fs.root;
	return EFI_SUCCESS;
}

static void fs_add(struct device *d, const CHAR16 *name)
{
	EFI_FILE_PROTOCOL file = {.Revision = EFI_FILE_PROTOCOL_REVISION,
				  .Open = fs_open,
				  .Close = fs_close,
				  .Read = fs_read,
				  .GetInfo = fs_get_info};

	memset(&fs, 0, sizeof(fs));
	fs.sfs.Revision = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_REVISION;
	fs.sfs.OpenVolume = fs_open_volume;
	fs.root = fs.file = file;
	fs.name = name;
	device_add(d, 3, false, false);
	ASSERT_STATUS(protocol_install(&d->handle, &sfs_guid, &fs.sfs), EFI_SUCCESS);
}

static const char *image_name(EFI_HANDLE image)
{
	struct image_location where;
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded(image);

	if (!li || !image_find_by_address((UINTN)li->ImageBase + 0x1000, &where))
		return "";
	return where.name;
}

TEST(load_image_through_the_file_system)
{
	struct device d;
	EFI_HANDLE image;
	EFI_DEVICE_PATH_PROTOCOL *path;

	peb_build(pe_file);
	fs_add(&d, u"\\EFI\\BOOT\\x.efi");
	/* A path in two file nodes is one path: the parts join with a backslash. */
	path = path_to(&d, u"\\EFI\\BOOT", u"x.efi");
	ASSERT_STATUS(load(FALSE, path, &image), EFI_SUCCESS);
	EXPECT(loaded(image)->DeviceHandle == d.handle);
	if (!EXPECT(!strcmp(image_name(image), "x.efi")))
		printf("    named %s\n", image_name(image));
	EXPECT_EQ(fs.opens, 1);
	EXPECT_EQ(fs.closes, 2); /* the file and the root */
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	pool_free(path);
	/* The name comes from the end of a long path too. */
	fs.name = u"\\EFI\\a-directory-name-long-enough-to-fill-a-name-buffer-on-its-own-and-more"
		  u"\\grubx64.efi";
	path = path_to(&d, fs.name, NULL);
	ASSERT_STATUS(load(FALSE, path, &image), EFI_SUCCESS);
	if (!EXPECT(!strcmp(image_name(image), "grubx64.efi")))
		printf("    named %s\n", image_name(image));
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	pool_free(path);
	fs.name = u"\\EFI\\BOOT\\x.efi";
	path = path_to(&d, u"\\EFI\\BOOT", u"x.efi");
	/* A directory is not an image; a short read is the device's fault. */
	fs.is_directory = true;
	EXPECT_STATUS(load(FALSE, path, &image), EFI_NOT_FOUND);
	fs.is_directory = false;
	fs.short_read = true;
	EXPECT_STATUS(load(FALSE, path, &image), EFI_DEVICE_ERROR);
	fs.short_read = false;
	fs.no_info = true;
	EXPECT_STATUS(load(FALSE, path, &image), EFI_DEVICE_ERROR);
	fs.no_info = false;
	fs.no_volume = true;
	EXPECT_STATUS(load(FALSE, path, &image), EFI_MEDIA_CHANGED);
	fs.no_volume = false;
	pool_free(path);
	/* A path longer than the firmware takes is not found, never cut. */
	CHAR16 *long_name = calloc(1100, sizeof(CHAR16));
	ASSERT(long_name != NULL);
	for (int i = 0; i < 1099; i++)
		long_name[i] = i % 20 ? 'n' : '\\';
	path = path_to(&d, long_name, NULL);
	EXPECT_STATUS(load(FALSE, path, &image), EFI_NOT_FOUND);
	free(long_name);
	pool_free(path);
	/* Another name, and a node that is no file path after the device. */
	path = path_to(&d, u"\\EFI\\BOOT\\y.efi", NULL);
	EXPECT_STATUS(load(FALSE, path, &image), EFI_NOT_FOUND);
	pool_free(path);
	path = dp_from_text(u"VenHw(0C0DE000-0000-0000-0000-000000000003)/Pci(0x1,0x0)");
	EXPECT_STATUS(load(FALSE, path, &image), EFI_NOT_FOUND);
	pool_free(path);
	device_remove(&d);
}

/* ---- What the image's headers decide ---- */

static EFI_MEMORY_TYPE page_type(UINT64 address)
{
	UINTN size = 0, key, desc_size;
	UINT32 version;
	EFI_BOOT_SERVICES *bs = core_st->BootServices;
	EFI_MEMORY_TYPE type = EfiMaxMemoryType;
	UINT8 *map;

	bs->GetMemoryMap(&size, NULL, &key, &desc_size, &version);
	size += 4 * desc_size;
	map = malloc(size);
	if (map && !EFI_ERROR(bs->GetMemoryMap(&size, (void *)map, &key, &desc_size, &version)))
		for (UINTN off = 0; off < size; off += desc_size) {
			EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(map + off);
			if (address >= d->PhysicalStart &&
			    address < d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE)
				type = d->Type;
		}
	free(map);
	return type;
}

static EFI_STATUS load_buffer(EFI_HANDLE *image)
{
	*image = NULL;
	return core_st->BootServices->LoadImage(FALSE, core_image_handle, NULL, pe_file,
						sizeof(pe_file), image);
}

TEST(load_image_memory_types_follow_the_subsystem)
{
	static const struct {
		UINT16 subsystem;
		EFI_MEMORY_TYPE code, data;
	} cases[] = {
	    /* PE/COFF's EFI application, boot service driver and runtime driver */
	    {10, EfiLoaderCode, EfiLoaderData},
	    {11, EfiBootServicesCode, EfiBootServicesData},
	    {12, EfiRuntimeServicesCode, EfiRuntimeServicesData},
	};
	EFI_HANDLE image;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		peb_build(pe_file);
		peb_put(pe_file, PEB_OH_SUBSYSTEM, cases[i].subsystem, 2);
		ASSERT_STATUS(load_buffer(&image), EFI_SUCCESS);
		EFI_LOADED_IMAGE_PROTOCOL *li = loaded(image);
		ASSERT(li != NULL);
		EXPECT_EQ(li->ImageCodeType, cases[i].code);
		EXPECT_EQ(li->ImageDataType, cases[i].data);
		EXPECT_EQ(page_type((UINTN)li->ImageBase), cases[i].code);
		EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	}
}

TEST(load_image_names_and_fixed_bases)
{
	EFI_HANDLE image;
	EFI_PHYSICAL_ADDRESS free_base;
	const char *reason = NULL;

	/* From a buffer with no path: the PDB's file name. */
	peb_build(pe_file);
	ASSERT_STATUS(load_buffer(&image), EFI_SUCCESS);
	EXPECT(!strcmp(image_name(image), "reference.pdb"));
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	/* Without a debug directory: its address. */
	peb_put(pe_file, PEB_OH_DIR(6) + 4, 0, 4);
	ASSERT_STATUS(load_buffer(&image), EFI_SUCCESS);
	char expect[32];
	snprintf(expect, sizeof(expect), "image@%llx",
		 (unsigned long long)(UINTN)loaded(image)->ImageBase);
	EXPECT(!strcmp(image_name(image), expect));
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);

	/* Relocations stripped: the image goes at its base or not at all. */
	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData,
					 EFI_SIZE_TO_PAGES(PEB_IMAGE_SIZE), &free_base),
		      EFI_SUCCESS);
	mem_free_pages(free_base, EFI_SIZE_TO_PAGES(PEB_IMAGE_SIZE));
	peb_build(pe_file);
	peb_put(pe_file, PEB_FH_CHARACTERISTICS,
		peb_get(pe_file, PEB_FH_CHARACTERISTICS, 2) | 0x0001, 2);
	peb_put(pe_file, PEB_OH_IMAGE_BASE, free_base, 8);
	ASSERT_STATUS(load_buffer(&image), EFI_SUCCESS);
	EXPECT_EQ((UINTN)loaded(image)->ImageBase, free_base);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	peb_put(pe_file, PEB_OH_IMAGE_BASE, 0x10000, 8); /* not RAM the firmware has */
	EXPECT_STATUS(
	    image_load(false, core_image_handle, NULL, pe_file, sizeof(pe_file), &image, &reason),
	    EFI_LOAD_ERROR);
	EXPECT(reason && strstr(reason, "fixed base address"));
}

/* An image given in a buffer with its device path: the device is found from the path and
 * nothing is read from it. */
TEST(load_image_from_a_buffer_finds_its_device)
{
	struct device d;
	EFI_HANDLE image = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path, *file_node = dp_file_path(u"x.efi");
	EFI_LOADED_IMAGE_PROTOCOL *li;

	peb_build(pe_file);
	device_add(&d, 4, true, false);
	path = path_to(&d, u"x.efi", NULL);
	ASSERT_STATUS(core_st->BootServices->LoadImage(FALSE, core_image_handle, path, pe_file,
						       sizeof(pe_file), &image),
		      EFI_SUCCESS);
	EXPECT_EQ(d.lf.calls, 0);
	li = loaded(image);
	ASSERT(li != NULL);
	EXPECT(li->DeviceHandle == d.handle);
	EXPECT(same_path(li->FilePath, file_node));
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	device_remove(&d);
	pool_free(path);
	pool_free(file_node);
}

/* An image that parses but cannot be relocated leaves no pages behind. */
TEST(load_image_that_fails_to_relocate_frees_its_pages)
{
	EFI_HANDLE image = NULL;
	const char *reason = NULL;
	UINTN before = 0, after = 0, key, desc_size;
	UINT32 version;

	peb_build(pe_file);
	peb_put(pe_file, PEB_RELOC_FILE + 8, 4 << 12, 2); /* an unknown relocation type */
	core_st->BootServices->GetMemoryMap(&before, NULL, &key, &desc_size, &version);
	/* Where the image would go: the first fit for its size. */
	EFI_PHYSICAL_ADDRESS probe;
	ASSERT_STATUS(mem_allocate_pages(AllocateAnyPages, EfiLoaderCode,
					 EFI_SIZE_TO_PAGES(PEB_IMAGE_SIZE), &probe),
		      EFI_SUCCESS);
	mem_free_pages(probe, EFI_SIZE_TO_PAGES(PEB_IMAGE_SIZE));
	EXPECT_STATUS(
	    image_load(false, core_image_handle, NULL, pe_file, sizeof(pe_file), &image, &reason),
	    EFI_LOAD_ERROR);
	EXPECT(reason && strstr(reason, "relocation"));
	EXPECT_EQ(page_type(probe), EfiConventionalMemory);
	core_st->BootServices->GetMemoryMap(&after, NULL, &key, &desc_size, &version);
	EXPECT_EQ(after, before);
}

/* Only the firmware's own image records are parents: a LoadedImage someone else installed
 * is not one. */
TEST(load_image_parent_must_be_an_image)
{
	static EFI_LOADED_IMAGE_PROTOCOL impostor = {.Revision =
							 EFI_LOADED_IMAGE_PROTOCOL_REVISION};
	EFI_HANDLE handle = NULL, image = NULL;

	peb_build(pe_file);
	ASSERT_STATUS(protocol_install(&handle, &li_guid, &impostor), EFI_SUCCESS);
	EXPECT_STATUS(
	    core_st->BootServices->LoadImage(FALSE, handle, NULL, pe_file, sizeof(pe_file), &image),
	    EFI_INVALID_PARAMETER);
	protocol_uninstall(handle, &li_guid, &impostor);
}
