/* more: shows text a screenful at a time. */
#include "../internal.h"

static EFI_STATUS show_file(struct shell *sh, const CHAR16 *name)
{
	void *data;
	UINTN size;
	CHAR16 *text;
	size_t len;
	EFI_STATUS status = sh_read_file(sh, name, &data, &size);

	if (EFI_ERROR(status)) {
		sh_error(sh, "more: %ls: %s\n", name, sh_status_text(status));
		return status;
	}
	status = sh_text_decode(data, size, &text, &len);
	app_free(data);
	if (EFI_ERROR(status))
		return status;
	sh_write(sh, text, len);
	app_free(text);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_more(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	struct sh_args a;
	CHAR16 *line;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, NULL, &a);

	if (EFI_ERROR(status))
		return status;
	sh_page_break(sh, true);
	if (a.count) {
		for (UINTN i = 0; i < a.count && !sh_interrupted(sh); i++)
			if (EFI_ERROR(status = show_file(sh, a.pos[i])))
				return status;
		return EFI_SUCCESS;
	}
	if (sh->in->kind == SH_STREAM_CONSOLE) {
		sh_error(sh, "more: name a file, or send text into it: ls | more\n");
		return EFI_INVALID_PARAMETER;
	}
	while (!sh_interrupted(sh) && !EFI_ERROR(sh_stream_read_line(sh->in, &line))) {
		sh_print(sh, "%ls\n", line);
		app_free(line);
	}
	return EFI_SUCCESS;
}

SH_COMMAND(more, "more", "Shows text a screenful at a time",
	   "more [file...]\n"
	   "  Shows the files, or the text sent into it (ls -r | more), pausing after each\n"
	   "  screenful: Enter or Space goes on, Q stops. When nobody types on the console\n"
	   "  (the keys come from a file or a pipe) it does not pause: it is then type.\n",
	   cmd_more);
