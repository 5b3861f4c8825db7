/* mp-test's entry point (mp_test.h): finds the protocol and the processors, runs the
 * tests, prints the summary and powers the machine off, as scripts/run-ovmf expects. A
 * firmware without the protocol (ember-run) is reported as such, not failed. With the
 * word "boot" on its command line it starts the disk's boot program instead of the
 * power-off (boot_next.c). */
#include "mp_test.h"
#include <ember/lib/guids.h>

EFI_MP_SERVICES_PROTOCOL *mp;
UINTN cpu_count;

/* Without the protocol: no handle carries it either. */
static void check_no_protocol(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	CHECK_STATUS(app_bs->LocateHandleBuffer(ByProtocol,
						(EFI_GUID *)&efi_mp_services_protocol_guid, NULL,
						&count, &handles),
		     EFI_NOT_FOUND);
}

/* The BSP alone (-smp 1): it is processor 0, and there is no AP to start. */
static void check_one_processor(void)
{
	EFI_PROCESSOR_INFORMATION info;
	UINTN who = 99;

	CHECK_STATUS(mp->WhoAmI(mp, &who), EFI_SUCCESS);
	CHECK_EQ(who, 0);
	if (CHECK_STATUS(mp->GetProcessorInfo(mp, 0, &info), EFI_SUCCESS))
		CHECK(info.StatusFlag & PROCESSOR_AS_BSP_BIT);
	CHECK_STATUS(mp->GetProcessorInfo(mp, 1, &info), EFI_NOT_FOUND);
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_record, FALSE, NULL, 0, NULL, NULL),
		     EFI_NOT_STARTED);
	CHECK_STATUS(mp->StartupThisAP(mp, proc_record, 1, NULL, 0, NULL, NULL), EFI_NOT_FOUND);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	UINTN enabled = 0;

	app_init(image, st);
	app_print("mp-test on %ls\n", st->FirmwareVendor);
	if (app_bs->LocateProtocol((EFI_GUID *)&efi_mp_services_protocol_guid, NULL,
				   (void **)&mp) != EFI_SUCCESS) {
		app_print("mp-test: no MP services\n");
		check_no_protocol();
	} else if (CHECK_STATUS(mp->GetNumberOfProcessors(mp, &cpu_count, &enabled), EFI_SUCCESS)) {
		app_print("mp-test: %u processors\n", (unsigned)cpu_count);
		if (cpu_count == 1)
			check_one_processor();
		else if (cpu_count > MP_TEST_MAX_CPUS)
			CHECK_FAIL("%u processors: the test handles at most %u",
				   (unsigned)cpu_count, MP_TEST_MAX_CPUS);
		else
			check_run_suites(NULL, NULL);
	}
	check_print_summary("mp-test");
	if (mp_test_boot_mode())
		mp_test_boot_next();
	if (mp_test_exit_mode())
		mp_test_exit_and_stop();
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
