/* The runtime services table (core/runtime/runtime_services.c, UEFI 2.10 chapter 8): the
 * time services' argument checks (8.3), the wake-up alarm's, the high monotonic count
 * (8.4.1), ResetSystem (8.5.1), no capsules, and variables that report EFI_UNSUPPORTED
 * until the platform has started them. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include "support/test_platform.h"
#include "test_varstore.h"
#include "../../core/services.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

static EFI_TIME valid_time(void)
{
	return (EFI_TIME){.Year = 2024,
			  .Month = 2,
			  .Day = 29,
			  .Hour = 23,
			  .Minute = 59,
			  .Second = 59,
			  .Nanosecond = 999999999,
			  .TimeZone = -1440,
			  .Daylight = EFI_TIME_ADJUST_DAYLIGHT | EFI_TIME_IN_DAYLIGHT};
}

TEST(runtime_get_time_needs_a_time)
{
	EFI_TIME t;
	EFI_TIME_CAPABILITIES caps = {0};

	EXPECT_STATUS(core_rt->GetTime(NULL, &caps), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(core_rt->GetTime(&t, NULL), EFI_SUCCESS);
	EXPECT_STATUS(core_rt->GetTime(&t, &caps), EFI_SUCCESS);
	EXPECT(t.Year == 2026 && t.Month == 1 && t.Day == 1); /* the test platform's clock */
	EXPECT(caps.Resolution != 0);
}

