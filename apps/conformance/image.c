/* Image services (UEFI 2.10, 7.4: LoadImage, StartImage, UnloadImage, Exit) and
 * EFI_LOADED_IMAGE_PROTOCOL (9.1). The child images are built by pe_image.c; their entry
 * point is child_entry() below, running with the child's handle and system table. */
#define APP_TEST_SUITE "60_image"
#include "conformance.h"
#include "pe_image.h"

enum child_mode {
	CHILD_RETURN,
	CHILD_EXIT_DATA,
	CHILD_EXIT_NESTED,
	CHILD_EXIT_WRONG_IMAGE,
	CHILD_RESIDENT
};

static const CHAR16 exit_text[] = u"ember child exit data";
#define EXIT_DATA_SIZE (sizeof(exit_text) + 4)

static struct {
	enum child_mode mode;
	EFI_STATUS status; /* what the child returns or exits with */
	bool set_unload;
	EFI_STATUS unload_status;
	/* observed by the child */
	UINTN calls, unload_calls, depth;
	EFI_HANDLE handle;
	EFI_SYSTEM_TABLE *st;
	EFI_TPL tpl;
	EFI_STATUS inner;
	void *load_options;
	UINT32 load_options_size;
} child;

static void child_reset(enum child_mode mode, EFI_STATUS status)
{
	mem_set(&child, 0, sizeof(child));
	child.mode = mode;
	child.status = status;
}

static EFI_STATUS EFIAPI child_unload(EFI_HANDLE image)
{
	child.unload_calls++;
	return child.unload_status;
}

static __attribute__((noinline)) EFI_STATUS exit_nested(EFI_HANDLE image, UINTN depth)
{
	volatile UINT8 frame[64];

	frame[depth % sizeof(frame)] = (UINT8)depth;
	child.depth++;
	if (depth)
		return exit_nested(image, depth - 1) + frame[depth % sizeof(frame)];
	app_bs->Exit(image, child.status, 0, NULL);
	return EFI_DEVICE_ERROR; /* Exit returned: wrong */
}

static EFI_STATUS exit_with_data(EFI_HANDLE image)
{
	UINT8 *data = NULL;

	if (app_bs->AllocatePool(EfiLoaderData, EXIT_DATA_SIZE, (void **)&data) != EFI_SUCCESS)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(data, exit_text, sizeof(exit_text));
	mem_copy(data + sizeof(exit_text), "\xde\xad\xbe\xef", 4);
	app_bs->Exit(image, child.status, EXIT_DATA_SIZE, (CHAR16 *)data);
	return EFI_DEVICE_ERROR;
}

static EFI_STATUS EFIAPI child_entry(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;

	child.calls++;
	child.handle = image;
	child.st = st;
	child.tpl = current_tpl();
	if (app_bs->HandleProtocol(image, &guid_loaded_image, (void **)&li) == EFI_SUCCESS) {
		child.load_options = li->LoadOptions;
		child.load_options_size = li->LoadOptionsSize;
		if (child.set_unload)
			li->Unload = child_unload;
	}
	switch (child.mode) {
	case CHILD_EXIT_DATA:
		return exit_with_data(image);
	case CHILD_EXIT_NESTED:
		return exit_nested(image, 8);
	case CHILD_EXIT_WRONG_IMAGE:
		child.inner = app_bs->Exit(app_image, EFI_ABORTED, 0, NULL);
		return child.status;
	default:
		return child.status;
	}
}

static UINT8 pe_buf[PE_FILE_SIZE];

static EFI_STATUS load(UINT16 subsystem, enum pe_defect defect, EFI_DEVICE_PATH_PROTOCOL *dp,
		       EFI_HANDLE *h)
{
	pe_build(pe_buf, child_entry, subsystem, defect);
	*h = NULL;
	return app_bs->LoadImage(FALSE, app_image, dp, pe_buf, PE_FILE_SIZE, h);
}

static EFI_LOADED_IMAGE_PROTOCOL *loaded_image(EFI_HANDLE h)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;

	if (app_bs->HandleProtocol(h, &guid_loaded_image, (void **)&li) != EFI_SUCCESS)
		return NULL;
	return li;
}

