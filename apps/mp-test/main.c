/* mp-test's entry point (mp_test.h): finds the protocol and the processors, runs the
 * tests, prints the summary and powers the machine off, as scripts/run-ovmf expects. A
 * firmware without the protocol (ember-run) is reported as such, not failed. With the
 * word "boot" on its command line it starts the disk's boot program instead of the
 * power-off (boot_next.c). */
#include "mp_test.h"
#include <ember/lib/guids.h>

EFI_MP_SERVICES_PROTOCOL *mp;
UINTN cpu_count;

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	UINTN enabled = 0;

	app_init(image, st);
	app_print("mp-test on %ls\n", st->FirmwareVendor);
	if (app_bs->LocateProtocol((EFI_GUID *)&efi_mp_services_protocol_guid, NULL,
				   (void **)&mp) != EFI_SUCCESS) {
		app_print("mp-test: no MP services\n");
	} else if (CHECK_STATUS(mp->GetNumberOfProcessors(mp, &cpu_count, &enabled), EFI_SUCCESS)) {
		app_print("mp-test: %u processors\n", (unsigned)cpu_count);
		if (cpu_count < 2 || cpu_count > MP_TEST_MAX_CPUS)
			CHECK_FAIL("%u processors: the test needs 2 to %u", (unsigned)cpu_count,
				   MP_TEST_MAX_CPUS);
		else
			check_run_suites(NULL, NULL);
	}
	check_print_summary("mp-test");
	if (mp_test_boot_mode())
		mp_test_boot_next();
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
