/* type (cat): prints files as text. */
#include "cmd.h"

EFI_STATUS cmd_print_file(struct shell *sh, const char *cmd, const CHAR16 *name, bool ascii,
			  bool ucs2)
{
	void *data;
	UINTN size;
	CHAR16 *text;
	size_t len;
	EFI_STATUS status = sh_read_file(sh, name, &data, &size);

	if (EFI_ERROR(status)) {
		sh_error(sh, "%s: %ls: %s\n", cmd, name, sh_status_text(status));
		return status;
	}
	if (ascii || ucs2) {
		const UINT8 *p = data;
		len = ascii ? size : size / 2;
		text = app_alloc((len + 1) * sizeof(CHAR16));
		for (size_t i = 0; text && i < len; i++)
			text[i] = ascii ? p[i] : (CHAR16)(p[2 * i] | (p[2 * i + 1] << 8));
		status = text ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
		if (text && ucs2 && len && text[0] == 0xfeff)
			mem_copy(text, text + 1, --len * sizeof(CHAR16));
	} else {
		status = sh_text_decode(data, size, &text, &len);
	}
	app_free(data);
	if (EFI_ERROR(status))
		return status;
	sh_write(sh, text, len);
	app_free(text);
	return EFI_SUCCESS;
}

EFI_STATUS cmd_print_input(struct shell *sh, const char *refusal)
{
	CHAR16 *line;

	if (sh->in->kind == SH_STREAM_CONSOLE) {
		sh_error(sh, "%s\n", refusal);
		return EFI_INVALID_PARAMETER;
	}
	while (!sh_interrupted(sh) && !EFI_ERROR(sh_stream_read_line(sh->in, &line))) {
		sh_print(sh, "%ls\n", line);
		app_free(line);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_type(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-a", SH_OPT_FLAG}, {"-u", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a), worst = EFI_SUCCESS;

	if (EFI_ERROR(status))
		return status;
	if (!a.count)
		return cmd_print_input(sh, "type: name the files to print");
	for (UINTN i = 0; i < a.count; i++) {
		struct sh_match *m;
		UINTN count;
		status = sh_glob(sh, a.pos[i], &m, &count);
		if (EFI_ERROR(status)) {
			sh_error(sh, "type: %ls: %s\n", a.pos[i], sh_status_text(status));
			worst = status;
			continue;
		}
		for (UINTN k = 0; k < count && !sh_interrupted(sh); k++) {
			if (m[k].info->Attribute & EFI_FILE_DIRECTORY)
				continue;
			status = cmd_print_file(sh, "type", m[k].full, sh_args_has(&a, "-a"),
						sh_args_has(&a, "-u"));
			if (EFI_ERROR(status))
				worst = status;
		}
		sh_glob_free(m, count);
	}
	return worst;
}

SH_COMMAND(type, "type", "Prints the contents of files (also: cat)",
	   "type [-a | -u] [file...]\n"
	   "  Prints each file as text: UCS-2 when it starts with a byte-order mark (as files\n"
	   "  written by > are), else UTF-8 or ASCII. Without files, prints its input\n"
	   "  (type < file, command | type).\n"
	   "  -a    takes every byte as one character\n"
	   "  -u    takes the file as UCS-2 even without a byte-order mark\n"
	   "  -b    pauses after each screenful\n",
	   cmd_type);
