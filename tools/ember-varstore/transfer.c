/* ember-varstore's export and import: every variable as one line of text,
 *   GUID ATTRIBUTES NAME HEXDATA
 * with the name escaped (\uXXXX for anything but printable ASCII, '\' and space) so that
 * fields never contain spaces. Lines starting with '#' are comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include <ember/lib/str.h>

#define HEADER "# ember-varstore export 1: GUID ATTRIBUTES NAME DATA\n"

static void export_one(FILE *f, struct tool_store *t, const CHAR16 *name, const EFI_GUID *guid)
{
	static UINT8 data[VARSTORE_MAX_VARIABLE];
	UINTN size = sizeof(data);
	UINT32 attributes;
	char text_guid[37];

	if (var_get(&t->svc, name, guid, &attributes, &size, data) != EFI_SUCCESS)
		return;
	guid_to_str(text_guid, guid);
	fprintf(f, "%s 0x%08x %s ", text_guid, attributes, name_to_text(name, true));
	for (UINTN i = 0; i < size; i++)
		fprintf(f, "%02x", data[i]);
	fputc('\n', f);
}

int cmd_export(struct tool_store *t, int argc, char **argv)
{
	CHAR16 name[VARSTORE_MAX_VARIABLE / 2];
	EFI_GUID guid;
	UINTN size;
	FILE *f;

	if (argc != 1)
		tool_usage_error("export: give one output file ('-' for stdout)");
	f = strcmp(argv[0], "-") ? fopen(argv[0], "w") : stdout;
	if (!f)
		return tool_error("%s: cannot create it", argv[0]);
	fputs(HEADER, f);
	name[0] = 0;
	for (;;) {
		size = sizeof(name);
		if (var_get_next(&t->svc, &size, name, &guid) != EFI_SUCCESS)
			break;
		export_one(f, t, name, &guid);
	}
	if (f != stdout && fclose(f) != 0)
		return tool_error("%s: cannot write it", argv[0]);
	return 0;
}

/* One line: parse and set as the firmware would restore its own store (the rules for the
 * specification's variables were applied when they were first written); an error message
 * for the caller, or NULL. */
static const char *import_line(struct tool_store *t, char *line)
{
	char *save = NULL, *fields[4];
	CHAR16 *name;
	EFI_GUID guid;
	UINT32 attributes;
	UINT8 *data;
	size_t size;
	EFI_STATUS status;

	for (int i = 0; i < 4; i++)
		if (!(fields[i] = strtok_r(i ? NULL : line, " \t\n", &save)))
			return "expected GUID ATTRIBUTES NAME DATA";
	if (!parse_guid(fields[0], &guid) || !parse_attributes(fields[1], &attributes))
		return "bad GUID or attributes";
	name = name_from_escaped(fields[2]);
	if (!name || !parse_hex(fields[3], &data, &size)) {
		free(name);
		return "bad name or data";
	}
	status = var_set_firmware(&t->svc, name, &guid, attributes, size, data);
	free(name);
	free(data);
	return EFI_ERROR(status) ? status_text(status) : NULL;
}

int cmd_import(struct tool_store *t, int argc, char **argv)
{
	static char line[4 * VARSTORE_MAX_VARIABLE];
	unsigned number = 0;
	FILE *f;

	if (argc != 1)
		tool_usage_error("import: give one input file ('-' for stdin)");
	f = strcmp(argv[0], "-") ? fopen(argv[0], "r") : stdin;
	if (!f)
		return tool_error("%s: cannot read it", argv[0]);
	while (fgets(line, sizeof(line), f)) {
		const char *error;
		number++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		error = import_line(t, line);
		if (error)
			return tool_error("%s:%u: %s (nothing imported)", argv[0], number, error);
	}
	if (f != stdin)
		fclose(f);
	t->dirty = true;
	return 0;
}
