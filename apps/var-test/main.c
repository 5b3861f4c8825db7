/* var-test's entry point: picks the mode from the command line (var_test.h). */
#include "var_test.h"
#include <efi/protocol/loaded_image.h>

/* The first word after the program's name in LoadOptions, as ASCII; "" when none. */
static void mode_word(char *out, UINTN cap)
{
	static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
	const CHAR16 *p, *end;
	UINTN n = 0;

	out[0] = 0;
	if (app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&li) != EFI_SUCCESS ||
	    !li->LoadOptions)
		return;
	p = li->LoadOptions;
	end = p + li->LoadOptionsSize / sizeof(CHAR16);
	while (p < end && *p && *p != u' ') /* the program's own name */
		p++;
	while (p < end && *p == u' ')
		p++;
	while (p < end && *p && *p != u' ' && n + 1 < cap)
		out[n++] = (char)*p++;
	out[n] = 0;
}

static void run_mode(const char *mode)
{
	if (!str8_cmp(mode, "write"))
		vt_write();
	else if (!str8_cmp(mode, "read"))
		vt_read();
	else if (!str8_cmp(mode, "fresh"))
		vt_fresh();
	else if (!str8_cmp(mode, "tool-check"))
		vt_tool_check();
	else if (!str8_cmp(mode, "report"))
		vt_report();
	else
		CHECK_FAIL("unknown mode '%s'", mode);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	char mode[32];

	app_init(image, st);
	app_bs->SetWatchdogTimer(0, 0, 0, NULL);
	mode_word(mode, sizeof(mode));
	app_print("var-test: firmware %ls, mode %s\n", st->FirmwareVendor,
		  mode[0] ? mode : "rules");
	if (mode[0] && str8_cmp(mode, "rules")) {
		run_mode(mode);
		check_print_summary("var-test");
		return check_totals.failed ? EFI_ABORTED : EFI_SUCCESS;
	}
	check_run_suites(NULL, NULL);
	bool ready = vt_runtime_prepare();
	check_print_summary("var-test");
	if (ready)
		vt_runtime_run();
	return EFI_ABORTED;
}