static void check_child_image(EFI_LOADED_IMAGE_PROTOCOL *li, UINT32 code, UINT32 data)
{
	UINT8 *base = li->ImageBase;

	CHECK_EQ(li->Revision, EFI_LOADED_IMAGE_PROTOCOL_REVISION);
	CHECK(li->ParentHandle == app_image);
	CHECK(li->SystemTable == app_st);
	CHECK_EQ(li->ImageCodeType, code);
	CHECK_EQ(li->ImageDataType, data);
	CHECK_EQ(li->LoadOptionsSize, 0);
	CHECK(li->Unload == NULL);
	if (!CHECK(base && IS_ALIGNED((UINTN)base, EFI_PAGE_SIZE)))
		return;
	CHECK(li->ImageSize >= PE_IMAGE_SIZE);
	CHECK(base[0] == 'M' && base[1] == 'Z');
	CHECK(pe_is_trampoline(base + PE_TEXT_RVA));
	/* The DIR64 relocation was applied for where the image really is. */
	CHECK((UINTN)base != PE_PREFERRED_BASE);
	CHECK_EQ(*(UINT64 *)(base + PE_DATA_RVA), (UINTN)base + PE_DATA_RVA + 8);
	CHECK_EQ(*(UINT64 *)(base + PE_DATA_RVA + 8), PE_DATA_MAGIC);
	CHECK_EQ(memory_type_at((UINTN)base), code);
}

APP_TEST(load_image_from_buffer)
{
	EFI_HANDLE h;
	void *dp = (void *)(UINTN)0xdead;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded_image(h);
	if (CHECK(li))
		check_child_image(li, EfiLoaderCode, EfiLoaderData);
	CHECK_STATUS(app_bs->HandleProtocol(h, &guid_loaded_image_dp, &dp), EFI_SUCCESS);
	CHECK(handle_listed(h, &guid_loaded_image));
	UINTN base = li ? (UINTN)li->ImageBase : 0;
	CHECK_STATUS(app_bs->UnloadImage(h), EFI_SUCCESS);
	CHECK(!handle_listed(h, &guid_loaded_image));
	if (base)
		CHECK_EQ(memory_type_at(base), EfiConventionalMemory);
}

APP_TEST(load_image_records_device_path)
{
	EFI_GUID *g[1] = {tguid(G_IMAGE)};
	EFI_DEVICE_PATH_PROTOCOL *dp = dp_vendor_path(g, 1), *lidp = NULL;
	EFI_HANDLE h;

	if (!CHECK(dp) || !CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, dp, &h), EFI_SUCCESS))
		goto out;
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded_image(h);
	/* No device supports a file system or load-file protocol on that path, so the whole
	 * path is the file path and there is no device. */
	if (CHECK(li)) {
		CHECK(li->DeviceHandle == NULL);
		CHECK(li->FilePath && dp_equal(li->FilePath, dp));
	}
	if (CHECK_STATUS(app_bs->HandleProtocol(h, &guid_loaded_image_dp, (void **)&lidp),
			 EFI_SUCCESS))
		CHECK(lidp && dp_equal(lidp, dp));
	app_bs->UnloadImage(h);
out:
	app_free(dp);
}

#define EDK2_NO_SOURCE                                                                             \
	"EDK2 returns EFI_INVALID_PARAMETER when both SourceBuffer and DevicePath are NULL"

