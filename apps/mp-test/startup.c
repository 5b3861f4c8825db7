/* StartupAllAPs and StartupThisAP doing their work: every AP runs the procedure once, in
 * parallel or one at a time in ascending order, blocking or signalling an event. */
#define APP_TEST_SUITE "20_startup"
#include "mp_test.h"

/* Each AP ran once, where WhoAmI and its APIC ID say; the BSP did not. */
static void check_all_ran(void)
{
	EFI_PROCESSOR_INFORMATION info;

	CHECK_EQ(records[0].runs, 0);
	for (UINTN i = 1; i < cpu_count; i++) {
		CHECK_EQ(records[i].runs, 1);
		CHECK_EQ(records[i].who, i);
		if (CHECK_STATUS(mp->GetProcessorInfo(mp, i, &info), EFI_SUCCESS))
			CHECK_EQ(records[i].apic_id, info.ProcessorId);
	}
}

APP_TEST(all_parallel_blocking)
{
	UINT32 aps = (UINT32)cpu_count - 1;
	UINTN *failed = (UINTN *)1;

	records_clear();
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_barrier, FALSE, NULL, 0, &aps, &failed),
		     EFI_SUCCESS);
	CHECK(failed == NULL);
	check_all_ran();
	CHECK(max_running >= 2); /* they met at the barrier: they ran at once */
}

APP_TEST(all_single_thread)
{
	records_clear();
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_record, TRUE, NULL, 0, NULL, NULL), EFI_SUCCESS);
	check_all_ran();
	CHECK_EQ(max_running, 1);
	for (UINTN i = 1; i < cpu_count; i++)
		CHECK_EQ(records[i].order, i); /* ascending processor numbers */
}

static void wait_for(EFI_EVENT event)
{
	UINTN index;

	CHECK_STATUS(app_bs->WaitForEvent(1, &event, &index), EFI_SUCCESS);
}

APP_TEST(all_nonblocking)
{
	EFI_EVENT event;
	UINTN *failed = (UINTN *)1;

	for (int single = 0; single < 2; single++) {
		records_clear();
		if (!CHECK_STATUS(app_bs->CreateEvent(0, 0, NULL, NULL, &event), EFI_SUCCESS))
			return;
		CHECK_STATUS(
		    mp->StartupAllAPs(mp, proc_record, (BOOLEAN)single, event, 0, NULL, &failed),
		    EFI_SUCCESS);
		wait_for(event);
		CHECK(failed == NULL);
		check_all_ran();
		app_bs->CloseEvent(event);
	}
}

APP_TEST(this_ap_blocking)
{
	records_clear();
	for (UINTN i = 1; i < cpu_count; i++)
		CHECK_STATUS(mp->StartupThisAP(mp, proc_record, i, NULL, 0, NULL, NULL),
			     EFI_SUCCESS);
	check_all_ran();
	CHECK_EQ(max_running, 1);
}

APP_TEST(this_ap_nonblocking)
{
	EFI_EVENT event;
	BOOLEAN finished = FALSE;
	UINTN last = cpu_count - 1;

	records_clear();
	if (!CHECK_STATUS(app_bs->CreateEvent(0, 0, NULL, NULL, &event), EFI_SUCCESS))
		return;
	CHECK_STATUS(mp->StartupThisAP(mp, proc_record, last, event, 0, NULL, &finished),
		     EFI_SUCCESS);
	wait_for(event);
	CHECK(finished);
	CHECK_EQ(records[last].runs, 1);
	CHECK_EQ(records[last].who, last);
	app_bs->CloseEvent(event);
}

APP_TEST(bad_arguments)
{
	CHECK_STATUS(mp->StartupAllAPs(mp, NULL, FALSE, NULL, 0, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->StartupThisAP(mp, NULL, 1, NULL, 0, NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->StartupThisAP(mp, proc_record, 0, NULL, 0, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->StartupThisAP(mp, proc_record, cpu_count, NULL, 0, NULL, NULL),
		     EFI_NOT_FOUND);
}
