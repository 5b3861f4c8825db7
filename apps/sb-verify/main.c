/* sb-verify: Secure Boot's image verification seen from a program (UEFI 2.10 32.5, 7.4.1).
 * In Setup Mode it first enrolls PK, KEK, db and dbx from the signed updates (.auth files
 * made by efitools, tests/integration/sb_images.py) in the root directory of its volume;
 * then, in User Mode, it loads the images of \sbv\ by LoadImage and checks the verdicts:
 * signed by a db key (loads and runs), unsigned, tampered after signing, signed by an
 * unknown key, listed by hash in dbx, signed by a certificate in dbx (all refused with
 * EFI_ACCESS_DENIED and no handle), two signatures one unknown one trusted (loads). It
 * also hooks the installed EFI_SECURITY2_ARCH_PROTOCOL as shim does (an unsigned image
 * then loads) and replaces LoadImage in the boot services table (recomputing its CRC)
 * as shim does. Prints a summary and powers off (run-ovmf's convention). */
#include "../lib/check.h"
#include "../lib/devpath.h"
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/security.h>
#include <efi/protocol/simple_file_system.h>

#define NBRA                                                                                       \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)
#define FILE_MAX 0x4000

static EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;
static EFI_GUID db_guid = {
    0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}};
static EFI_DEVICE_PATH_PROTOCOL *volume_path;
static EFI_FILE_PROTOCOL *root;

static bool open_volume(void)
{
	EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID,
		 fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID,
		 dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_LOADED_IMAGE_PROTOCOL *li;

	return !EFI_ERROR(app_bs->HandleProtocol(app_image, &li_guid, (void **)&li)) &&
	       !EFI_ERROR(app_bs->HandleProtocol(li->DeviceHandle, &fs_guid, (void **)&fs)) &&
	       !EFI_ERROR(
		   app_bs->HandleProtocol(li->DeviceHandle, &dp_guid, (void **)&volume_path)) &&
	       !EFI_ERROR(fs->OpenVolume(fs, &root));
}

static void to_path(const char *name, CHAR16 *path, UINTN units)
{
	UINTN i = 0;

	path[i++] = u'\\';
	for (; *name && i + 1 < units; name++)
		path[i++] = *name == '/' ? u'\\' : (CHAR16)*name;
	path[i] = 0;
}

static EFI_STATUS set(const CHAR16 *name, EFI_GUID *guid, const char *file)
{
	static UINT8 data[FILE_MAX];
	UINTN size = sizeof(data);
	CHAR16 path[64];
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status;

	to_path(file, path, 64);
	if (EFI_ERROR(root->Open(root, &f, path, EFI_FILE_MODE_READ, 0)))
		return EFI_NOT_FOUND;
	status = f->Read(f, &size, data);
	f->Close(f);
	if (EFI_ERROR(status) || size == sizeof(data))
		return EFI_LOAD_ERROR;
	return app_rt->SetVariable((CHAR16 *)name, guid, NBRA, size, data);
}

static UINT8 mode(const CHAR16 *name)
{
	UINT8 value = 0xee;
	UINTN size = 1;

	if (EFI_ERROR(app_rt->GetVariable((CHAR16 *)name, &global_guid, NULL, &size, &value)))
		return 0xff;
	return value;
}

static void enroll(void)
{
	if (mode(u"SetupMode") != 1) {
		app_print("sb-verify: keys already enrolled\n");
		return;
	}
	CHECK_STATUS(set(u"PK", &global_guid, "PK.auth"), EFI_SUCCESS);
	CHECK_STATUS(set(u"KEK", &global_guid, "KEK.auth"), EFI_SUCCESS);
	CHECK_STATUS(set(u"db", &db_guid, "db.auth"), EFI_SUCCESS);
	CHECK_STATUS(set(u"dbx", &db_guid, "dbx.auth"), EFI_SUCCESS);
}

/* LoadImage of \sbv\name by its device path (through the table, as a loader calls it). */
static EFI_STATUS load(const char *name, EFI_HANDLE *image)
{
	char file[48] = "sbv/";
	CHAR16 path[64];
	EFI_DEVICE_PATH_PROTOCOL *node, *full;
	EFI_STATUS status;
	UINTN i = 4;

	for (; *name && i + 1 < sizeof(file); name++)
		file[i++] = *name;
	file[i] = 0;
	to_path(file, path, 64);
	node = dp_file_path(path);
	full = node ? dp_append(volume_path, node) : NULL;
	*image = NULL;
	status =
	    full ? app_bs->LoadImage(FALSE, app_image, full, NULL, 0, image) : EFI_OUT_OF_RESOURCES;
	app_free(node);
	app_free(full);
	return status;
}

