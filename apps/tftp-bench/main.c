/* tftp-bench: times a TFTP read through EFI_PXE_BASE_CODE_PROTOCOL.Mtftp on the first NIC,
 * for scripts/bench-netboot. Starts the base code and runs DHCP when no one did, asks the
 * file's size (GET_FILE_SIZE), reads it into fresh pages (READ_FILE) and prints
 * "tftp-bench: N bytes in T ns, block size B" with the time from the time-stamp counter,
 * calibrated against Stall. The file's name is the first word of the load options
 * (default "bench.bin"); the server is the DHCP server's next-server address (siaddr). */
#include "../lib/check.h"
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/pxe_base_code.h>

static EFI_GUID pxe_guid = EFI_PXE_BASE_CODE_PROTOCOL_GUID;

static UINT64 tsc_hz(void)
{
	UINT64 start = __builtin_ia32_rdtsc();

	app_bs->Stall(100000);
	return (__builtin_ia32_rdtsc() - start) * 10;
}

/* The first word of the load options, in ASCII; "bench.bin" without one. */
static void file_name(UINT8 *name, UINTN size)
{
	EFI_GUID image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image = NULL;
	const CHAR16 *opt = NULL;
	UINTN units = 0, i = 0, n = 0;

	if (!EFI_ERROR(app_bs->HandleProtocol(app_image, &image_guid, (void **)&image)) &&
	    image->LoadOptions) {
		opt = image->LoadOptions;
		units = image->LoadOptionsSize / sizeof(CHAR16);
	}
	/* ember-run passes the program's name first: the last word is the file. */
	for (UINTN j = 0; j < units && opt[j]; j++)
		if (opt[j] == ' ')
			i = j + 1;
	for (; i < units && opt[i] && opt[i] != ' ' && n + 1 < size; i++)
		name[n++] = (UINT8)opt[i];
	if (!n || !str8_ncmp((const char *)name, "tftp-bench", 10)) {
		static const char fallback[] = "bench.bin";
		n = sizeof(fallback) - 1;
		mem_copy(name, fallback, sizeof(fallback));
	}
	name[n] = 0;
}

static EFI_PXE_BASE_CODE_PROTOCOL *start_pxe(void)
{
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;

	if (!CHECK_STATUS(app_bs->LocateProtocol(&pxe_guid, NULL, (void **)&pxe), EFI_SUCCESS))
		return NULL;
	if (!pxe->Mode->Started &&
	    !CHECK_STATUS2(pxe->Start(pxe, FALSE), EFI_SUCCESS, EFI_ALREADY_STARTED))
		return NULL;
	if (!pxe->Mode->DhcpAckReceived && !CHECK_STATUS(pxe->Dhcp(pxe, FALSE), EFI_SUCCESS))
		return NULL;
	return pxe;
}

static void bench(EFI_PXE_BASE_CODE_PROTOCOL *pxe, UINT8 *name)
{
	EFI_IP_ADDRESS server = {0};
	EFI_PHYSICAL_ADDRESS buffer = 0;
	UINT64 size = 0, hz = tsc_hz(), start, ticks;
	UINTN block = 1468, pages;

	/* siaddr: bytes 20-23 of the BOOTP header the ACK carries. */
	mem_copy(server.v4.Addr, pxe->Mode->DhcpAck.Raw + 20, 4);
	if (!CHECK_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE, NULL, FALSE, &size,
				     NULL, &server, name, NULL, FALSE),
			  EFI_SUCCESS) ||
	    !CHECK(size > 0))
		return;
	pages = EFI_SIZE_TO_PAGES(size);
	if (!CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, pages, &buffer),
			  EFI_SUCCESS))
		return;
	start = __builtin_ia32_rdtsc();
	CHECK_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, (void *)(UINTN)buffer, FALSE,
				&size, &block, &server, name, NULL, FALSE),
		     EFI_SUCCESS);
	ticks = __builtin_ia32_rdtsc() - start;
	app_print("tftp-bench: %llu bytes in %llu ns\n", (unsigned long long)size,
		  (unsigned long long)(ticks * 1000000000ull / (hz ? hz : 1)));
	app_bs->FreePages(buffer, pages);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;
	UINT8 name[128];

	app_init(image, st);
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	file_name(name, sizeof(name));
	pxe = start_pxe();
	if (pxe)
		bench(pxe, name);
	check_print_summary("tftp-bench");
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
