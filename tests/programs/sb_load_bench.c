/* A boot payload for `make bench` (scripts/bench-secure-boot): how long the firmware's
 * LoadImage takes to verify a large signed image. It reads \bench\signed.efi (signed by
 * the db key) and \bench\unsigned.efi (the same image without a signature) from its own
 * volume into memory. In Setup Mode it first loads the unsigned image a few times (the
 * load alone, nothing verified), then enrolls PK, KEK and db from \bench\*.auth (signed
 * updates made by efitools) so that Secure Boot is on. It then times LoadImage of the
 * signed image from the buffer (UnloadImage after each), and of the unsigned one, which
 * must be refused. Times come from the time-stamp counter: virtual nanoseconds under
 * QEMU's -icount shift=0. Prints "sb-bench:" lines and powers the machine off. */
#include <efi.h>
#include <efilib.h>

#define ROUNDS 3
#define NBRA                                                                                       \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)

struct file {
	VOID *data;
	UINTN size;
	EFI_DEVICE_PATH *path;
};

static EFI_HANDLE self;
static EFI_HANDLE volume;
static EFI_FILE_HANDLE root;
static EFI_GUID db_guid = {
    0xd719b2cb, 0x3d3a, 0x4596, {0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f}};

static inline UINT64 read_tsc(void)
{
	UINT32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((UINT64)hi << 32) | lo;
}

/* Reads the whole file name into pages of its own; FALSE (and a line) on failure. */
static BOOLEAN read_file(CHAR16 *name, struct file *out)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_PHYSICAL_ADDRESS pages;
	EFI_STATUS status;

	status = uefi_call_wrapper(root->Open, 5, root, &f, name, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status)) {
		Print(L"sb-bench: error: open %s: %r\n", name, status);
		return FALSE;
	}
	info = LibFileInfo(f);
	status = info ? EFI_SUCCESS : EFI_DEVICE_ERROR;
	if (!EFI_ERROR(status)) {
		out->size = info->FileSize;
		FreePool(info);
		status = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
					   EFI_SIZE_TO_PAGES(out->size) + 1, &pages);
	}
	if (!EFI_ERROR(status)) {
		out->data = (VOID *)(UINTN)pages;
		status = uefi_call_wrapper(f->Read, 3, f, &out->size, out->data);
	}
	uefi_call_wrapper(f->Close, 1, f);
	if (EFI_ERROR(status)) {
		Print(L"sb-bench: error: read %s: %r\n", name, status);
		return FALSE;
	}
	out->path = FileDevicePath(volume, name);
	return TRUE;
}

/* LoadImage of the file from its buffer (with its device path, as a loader does); the
 * virtual time it took goes to *ns; a loaded image is unloaded again. */
static EFI_STATUS timed_load(struct file *file, UINT64 *ns)
{
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;
	UINT64 start = read_tsc();

	status = uefi_call_wrapper(BS->LoadImage, 6, FALSE, self, file->path, file->data,
				   file->size, &handle);
	*ns = read_tsc() - start;
	if (!EFI_ERROR(status))
		uefi_call_wrapper(BS->UnloadImage, 1, handle);
	return status;
}

/* Times ROUNDS loads of file, printing "sb-bench: what N ns" for each and the status. */
static EFI_STATUS time_loads(CHAR16 *what, struct file *file)
{
	EFI_STATUS status = EFI_SUCCESS;
	UINT64 ns;

	for (int i = 0; i < ROUNDS; i++) {
		status = timed_load(file, &ns);
		Print(L"sb-bench: %s %lu ns (%r)\n", what, ns, status);
	}
	return status;
}

static UINT8 setup_mode(void)
{
	UINT8 value = 0xff;
	UINTN size = 1;

	uefi_call_wrapper(RT->GetVariable, 5, L"SetupMode", &gEfiGlobalVariableGuid, NULL, &size,
			  &value);
	return value;
}

static BOOLEAN enroll_one(CHAR16 *var, EFI_GUID *guid, CHAR16 *file)
{
	struct file auth;
	EFI_STATUS status;

	if (!read_file(file, &auth))
		return FALSE;
	status = uefi_call_wrapper(RT->SetVariable, 5, var, guid, NBRA, auth.size, auth.data);
	uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(UINTN)auth.data,
			  EFI_SIZE_TO_PAGES(auth.size) + 1);
	if (EFI_ERROR(status))
		Print(L"sb-bench: error: SetVariable %s: %r\n", var, status);
	return !EFI_ERROR(status);
}

static EFI_STATUS bench(void)
{
	struct file signed_image, unsigned_image;
	EFI_STATUS status;

	if (!read_file(L"\\bench\\signed.efi", &signed_image) ||
	    !read_file(L"\\bench\\unsigned.efi", &unsigned_image))
		return EFI_NOT_FOUND;
	Print(L"sb-bench: image %lu bytes\n", signed_image.size);
	if (setup_mode() == 1) {
		status = time_loads(L"no-keys-load", &unsigned_image);
		if (EFI_ERROR(status))
			return status;
		if (!enroll_one(L"PK", &gEfiGlobalVariableGuid, L"\\bench\\PK.auth") ||
		    !enroll_one(L"KEK", &gEfiGlobalVariableGuid, L"\\bench\\KEK.auth") ||
		    !enroll_one(L"db", &db_guid, L"\\bench\\db.auth"))
			return EFI_SECURITY_VIOLATION;
	}
	if (setup_mode() != 0) {
		Print(L"sb-bench: error: still in Setup Mode\n");
		return EFI_SECURITY_VIOLATION;
	}
	status = time_loads(L"signed-load", &signed_image);
	if (EFI_ERROR(status))
		return status;
	status = time_loads(L"unsigned-refused", &unsigned_image);
	if (status != EFI_ACCESS_DENIED && status != EFI_SECURITY_VIOLATION) {
		Print(L"sb-bench: error: the unsigned image was not refused\n");
		return EFI_SECURITY_VIOLATION;
	}
	return EFI_SUCCESS;
}

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS status;

	InitializeLib(image, systab);
	self = image;
	status =
	    uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li);
	if (!EFI_ERROR(status)) {
		volume = li->DeviceHandle;
		root = LibOpenRoot(volume);
		status = root ? bench() : EFI_NOT_FOUND;
	}
	Print(L"sb-bench: done (%r)\n", status);
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return status;
}