APP_TEST(load_image_argument_checks)
{
	EFI_HANDLE h = NULL, plain = NULL;
	UINTN before = handle_count(&guid_loaded_image);

	pe_build(pe_buf, child_entry, PE_SUBSYSTEM_APPLICATION, PE_OK);
	CHECK_STATUS_KNOWN(app_bs->LoadImage(FALSE, app_image, NULL, NULL, 0, &h), EFI_NOT_FOUND,
			   FW_EDK2, EDK2_NO_SOURCE);
	CHECK_STATUS_KNOWN(app_bs->LoadImage(TRUE, app_image, NULL, NULL, 0, &h), EFI_NOT_FOUND,
			   FW_EDK2, EDK2_NO_SOURCE);
	CHECK_STATUS(app_bs->LoadImage(FALSE, NULL, NULL, pe_buf, PE_FILE_SIZE, &h),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->LoadImage(FALSE, app_image, NULL, pe_buf, PE_FILE_SIZE, NULL),
		     EFI_INVALID_PARAMETER);
	/* The parent must be an image handle. */
	if (CHECK_STATUS(app_bs->InstallProtocolInterface(&plain, tguid(G_IMAGE + 1),
							  EFI_NATIVE_INTERFACE, NULL),
			 EFI_SUCCESS)) {
		EFI_STATUS status = app_bs->LoadImage(FALSE, plain, NULL, pe_buf, PE_FILE_SIZE, &h);
		CHECK_STATUS(status, EFI_INVALID_PARAMETER);
		if (status == EFI_SUCCESS)
			app_bs->UnloadImage(h);
		app_bs->UninstallProtocolInterface(plain, tguid(G_IMAGE + 1), NULL);
	}
	CHECK_EQ(handle_count(&guid_loaded_image), before);
}

APP_TEST(load_image_rejects_malformed_images)
{
	static const enum pe_defect defects[] = {PE_BAD_MZ,
						 PE_BAD_SIGNATURE,
						 PE_MACHINE_I386,
						 PE_MACHINE_FOREIGN,
						 PE_SUBSYSTEM_CONSOLE,
						 PE_IMAGE_SIZE_TOO_SMALL,
						 PE_TOO_MANY_SECTIONS,
						 PE_SECTION_BEYOND_FILE,
						 PE_BAD_OPTIONAL_MAGIC};
	UINTN before = handle_count(&guid_loaded_image);
	EFI_HANDLE h;

	for (size_t i = 0; i < ARRAY_SIZE(defects); i++) {
		EFI_STATUS status = load(PE_SUBSYSTEM_APPLICATION, defects[i], NULL, &h);
		/* "corrupt or not understood" or "image type is not supported" */
		if (defects[i] == PE_MACHINE_I386)
			CHECK_STATUS2_KNOWN(status, EFI_LOAD_ERROR, EFI_UNSUPPORTED, FW_EDK2,
					    "EDK2 on X64 loads images whose machine type is IA32 "
					    "(EFI_IMAGE_MACHINE_CROSS_TYPE_SUPPORTED)");
		else if (!CHECK_STATUS2(status, EFI_LOAD_ERROR, EFI_UNSUPPORTED))
			app_print("      (defect %u)\n", (unsigned)defects[i]);
		if (status == EFI_SUCCESS)
			app_bs->UnloadImage(h);
	}
	/* Truncated and empty buffers. */
	static const UINTN sizes[] = {0, 2, 0x40, 0x100, 0x300, PE_FILE_SIZE - 0x100};
	pe_build(pe_buf, child_entry, PE_SUBSYSTEM_APPLICATION, PE_OK);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		h = NULL;
		EFI_STATUS status = app_bs->LoadImage(FALSE, app_image, NULL, pe_buf, sizes[i], &h);
		if (!CHECK_STATUS2(status, EFI_LOAD_ERROR, EFI_UNSUPPORTED))
			app_print("      (%u bytes)\n", (unsigned)sizes[i]);
		if (status == EFI_SUCCESS)
			app_bs->UnloadImage(h);
	}
	mem_set(pe_buf, 0, sizeof(pe_buf));
	CHECK_STATUS2(app_bs->LoadImage(FALSE, app_image, NULL, pe_buf, sizeof(pe_buf), &h),
		      EFI_LOAD_ERROR, EFI_UNSUPPORTED);
	CHECK_EQ(handle_count(&guid_loaded_image), before);
}

APP_TEST(start_image_returns_entry_status)
{
	EFI_HANDLE h;
	UINTN size = 0;
	CHAR16 *data = NULL;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded_image(h);
	UINTN base = li ? (UINTN)li->ImageBase : 0;
	child_reset(CHILD_RETURN, EFI_ABORTED);
	CHECK_STATUS(app_bs->StartImage(h, &size, &data), EFI_ABORTED);
	CHECK_EQ(child.calls, 1);
	CHECK(child.handle == h);
	CHECK(child.st == app_st);
	CHECK_EQ(child.tpl, TPL_APPLICATION);
	/* An application is unloaded when it exits: handle and memory are gone. */
	CHECK(!handle_listed(h, &guid_loaded_image));
	if (base)
		CHECK_EQ(memory_type_at(base), EfiConventionalMemory);
}

