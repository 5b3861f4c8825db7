/* The statuses the spec names for calls that cannot be served: from an AP, to a busy AP,
 * past the timeout, with APs disabled; and SwitchBSP. */
#define APP_TEST_SUITE "30_errors"
#include "mp_test.h"

#define SHORT_TIMEOUT_US 20000

static void set_enabled(UINTN n, BOOLEAN on)
{
	CHECK_STATUS(mp->EnableDisableAP(mp, n, on, NULL), EFI_SUCCESS);
}

APP_TEST(enable_disable)
{
	UINTN n = 0, enabled = 0;
	EFI_PROCESSOR_INFORMATION info;
	UINT32 health = 0;

	CHECK_STATUS(mp->EnableDisableAP(mp, 0, FALSE, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->EnableDisableAP(mp, cpu_count, FALSE, NULL), EFI_NOT_FOUND);
	set_enabled(1, FALSE);
	CHECK_STATUS(mp->GetNumberOfProcessors(mp, &n, &enabled), EFI_SUCCESS);
	CHECK_EQ(n, cpu_count);
	CHECK_EQ(enabled, cpu_count - 1);
	if (CHECK_STATUS(mp->GetProcessorInfo(mp, 1, &info), EFI_SUCCESS))
		CHECK(!(info.StatusFlag & PROCESSOR_ENABLED_BIT));
	CHECK_STATUS(mp->StartupThisAP(mp, proc_record, 1, NULL, 0, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->SwitchBSP(mp, 1, TRUE), EFI_INVALID_PARAMETER);
	records_clear();
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_record, FALSE, NULL, 0, NULL, NULL), EFI_SUCCESS);
	CHECK_EQ(records[1].runs, 0);
	for (UINTN i = 2; i < cpu_count; i++)
		CHECK_EQ(records[i].runs, 1);
	for (UINTN i = 2; i < cpu_count; i++)
		set_enabled(i, FALSE);
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_record, FALSE, NULL, 0, NULL, NULL),
		     EFI_NOT_STARTED);
	for (UINTN i = 1; i < cpu_count; i++)
		set_enabled(i, TRUE);
	/* The health flag: only its health bit is taken. */
	CHECK_STATUS(mp->EnableDisableAP(mp, 1, TRUE, &health), EFI_SUCCESS);
	if (CHECK_STATUS(mp->GetProcessorInfo(mp, 1, &info), EFI_SUCCESS))
		CHECK_EQ(info.StatusFlag, PROCESSOR_ENABLED_BIT);
	health = PROCESSOR_HEALTH_STATUS_BIT;
	CHECK_STATUS(mp->EnableDisableAP(mp, 1, TRUE, &health), EFI_SUCCESS);
	if (CHECK_STATUS(mp->GetProcessorInfo(mp, 1, &info), EFI_SUCCESS))
		CHECK_EQ(info.StatusFlag, PROCESSOR_ENABLED_BIT | PROCESSOR_HEALTH_STATUS_BIT);
	CHECK_STATUS(mp->GetNumberOfProcessors(mp, &n, &enabled), EFI_SUCCESS);
	CHECK_EQ(enabled, cpu_count);
}

/* SwitchBSP's argument checks; a switch there and back where the firmware supports it
 * (the spec lets it answer EFI_UNSUPPORTED, "not supported": Ember does). */
APP_TEST(switch_bsp)
{
	UINTN who = 99;
	EFI_STATUS status;

	CHECK_STATUS(mp->SwitchBSP(mp, 0, TRUE), EFI_INVALID_PARAMETER);
	CHECK_STATUS(mp->SwitchBSP(mp, cpu_count, TRUE), EFI_NOT_FOUND);
	/* OVMF (QEMU 7.2, TCG) starts over from its reset vector when its BSP moves. */
	if (KNOWN_CRASH("SwitchBSP to AP 1", FW_EDK2, "SwitchBSP resets the machine"))
		return;
	status = mp->SwitchBSP(mp, 1, TRUE);
	CHECK_STATUS2(status, EFI_SUCCESS, EFI_UNSUPPORTED);
	if (status != EFI_SUCCESS) {
		app_print("mp-test: SwitchBSP is not supported\n");
		return;
	}
	CHECK_STATUS(mp->WhoAmI(mp, &who), EFI_SUCCESS);
	CHECK_EQ(who, 1);
	CHECK_STATUS(mp->SwitchBSP(mp, 0, TRUE), EFI_SUCCESS);
	CHECK_STATUS(mp->WhoAmI(mp, &who), EFI_SUCCESS);
	CHECK_EQ(who, 0);
}