/* SetTime accepts every field at its limits and refuses each one beyond them (8.3.1). */
TEST(runtime_set_time_checks_every_field)
{
	EFI_TIME t = valid_time();

	EXPECT_STATUS(core_rt->SetTime(NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(core_rt->SetTime(&t), EFI_SUCCESS);
	t.TimeZone = EFI_UNSPECIFIED_TIMEZONE, t.Daylight = 0;
	EXPECT_STATUS(core_rt->SetTime(&t), EFI_SUCCESS);
	t = valid_time(), t.Year = 2000; /* divisible by 400: leap */
	EXPECT_STATUS(core_rt->SetTime(&t), EFI_SUCCESS);
	t = valid_time(), t.Year = 1900, t.Month = 1, t.Day = 31, t.TimeZone = 1440;
	EXPECT_STATUS(core_rt->SetTime(&t), EFI_SUCCESS);
	t = valid_time(), t.Year = 9999, t.Month = 12, t.Day = 31;
	EXPECT_STATUS(core_rt->SetTime(&t), EFI_SUCCESS);

	static const struct {
		const char *what;
		UINT16 year;
		UINT8 month, day, hour, minute, second;
		UINT32 nanosecond;
		INT16 zone;
		UINT8 daylight;
	} bad[] = {
	    {"year 1899", 1899, 1, 1, 0, 0, 0, 0, 0, 0},
	    {"year 10000", 10000, 1, 1, 0, 0, 0, 0, 0, 0},
	    {"month 0", 2024, 0, 1, 0, 0, 0, 0, 0, 0},
	    {"month 13", 2024, 13, 1, 0, 0, 0, 0, 0, 0},
	    {"day 0", 2024, 1, 0, 0, 0, 0, 0, 0, 0},
	    {"April 31", 2024, 4, 31, 0, 0, 0, 0, 0, 0},
	    {"February 30", 2024, 2, 30, 0, 0, 0, 0, 0, 0},
	    {"February 29 2023", 2023, 2, 29, 0, 0, 0, 0, 0, 0},
	    {"February 29 1900", 1900, 2, 29, 0, 0, 0, 0, 0, 0},
	    {"hour 24", 2024, 1, 1, 24, 0, 0, 0, 0, 0},
	    {"minute 60", 2024, 1, 1, 0, 60, 0, 0, 0, 0},
	    {"second 60", 2024, 1, 1, 0, 0, 60, 0, 0, 0},
	    {"nanosecond 1e9", 2024, 1, 1, 0, 0, 0, 1000000000, 0, 0},
	    {"zone -1441", 2024, 1, 1, 0, 0, 0, 0, -1441, 0},
	    {"zone 1441", 2024, 1, 1, 0, 0, 0, 0, 1441, 0},
	    {"daylight bit 2", 2024, 1, 1, 0, 0, 0, 0, 0, 4},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = (EFI_TIME){.Year = bad[i].year,
			       .Month = bad[i].month,
			       .Day = bad[i].day,
			       .Hour = bad[i].hour,
			       .Minute = bad[i].minute,
			       .Second = bad[i].second,
			       .Nanosecond = bad[i].nanosecond,
			       .TimeZone = bad[i].zone,
			       .Daylight = bad[i].daylight};
		if (!EXPECT_STATUS(core_rt->SetTime(&t), EFI_INVALID_PARAMETER))
			printf("    (%s)\n", bad[i].what);
	}
}

TEST(runtime_wakeup_alarm_argument_checks)
{
	BOOLEAN enabled = TRUE, pending = TRUE;
	EFI_TIME t = valid_time(), got = {0};

	EXPECT_STATUS(core_rt->GetWakeupTime(NULL, &pending, &t), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(core_rt->GetWakeupTime(&enabled, NULL, &t), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(core_rt->GetWakeupTime(&enabled, &pending, NULL), EFI_INVALID_PARAMETER);
	/* Enabling needs a valid time; disabling needs none. */
	EXPECT_STATUS(core_rt->SetWakeupTime(TRUE, NULL), EFI_INVALID_PARAMETER);
	t.Month = 13;
	EXPECT_STATUS(core_rt->SetWakeupTime(TRUE, &t), EFI_INVALID_PARAMETER);
	t = valid_time(), t.Year = 2023; /* 29 February of a common year */
	EXPECT_STATUS(core_rt->SetWakeupTime(TRUE, &t), EFI_INVALID_PARAMETER);
	t = valid_time(), t.TimeZone = 1441;
	EXPECT_STATUS(core_rt->SetWakeupTime(TRUE, &t), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(core_rt->SetWakeupTime(FALSE, NULL), EFI_SUCCESS);
	EXPECT_STATUS(core_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	EXPECT(!enabled && !pending);
}

TEST(runtime_wakeup_alarm_set_ring_acknowledge)
{
	BOOLEAN enabled = FALSE, pending = TRUE;
	EFI_TIME t = valid_time(), got = {0};

	ASSERT_STATUS(core_rt->SetWakeupTime(TRUE, &t), EFI_SUCCESS);
	EXPECT_STATUS(core_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	EXPECT(enabled && !pending);
	EXPECT(memcmp(&got, &t, sizeof(t)) == 0);
	test_ring_wakeup_alarm();
	EXPECT_STATUS(core_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	EXPECT(enabled && pending);
	/* Disabling acknowledges the alarm. */
	EXPECT_STATUS(core_rt->SetWakeupTime(FALSE, &t), EFI_SUCCESS);
	EXPECT_STATUS(core_rt->GetWakeupTime(&enabled, &pending, &got), EFI_SUCCESS);
	EXPECT(!enabled && !pending);
}

/* The high half counts up by one per call, and the count from GetNextMonotonicCount
 * continues from it, still increasing. */
TEST(runtime_high_monotonic_count)
{
	UINT64 before, after;
	UINT32 high, high2;

	EXPECT_STATUS(core_rt->GetNextHighMonotonicCount(NULL), EFI_INVALID_PARAMETER);
	ASSERT_STATUS(core_st->BootServices->GetNextMonotonicCount(&before), EFI_SUCCESS);
	ASSERT_STATUS(core_rt->GetNextHighMonotonicCount(&high), EFI_SUCCESS);
	EXPECT_EQ(high, (before >> 32) + 1);
	ASSERT_STATUS(core_st->BootServices->GetNextMonotonicCount(&after), EFI_SUCCESS);
	EXPECT(after > before);
	EXPECT_EQ(after >> 32, high);
	ASSERT_STATUS(core_rt->GetNextHighMonotonicCount(&high2), EFI_SUCCESS);
	EXPECT_EQ(high2, high + 1);
}

TEST(runtime_capsules_are_unsupported)
{
	UINT64 max;
	EFI_RESET_TYPE reset;
	EFI_CAPSULE_HEADER header = {0}, *list[] = {&header};

	EXPECT_STATUS(core_rt->UpdateCapsule(list, 1, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(core_rt->QueryCapsuleCapabilities(list, 1, &max, &reset), EFI_UNSUPPORTED);
}

/* ---- ResetSystem ---- */

static jmp_buf reset_return;
static EFI_RESET_TYPE reset_type;
static EFI_STATUS reset_status;
static UINTN reset_size;

static void catch_reset(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, const void *data)
{
	reset_type = type;
	reset_status = status;
	reset_size = size;
	longjmp(reset_return, 1);
}

/* ResetSystem hands the request to the platform and says who asked, at info level. */
static bool reset_logs(EFI_RESET_TYPE type, EFI_STATUS status, const char *expect)
{
	static char log[256];
	static CHAR16 reason[] = u"why";
	enum log_level threshold = log_threshold;
	bool ok;

	test_log_capture(LOG_LEVEL_INFO);
	test_set_reset_handler(catch_reset);
	if (setjmp(reset_return) == 0)
		core_rt->ResetSystem(type, status, sizeof(reason), reason);
	test_set_reset_handler(NULL);
	snprintf(log, sizeof(log), "%s", test_log_text());
	test_log_stop();
	log_threshold = threshold;
	ok = EXPECT_EQ(reset_type, type) && EXPECT_EQ(reset_status, status) &&
	     EXPECT_EQ(reset_size, sizeof(reason)) && EXPECT(strstr(log, expect) != NULL);
	if (!ok)
		printf("    log: %s\n", log);
	return ok;
}

TEST(runtime_reset_system_reaches_the_platform)
{
	reset_logs(EfiResetCold, EFI_SUCCESS,
		   "reset: ResetSystem(EfiResetCold) at boot time, status 0x0\n");
	reset_logs(EfiResetWarm, EFI_SUCCESS, "ResetSystem(EfiResetWarm)");
	reset_logs(EfiResetShutdown, EFI_DEVICE_ERROR,
		   "ResetSystem(EfiResetShutdown) at boot time, status 0x8000000000000007");
	reset_logs(EfiResetPlatformSpecific, EFI_SUCCESS, "ResetSystem(EfiResetPlatformSpecific)");
	reset_logs((EFI_RESET_TYPE)7, EFI_SUCCESS, "ResetSystem(an unknown type)");
}

/* ---- Variables before and after the platform starts them ---- */

static EFI_RT_PROPERTIES_TABLE *rt_properties(void)
{
	static const EFI_GUID guid = EFI_RT_PROPERTIES_TABLE_GUID;

	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++)
		if (guid_eq(&core_st->ConfigurationTable[i].VendorGuid, &guid))
			return core_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

#define RT_VARIABLES                                                                               \
	(EFI_RT_SUPPORTED_GET_VARIABLE | EFI_RT_SUPPORTED_GET_NEXT_VARIABLE_NAME |                 \
	 EFI_RT_SUPPORTED_SET_VARIABLE | EFI_RT_SUPPORTED_QUERY_VARIABLE_INFO)

static void variables_fail_then_start(void)
{
	struct nor_sim flash;
	struct probe_flash unreadable;
	EFI_GUID g = test_var_guid(10), mine = g;
	CHAR16 name[64] = u"";
	UINTN size = 4, name_size = sizeof(name);
	UINT64 max_storage = 0, remaining = 0, max_size = 0;
	UINT8 buf[4];
	UINT32 nv_bs = EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS;
	EFI_RT_PROPERTIES_TABLE *props = rt_properties();

	ASSERT(props != NULL);
	/* The unit-test platform has a wake-up alarm: the table lists its services. */
	EXPECT_EQ(props->RuntimeServicesSupported &
		      (EFI_RT_SUPPORTED_GET_WAKEUP_TIME | EFI_RT_SUPPORTED_SET_WAKEUP_TIME),
		  EFI_RT_SUPPORTED_GET_WAKEUP_TIME | EFI_RT_SUPPORTED_SET_WAKEUP_TIME);
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	unreadable = probe_of(&flash);
	unreadable.fail_from = 1;
	/* A flash that cannot be read: no variable service, and the table says so. */
	EXPECT(EFI_ERROR(variables_start(&unreadable.dev)));
	EXPECT_EQ(props->RuntimeServicesSupported & RT_VARIABLES, 0);
	EXPECT(variables_mount_report() == NULL);
	EXPECT_STATUS(core_rt->GetVariable(u"X", &g, NULL, &size, buf), EFI_UNSUPPORTED);
	EXPECT_STATUS(core_rt->GetNextVariableName(&name_size, name, &g), EFI_UNSUPPORTED);
	EXPECT_STATUS(core_rt->SetVariable(u"X", &g, nv_bs, 4, "data"), EFI_UNSUPPORTED);
	EXPECT_STATUS(core_rt->QueryVariableInfo(nv_bs, &max_storage, &remaining, &max_size),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(variable_set_firmware(u"X", &g, nv_bs, 4, "data"), EFI_UNSUPPORTED);

	/* On a good flash every variable service works. */
	ASSERT_STATUS(variables_start(&flash.dev), EFI_SUCCESS);
	EXPECT_EQ(props->RuntimeServicesSupported & RT_VARIABLES, RT_VARIABLES);
	EXPECT(variables_mount_report() != NULL);
	EXPECT_STATUS(variable_set_firmware(u"FromFirmware", &g, nv_bs, 4, "data"), EFI_SUCCESS);
	EXPECT_STATUS(core_rt->QueryVariableInfo(nv_bs, &max_storage, &remaining, &max_size),
		      EFI_SUCCESS);
	EXPECT(max_storage > 0 && remaining <= max_storage && max_size > 0);
	/* The variable just written is among the names. */
	bool seen = false;
	name[0] = 0;
	for (int n = 0; n < 100; n++) {
		name_size = sizeof(name);
		if (EFI_ERROR(core_rt->GetNextVariableName(&name_size, name, &g)))
			break;
		seen |= !str16_cmp(name, u"FromFirmware") && guid_eq(&g, &mine);
	}
	EXPECT(seen);
	EXPECT_EQ(tpl_current(), TPL_APPLICATION);
	nor_free(&flash); /* (this process ends here: nothing uses the variables any more) */
}

TEST(runtime_variables_unsupported_until_started)
{
	RUN_ISOLATED(variables_fail_then_start);
}