APP_TEST(exit_passes_status_and_data)
{
	EFI_HANDLE h;
	UINTN size = 0;
	CHAR16 *data = NULL;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	child_reset(CHILD_EXIT_DATA, EFI_UNSUPPORTED);
	CHECK_STATUS(app_bs->StartImage(h, &size, &data), EFI_UNSUPPORTED);
	CHECK_EQ(child.calls, 1);
	CHECK_EQ(size, EXIT_DATA_SIZE);
	if (CHECK(data != NULL)) {
		CHECK(mem_cmp(data, exit_text, sizeof(exit_text)) == 0);
		CHECK(mem_cmp((UINT8 *)data + sizeof(exit_text), "\xde\xad\xbe\xef", 4) == 0);
		/* The caller of StartImage owns and frees the exit data. */
		CHECK_STATUS(app_bs->FreePool(data), EFI_SUCCESS);
	}
	CHECK(!handle_listed(h, &guid_loaded_image));
}

APP_TEST(exit_data_ignored_without_buffer)
{
	EFI_HANDLE h;
	UINTN size = 0x77;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	child_reset(CHILD_EXIT_DATA, EFI_ACCESS_DENIED);
	CHECK_STATUS(app_bs->StartImage(h, &size, NULL), EFI_ACCESS_DENIED);
	/* "If ExitData is NULL, then ... the contents of ExitDataSize are not modified". */
	CHECK_EQ(size, 0x77);
}

static __attribute__((noinline)) UINT64 mix(UINT64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 29);
}

APP_TEST(exit_from_nested_calls)
{
	EFI_HANDLE h;
	UINT64 a = mix(1), b = mix(2), c = mix(3), d = mix(4), e = mix(5), f = mix(6);
	UINT64 sum = a + b + c + d + e + f;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	child_reset(CHILD_EXIT_NESTED, EFI_NOT_READY);
	/* Keep six values live in registers across the call: Exit unwinds the child's
	 * stack and must restore everything StartImage's caller relies on. */
	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f));
	EFI_STATUS status = app_bs->StartImage(h, NULL, NULL);
	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f));
	CHECK_STATUS(status, EFI_NOT_READY);
	CHECK_EQ(child.depth, 9);
	CHECK_EQ(a + b + c + d + e + f, sum);
	CHECK(a == mix(1) && f == mix(6));
	CHECK_EQ(current_tpl(), TPL_APPLICATION);
}

APP_TEST(exit_for_another_image_is_refused)
{
	EFI_HANDLE h;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	child_reset(CHILD_EXIT_WRONG_IMAGE, EFI_WARN_STALE_DATA);
	CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_WARN_STALE_DATA);
	/* The parent is started but not the currently executing image. */
	CHECK_STATUS(child.inner, EFI_INVALID_PARAMETER);
}

APP_TEST(exit_before_start_unloads)
{
	EFI_HANDLE h;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->Exit(h, EFI_SUCCESS, 0, NULL), EFI_SUCCESS);
	CHECK(!handle_listed(h, &guid_loaded_image));
}

APP_TEST(load_options_reach_child)
{
	static CHAR16 options[] = u"-v --ember";
	EFI_HANDLE h;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_APPLICATION, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded_image(h);
	if (CHECK(li)) {
		li->LoadOptions = options;
		li->LoadOptionsSize = sizeof(options);
	}
	child_reset(CHILD_RETURN, EFI_SUCCESS);
	CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_SUCCESS);
	CHECK(child.load_options == options);
	CHECK_EQ(child.load_options_size, sizeof(options));
}