APP_TEST(calls_from_an_ap)
{
	struct ap_record *r = &records[1];
	UINTN who = 99;

	records_clear();
	if (!CHECK_STATUS(mp->StartupThisAP(mp, proc_ap_calls, 1, NULL, 0, NULL, NULL),
			  EFI_SUCCESS))
		return;
	for (int i = 0; i < 6; i++)
		if (!CHECK_STATUS(r->calls[i], EFI_DEVICE_ERROR))
			app_print("  service %d from an AP\n", i);
	CHECK_STATUS(r->calls[6], EFI_INVALID_PARAMETER); /* WhoAmI(NULL) */
	CHECK_EQ(r->who, 1);
	CHECK_STATUS(mp->WhoAmI(mp, &who), EFI_SUCCESS);
	CHECK_EQ(who, 0);
}

/* An AP held busy by a non-blocking StartupThisAP: others are refused with NOT_READY,
 * its event stays unsignalled until it is released, then Finished is TRUE. */
APP_TEST(busy_ap)
{
	EFI_EVENT event;
	BOOLEAN finished = TRUE;
	UINTN index;

	records_clear();
	if (!CHECK_STATUS(app_bs->CreateEvent(0, 0, NULL, NULL, &event), EFI_SUCCESS))
		return;
	hold = 1;
	if (!CHECK_STATUS(mp->StartupThisAP(mp, proc_hold, 1, event, 0, NULL, &finished),
			  EFI_SUCCESS)) {
		hold = 0;
		return;
	}
	CHECK(!finished);
	for (int i = 0; i < 5000 && !records[1].runs; i++)
		app_bs->Stall(1000); /* until it runs: EDK II calls it idle until then */
	CHECK_EQ(records[1].runs, 1);
	/* EDK II's StartupThisAP does not look at the AP's state: it would start the new
	 * procedure over the running one. */
	if (!KNOWN_CRASH("StartupThisAP on a busy AP", FW_EDK2, "StartupThisAP ignores a busy AP"))
		CHECK_STATUS(mp->StartupThisAP(mp, proc_record, 1, NULL, 0, NULL, NULL),
			     EFI_NOT_READY);
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_record, FALSE, NULL, 0, NULL, NULL), EFI_NOT_READY);
	CHECK_STATUS(mp->SwitchBSP(mp, 1, TRUE), EFI_NOT_READY);
	app_bs->Stall(2000);
	CHECK_STATUS(app_bs->CheckEvent(event), EFI_NOT_READY);
	CHECK(!finished);
	hold = 0;
	CHECK_STATUS(app_bs->WaitForEvent(1, &event, &index), EFI_SUCCESS);
	CHECK(finished);
	CHECK_EQ(records[1].runs, 1);
	app_bs->CloseEvent(event);
}

/* Timeouts: the AP that does not return is stopped and can run the next procedure. */
APP_TEST(timeouts)
{
	EFI_EVENT event;
	BOOLEAN finished = TRUE;
	UINTN *failed = NULL, index, last = cpu_count - 1;

	records_clear();
	hold = 1;
	CHECK_STATUS(mp->StartupThisAP(mp, proc_hold, 1, NULL, SHORT_TIMEOUT_US, NULL, NULL),
		     EFI_TIMEOUT);
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_hold, FALSE, NULL, SHORT_TIMEOUT_US, NULL, &failed),
		     EFI_TIMEOUT);
	if (CHECK(failed != NULL)) {
		for (UINTN i = 1; i < cpu_count; i++)
			CHECK_EQ(failed[i - 1], i);
		CHECK_EQ(failed[cpu_count - 1], END_OF_CPU_LIST);
		app_bs->FreePool(failed);
	}
	if (CHECK_STATUS(app_bs->CreateEvent(0, 0, NULL, NULL, &event), EFI_SUCCESS)) {
		CHECK_STATUS(mp->StartupThisAP(mp, proc_hold, last, event, SHORT_TIMEOUT_US, NULL,
					       &finished),
			     EFI_SUCCESS);
		CHECK_STATUS(app_bs->WaitForEvent(1, &event, &index), EFI_SUCCESS);
		CHECK(!finished);
		app_bs->CloseEvent(event);
	}
	hold = 0;
	records_clear();
	CHECK_STATUS(mp->StartupAllAPs(mp, proc_record, FALSE, NULL, 0, NULL, NULL), EFI_SUCCESS);
	for (UINTN i = 1; i < cpu_count; i++)
		CHECK_EQ(records[i].runs, 1);
}
