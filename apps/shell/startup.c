/* startup.nsh: run at start from the file system the shell came from, else the first file
 * system that has one, after a countdown that any key cuts short (the key skips it). */
#include "internal.h"

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

/* Whether mapping m has \startup.nsh. */
static bool has_startup(struct shell *sh, UINTN m)
{
	struct sh_path p = {m, (CHAR16 *)u"\\startup.nsh"};
	EFI_FILE_PROTOCOL *f;

	if (!sh->maps[m].fs || EFI_ERROR(sh_open_path(sh, &p, EFI_FILE_MODE_READ, 0, &f)))
		return false;
	f->Close(f);
	return true;
}

static INTN find_startup(struct shell *sh)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;

	if (!EFI_ERROR(app_bs->HandleProtocol(sh->image, &loaded_image_guid, (void **)&li)))
		for (UINTN m = 0; m < sh->map_count; m++)
			if (sh->maps[m].handle == li->DeviceHandle && has_startup(sh, m))
				return (INTN)m;
	for (UINTN m = 0; m < sh->map_count; m++)
		if (has_startup(sh, m))
			return (INTN)m;
	return -1;
}

/* Counts down; false when a key was pressed (and taken). */
static bool countdown(struct shell *sh, UINTN seconds)
{
	EFI_EVENT timer, events[2];
	EFI_INPUT_KEY key;
	UINTN index;
	bool run = true;

	if (!sh->con_in) {
		app_bs->Stall(seconds * 1000000);
		return true;
	}
	if (EFI_ERROR(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer)))
		return true;
	app_bs->SetTimer(timer, TimerPeriodic, 10000000);
	events[0] = sh->con_in->WaitForKey;
	events[1] = timer;
	for (UINTN left = seconds; left > 0 && run; left--) {
		sh_print(sh, "\rPress any key to skip startup.nsh in %u second%s ", (unsigned)left,
			 left == 1 ? " " : "s");
		for (;;) {
			if (EFI_ERROR(app_bs->WaitForEvent(2, events, &index)) || index == 1)
				break;
			if (!EFI_ERROR(sh->con_in->ReadKeyStroke(sh->con_in, &key))) {
				run = false;
				break;
			}
		}
	}
	app_bs->CloseEvent(timer);
	sh_print(sh, "\n");
	return run;
}

void sh_startup(struct shell *sh, UINTN delay_seconds)
{
	INTN m = find_startup(sh);
	CHAR16 *argv[2] = {NULL, NULL};
	struct sh_buf b;

	if (m < 0)
		return;
	if (delay_seconds && !countdown(sh, delay_seconds)) {
		sh_print(sh, "startup.nsh skipped\n");
		return;
	}
	sh_set_cwd(sh, (UINTN)m, u"\\", true);
	sh_buf_init(&b);
	sh_buf_puts(&b, sh->maps[m].name);
	sh_buf_puts(&b, u":\\startup.nsh");
	argv[0] = sh_buf_take(&b);
	if (!argv[0])
		return;
	sh_command_begin(sh);
	sh_set_last_status(sh, sh_run_script(sh, argv[0], 1, argv));
	app_free(argv[0]);
}
