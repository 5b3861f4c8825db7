/* more: shows text a screenful at a time. */
#include "cmd.h"

static EFI_STATUS cmd_more(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, NULL, &a);

	if (EFI_ERROR(status))
		return status;
	sh_page_break(sh, true);
	if (a.count) {
		for (UINTN i = 0; i < a.count && !sh_interrupted(sh); i++)
			if (EFI_ERROR(status = cmd_print_file(sh, "more", a.pos[i], false, false)))
				return status;
		return EFI_SUCCESS;
	}
	return cmd_print_input(sh, "more: name a file, or send text into it: ls | more");
}

SH_COMMAND(more, "more", "Shows text a screenful at a time",
	   "more [file...]\n"
	   "  Shows the files, or the text sent into it (ls -r | more), pausing after each\n"
	   "  screenful: Enter or Space goes on, Q stops. When nobody types on the console\n"
	   "  (the keys come from a file or a pipe) it does not pause: it is then type.\n",
	   cmd_more);
