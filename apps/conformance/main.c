/* Entry point of the conformance application: runs every suite, prints the summary,
 * then tests ExitBootServices and powers off (see exit_boot_services.c). */
#include "conformance.h"

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static bool running;

	/* A firmware that lets StartImage run this image again must not restart the run. */
	if (running)
		return EFI_ALREADY_STARTED;
	running = true;
	app_init(image, st);
	/* The boot manager armed a five-minute watchdog; a slow run must not trip it. */
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	app_print("conformance: firmware %ls rev 0x%x, UEFI %u.%u\n", st->FirmwareVendor,
		  (unsigned)st->FirmwareRevision, (unsigned)(st->Hdr.Revision >> 16),
		  (unsigned)(st->Hdr.Revision & 0xffff));
	check_run_suites(NULL, NULL);
	bool ready = ebs_prepare();
	check_print_summary("conformance");
	if (ready)
		ebs_run_and_shutdown();
	st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_ABORTED, 0, NULL);
	return EFI_ABORTED;
}
