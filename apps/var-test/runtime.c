/* The rules after ExitBootServices (8.2): only RUNTIME_ACCESS variables exist, only
 * NON_VOLATILE+RUNTIME_ACCESS ones can be set, volatile ones are read-only. Results go
 * to a memlog (which scripts/run-ovmf reads back from guest memory), to the variable
 * VtRuntimeLog (which "var-test report" prints in a later run), and to ResetSystem. */
#include "var_test.h"
#include "../lib/memlog.h"

#define LOG_PAGES 2

static struct {
	struct memlog *log;
	struct check_totals before;
	CHAR16 reset_text[96];
	char summary[128];
} rt;

bool vt_runtime_prepare(void)
{
	EFI_PHYSICAL_ADDRESS log = 0;

	vt_remove(u"VtRuntimeLog", &vt_guid);
	vt_remove(u"VtRuntimeNv", &vt_guid);
	if (!CHECK_STATUS(vt_set(u"VtRuntimeNv", &vt_guid, NBR, 4, "boot"), EFI_SUCCESS) ||
	    !CHECK_STATUS(vt_set(u"VtRuntimeBs", &vt_guid, NB, 4, "boot"), EFI_SUCCESS) ||
	    !CHECK_STATUS(vt_set(u"VtRuntimeVol", &vt_guid, BR, 4, "boot"), EFI_SUCCESS) ||
	    !CHECK_STATUS(app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, LOG_PAGES, &log),
			  EFI_SUCCESS))
		return false;
	rt.log = memlog_init((void *)(UINTN)log, LOG_PAGES * EFI_PAGE_SIZE);
	app_print("var-test: post-ExitBootServices log at 0x%llx (%u bytes)\n",
		  (unsigned long long)log, (unsigned)(LOG_PAGES * EFI_PAGE_SIZE));
	return true;
}

static EFI_STATUS exit_boot_services(void)
{
	static UINT8 map[64 * 1024];
	EFI_STATUS status = EFI_NOT_STARTED;
	UINTN size, key, dsize;
	UINT32 dver;

	for (int attempt = 0; attempt < 3 && status != EFI_SUCCESS; attempt++) {
		size = sizeof(map);
		if (app_bs->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)map, &key, &dsize,
					 &dver) != EFI_SUCCESS)
			continue;
		status = app_bs->ExitBootServices(app_image, key);
	}
	return status;
}

static void check_visibility(void)
{
	UINT8 buf[16];
	UINTN size = sizeof(buf);
	bool found;

	CHECK_STATUS(vt_get(u"VtRuntimeBs", &vt_guid, NULL, &size, buf), EFI_NOT_FOUND);
	CHECK(vt_holds(u"VtRuntimeNv", &vt_guid, NBR, "boot", 4));
	CHECK(vt_holds(u"VtRuntimeVol", &vt_guid, BR, "boot", 4));
	CHECK(vt_exists(u"PlatformLangCodes", &vt_global));
	CHECK(vt_enumerate(u"VtRuntimeNv", &vt_guid, &found) > 0 && found);
	vt_enumerate(u"VtRuntimeBs", &vt_guid, &found);
	CHECK(!found);
	CHAR16 name[32];
	EFI_GUID g = vt_guid;
	str16_copy(name, u"VtRuntimeBs");
	size = sizeof(name);
	CHECK_STATUS(app_rt->GetNextVariableName(&size, name, &g), EFI_INVALID_PARAMETER);
}

static void check_writes(void)
{
	UINT64 max, remaining, largest;

	CHECK_STATUS(vt_set(u"VtRuntimeNv", &vt_guid, NBR, 14, "set at runtime"), EFI_SUCCESS);
	CHECK(vt_holds(u"VtRuntimeNv", &vt_guid, NBR, "set at runtime", 14));
	CHECK_STATUS(vt_set(u"VtRuntimeNew", &vt_guid, NB, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtRuntimeNew", &vt_guid, BR, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtRuntimeVol", &vt_guid, BR, 1, "x"), EFI_WRITE_PROTECTED);
	/* A variable without RUNTIME_ACCESS no longer exists for the caller. */
	CHECK_STATUS_KNOWN(vt_set(u"VtRuntimeBs", &vt_guid, 0, 0, NULL), EFI_NOT_FOUND, FW_EDK2,
			   "EDK II answers EFI_WRITE_PROTECTED for deleting a boot-services-only "
			   "variable after ExitBootServices");
	CHECK_STATUS(vt_set(u"VtRuntimeTmp", &vt_guid, NBR, 3, "tmp"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtRuntimeTmp", &vt_guid, 0, 0, NULL), EFI_SUCCESS);
	CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, &remaining, &largest),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->QueryVariableInfo(NBR, &max, &remaining, &largest), EFI_SUCCESS);
}

__attribute__((noreturn)) void vt_runtime_run(void)
{
	UINT32 failed;

	rt.before = check_totals;
	app_set_output(memlog_write, rt.log);
	bool exited = CHECK_STATUS(exit_boot_services(), EFI_SUCCESS);
	app_forget_boot_services();
	if (exited) {
		check_visibility();
		check_writes();
	}
	failed = check_totals.failed - rt.before.failed;
	format_sn(rt.summary, sizeof(rt.summary),
		  "after-exit-boot-services: %u passed, %u failed\n",
		  (unsigned)(check_totals.passed - rt.before.passed), (unsigned)failed);
	app_print("%s", rt.summary);
	/* Kept for "var-test report": a runtime write of its own. */
	vt_set(u"VtRuntimeLog", &vt_guid, NBR, str8_len(rt.summary), rt.summary);
	format_sn(rt.summary, sizeof(rt.summary), "var-test: %u passed, %u failed",
		  (unsigned)check_totals.passed, (unsigned)check_totals.failed);
	utf8_to_ucs2(rt.reset_text, ARRAY_SIZE(rt.reset_text), rt.summary, str8_len(rt.summary));
	app_rt->ResetSystem(EfiResetShutdown, check_totals.failed ? EFI_ABORTED : EFI_SUCCESS,
			    str16_size(rt.reset_text), rt.reset_text);
	app_halt();
}