APP_TEST(start_image_invalid_handles)
{
	EFI_HANDLE plain = NULL;

	CHECK_STATUS(app_bs->StartImage(NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	if (CHECK_STATUS(app_bs->InstallProtocolInterface(&plain, tguid(G_IMAGE + 1),
							  EFI_NATIVE_INTERFACE, NULL),
			 EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->StartImage(plain, NULL, NULL), EFI_INVALID_PARAMETER);
		app_bs->UninstallProtocolInterface(plain, tguid(G_IMAGE + 1), NULL);
	}
	/* This application has been started already (main refuses to run twice). */
	CHECK_STATUS(app_bs->StartImage(app_image, NULL, NULL), EFI_INVALID_PARAMETER);
}

APP_TEST(driver_image_stays_resident)
{
	EFI_HANDLE h;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_BS_DRIVER, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded_image(h);
	if (CHECK(li))
		check_child_image(li, EfiBootServicesCode, EfiBootServicesData);
	child_reset(CHILD_RESIDENT, EFI_SUCCESS);
	child.set_unload = true;
	CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_SUCCESS);
	CHECK(handle_listed(h, &guid_loaded_image));
	/* Started once only. */
	CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_EQ(child.calls, 1);
	/* Its unload function decides; an error leaves it loaded. */
	child.unload_status = EFI_ACCESS_DENIED;
	CHECK_STATUS(app_bs->UnloadImage(h), EFI_ACCESS_DENIED);
	CHECK_EQ(child.unload_calls, 1);
	CHECK(handle_listed(h, &guid_loaded_image));
	child.unload_status = EFI_SUCCESS;
	CHECK_STATUS(app_bs->UnloadImage(h), EFI_SUCCESS);
	CHECK_EQ(child.unload_calls, 2);
	CHECK(!handle_listed(h, &guid_loaded_image));
	CHECK_STATUS(app_bs->UnloadImage(h), EFI_INVALID_PARAMETER);
}

APP_TEST(driver_without_unload_cannot_be_unloaded)
{
	EFI_HANDLE h;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_BS_DRIVER, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	child_reset(CHILD_RESIDENT, EFI_SUCCESS);
	CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_SUCCESS);
	/* It stays loaded for good (a few pages until ExitBootServices). */
	CHECK_STATUS(app_bs->UnloadImage(h), EFI_UNSUPPORTED);
	CHECK(handle_listed(h, &guid_loaded_image));
}

APP_TEST(driver_failing_its_entry_is_unloaded)
{
	EFI_HANDLE h;

	if (!CHECK_STATUS(load(PE_SUBSYSTEM_BS_DRIVER, PE_OK, NULL, &h), EFI_SUCCESS))
		return;
	child_reset(CHILD_RETURN, EFI_DEVICE_ERROR);
	CHECK_STATUS(app_bs->StartImage(h, NULL, NULL), EFI_DEVICE_ERROR);
	CHECK(!handle_listed(h, &guid_loaded_image));
}

APP_TEST(unload_image_checks)
{
	EFI_HANDLE plain = NULL;

	CHECK_STATUS(app_bs->UnloadImage(NULL), EFI_INVALID_PARAMETER);
	if (CHECK_STATUS(app_bs->InstallProtocolInterface(&plain, tguid(G_IMAGE + 1),
							  EFI_NATIVE_INTERFACE, NULL),
			 EFI_SUCCESS)) {
		CHECK_STATUS(app_bs->UnloadImage(plain), EFI_INVALID_PARAMETER);
		app_bs->UninstallProtocolInterface(plain, tguid(G_IMAGE + 1), NULL);
	}
}

APP_TEST(own_loaded_image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = loaded_image(app_image);
	void *dp = NULL;

	if (!CHECK(li))
		return;
	UINT8 *base = li->ImageBase;
	UINTN main_addr = (UINTN)&efi_main;
	CHECK_EQ(li->Revision, EFI_LOADED_IMAGE_PROTOCOL_REVISION);
	CHECK(li->SystemTable == app_st);
	/* NULL when the boot manager loaded it, else the parent image. */
	CHECK(li->ParentHandle == NULL || handle_listed(li->ParentHandle, &guid_loaded_image));
	CHECK_EQ(li->ImageCodeType, EfiLoaderCode);
	CHECK_EQ(li->ImageDataType, EfiLoaderData);
	CHECK(base && base[0] == 'M' && base[1] == 'Z');
	CHECK(main_addr >= (UINTN)base && main_addr < (UINTN)base + li->ImageSize);
	CHECK_STATUS(app_bs->HandleProtocol(app_image, &guid_loaded_image_dp, &dp), EFI_SUCCESS);
}
