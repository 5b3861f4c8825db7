/* wakeup-test: GetWakeupTime/SetWakeupTime (UEFI 2.10, 8.3) on the firmware it runs on:
 * the argument checks, an alarm set an hour ahead and read back (enabled, not pending),
 * one set two seconds ahead that rings while the test waits (pending), disabling (which
 * acknowledges it), and a time the platform's alarm cannot hold. A firmware whose
 * EFI_RT_PROPERTIES_TABLE leaves both services out (ember-run) must answer
 * EFI_UNSUPPORTED to every valid call instead. Ends with a summary line and powers the
 * machine off, as scripts/run-ovmf expects. */
#include "../lib/check.h"
#include <ember/lib/guids.h>
#include <ember/lib/time.h>

static EFI_TIME seconds_ahead(INT64 seconds)
{
	EFI_TIME now = {0}, t;

	CHECK_STATUS(app_rt->GetTime(&now, NULL), EFI_SUCCESS);
	efi_time_from_unix(efi_time_to_unix(&now) + seconds, &t);
	t.TimeZone = now.TimeZone;
	t.Daylight = now.Daylight;
	return t;
}

#define WAKEUP_BITS (EFI_RT_SUPPORTED_GET_WAKEUP_TIME | EFI_RT_SUPPORTED_SET_WAKEUP_TIME)

/* The wake-up bits of the EFI_RT_PROPERTIES_TABLE; both when there is no table (the
 * spec's default: every service is supported). */
static UINT32 wakeup_bits(void)
{
	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &app_st->ConfigurationTable[i];
		if (guid_eq(&t->VendorGuid, &efi_rt_properties_table_guid)) {
			const EFI_RT_PROPERTIES_TABLE *props = t->VendorTable;
			return props->RuntimeServicesSupported & WAKEUP_BITS;
		}
	}
	return WAKEUP_BITS;
}

/* A firmware without the alarm: valid calls answer EFI_UNSUPPORTED. */
static void check_unsupported(void)
{
	BOOLEAN enabled, pending;
	EFI_TIME t = seconds_ahead(3600);

	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, &t), EFI_UNSUPPORTED);
	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, &t), EFI_UNSUPPORTED);
	CHECK_STATUS(app_rt->SetWakeupTime(FALSE, NULL), EFI_UNSUPPORTED);
}

static bool same_time(const EFI_TIME *a, const EFI_TIME *b)
{
	return a->Year == b->Year && a->Month == b->Month && a->Day == b->Day &&
	       a->Hour == b->Hour && a->Minute == b->Minute && a->Second == b->Second;
}

static void check_arguments(void)
{
	BOOLEAN enabled, pending;
	EFI_TIME t = seconds_ahead(3600);

	CHECK_STATUS(app_rt->GetWakeupTime(NULL, &pending, &t), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, NULL, &t), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, NULL), EFI_INVALID_PARAMETER);
	t.Month = 13;
	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, &t), EFI_INVALID_PARAMETER);
	t = seconds_ahead(3600), t.Minute = 60;
	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, &t), EFI_INVALID_PARAMETER);
}

static void check_set_and_read_back(void)
{
	BOOLEAN enabled = FALSE, pending = TRUE;
	EFI_TIME alarm = seconds_ahead(3600), got = {0};

	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, &alarm), EFI_SUCCESS);
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	CHECK(enabled);
	CHECK(!pending);
	if (!CHECK(same_time(&got, &alarm)))
		app_print(
		    "  set %04u-%02u-%02u %02u:%02u:%02u, read %04u-%02u-%02u %02u:%02u:%02u\n",
		    alarm.Year, alarm.Month, alarm.Day, alarm.Hour, alarm.Minute, alarm.Second,
		    got.Year, got.Month, got.Day, got.Hour, got.Minute, got.Second);
	CHECK_STATUS(app_rt->SetWakeupTime(FALSE, NULL), EFI_SUCCESS);
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	CHECK(!enabled);
	CHECK(!pending);
}

static void check_ringing(void)
{
	BOOLEAN enabled = FALSE, pending = FALSE;
	EFI_TIME alarm = seconds_ahead(2), got;

	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, &alarm), EFI_SUCCESS);
	app_bs->Stall(3500 * 1000);
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	CHECK(enabled);
	CHECK(pending);
	/* Still pending on a second read: SetWakeupTime acknowledges an alarm, reading does
	 * not. EDK II's RTC driver reports AF from register C, which the read clears. */
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	CHECK_KNOWN(pending, FW_EDK2, "GetWakeupTime clears Pending (reading register C)");
	CHECK_STATUS(app_rt->SetWakeupTime(FALSE, NULL), EFI_SUCCESS);
	CHECK_STATUS(app_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	CHECK(!enabled);
	CHECK(!pending);
}

/* QEMU's RTC has no date alarm (its FADT names no day or month alarm register): a time
 * two days ahead cannot be held. Ember calls that a field out of range; EDK II answers
 * EFI_UNSUPPORTED. */
static void check_out_of_reach(void)
{
	EFI_TIME far = seconds_ahead(2 * 86400);
	EFI_STATUS want = app_firmware_is(FW_EDK2) ? EFI_UNSUPPORTED : EFI_INVALID_PARAMETER;

	CHECK_STATUS(app_rt->SetWakeupTime(TRUE, &far), want);
	CHECK_STATUS(app_rt->SetWakeupTime(FALSE, NULL), EFI_SUCCESS);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_init(image, st);
	app_print("wakeup-test on %ls\n", st->FirmwareVendor);
	check_arguments();
	if (wakeup_bits() == WAKEUP_BITS) {
		check_set_and_read_back();
		check_ringing();
		check_out_of_reach();
	} else {
		CHECK_EQ(wakeup_bits(), 0); /* both or neither */
		app_print("wakeup-test: no wake-up alarm (RT properties table)\n");
		check_unsupported();
	}
	check_print_summary("wakeup-test");
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