/* An image that must load and run (the gnu-efi hello returns EFI_SUCCESS). */
static void expect_runs(const char *name)
{
	EFI_HANDLE image;
	EFI_STATUS status = load(name, &image);

	app_print("sb-verify: %s: LoadImage %r\n", name, status);
	if (!CHECK_STATUS(status, EFI_SUCCESS))
		return;
	CHECK_STATUS(app_bs->StartImage(image, NULL, NULL), EFI_SUCCESS);
}

/* An image Secure Boot must refuse: EFI_ACCESS_DENIED and no handle (as OVMF does). */
static void expect_refused(const char *name)
{
	EFI_HANDLE image;
	EFI_STATUS status = load(name, &image);

	app_print("sb-verify: %s: LoadImage %r\n", name, status);
	CHECK_STATUS(status, EFI_ACCESS_DENIED);
	CHECK(image == NULL);
	if (!EFI_ERROR(status) || status == EFI_SECURITY_VIOLATION)
		app_bs->UnloadImage(image);
}

static EFI_SECURITY2_FILE_AUTHENTICATION original_authentication;
static UINTN hook_calls;

static EFI_STATUS EFIAPI allow_all(const EFI_SECURITY2_ARCH_PROTOCOL *this,
				   const EFI_DEVICE_PATH_PROTOCOL *file, VOID *buffer, UINTN size,
				   BOOLEAN boot_policy)
{
	(void)this, (void)file, (void)buffer, (void)size, (void)boot_policy;
	hook_calls++;
	return EFI_SUCCESS;
}

/* shim (OVERRIDE_SECURITY_POLICY) replaces FileAuthentication in the installed interface:
 * LoadImage must call what is there now. */
static void hooked_security2(void)
{
	EFI_GUID guid = EFI_SECURITY2_ARCH_PROTOCOL_GUID;
	EFI_SECURITY2_ARCH_PROTOCOL *security2;
	EFI_HANDLE image;

	if (!CHECK_STATUS(app_bs->LocateProtocol(&guid, NULL, (void **)&security2), EFI_SUCCESS))
		return;
	original_authentication = security2->FileAuthentication;
	security2->FileAuthentication = allow_all;
	CHECK_STATUS(load("unsigned.efi", &image), EFI_SUCCESS);
	CHECK(hook_calls == 1);
	if (image)
		CHECK_STATUS(app_bs->StartImage(image, NULL, NULL), EFI_SUCCESS);
	security2->FileAuthentication = original_authentication;
	expect_refused("unsigned.efi");
}

static EFI_IMAGE_LOAD original_load_image;
static UINTN load_calls;

static EFI_STATUS EFIAPI counting_load_image(BOOLEAN boot_policy, EFI_HANDLE parent,
					     EFI_DEVICE_PATH_PROTOCOL *path, VOID *buffer,
					     UINTN size, EFI_HANDLE *image)
{
	load_calls++;
	return original_load_image(boot_policy, parent, path, buffer, size, image);
}

static UINT32 table_crc(void)
{
	EFI_TABLE_HEADER *h = &app_bs->Hdr;
	UINT32 saved = h->CRC32, crc = 0;

	h->CRC32 = 0;
	app_bs->CalculateCrc32(h, h->HeaderSize, &crc);
	h->CRC32 = saved;
	return crc;
}

/* shim replaces LoadImage and StartImage in the table and recomputes its CRC. */
static void replaced_load_image(void)
{
	CHECK_EQ(table_crc(), app_bs->Hdr.CRC32);
	original_load_image = app_bs->LoadImage;
	app_bs->LoadImage = counting_load_image;
	app_bs->Hdr.CRC32 = table_crc();
	expect_runs("signed.efi");
	expect_refused("unsigned.efi");
	CHECK_EQ(load_calls, 2);
	app_bs->LoadImage = original_load_image;
	app_bs->Hdr.CRC32 = table_crc();
	CHECK_EQ(table_crc(), app_bs->Hdr.CRC32);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_init(image, st);
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	app_print("sb-verify: firmware %ls\n", st->FirmwareVendor);
	if (!CHECK(open_volume()))
		goto done;
	enroll();
	CHECK_EQ(mode(u"SecureBoot"), 1);
	expect_runs("signed.efi");
	expect_refused("unsigned.efi");
	expect_refused("tampered.efi");
	expect_refused("unknown.efi");
	expect_refused("dbxhash.efi");
	expect_refused("dbxcert.efi");
	expect_runs("two.efi");
	hooked_security2();
	replaced_load_image();
done:
	check_print_summary("sb-verify");
	app_rt->ResetSystem(EfiResetShutdown, check_totals.failed ? EFI_ABORTED : EFI_SUCCESS, 0,
			    NULL);
	return EFI_ABORTED;
}
