/* ember-varstore's list, get, set and delete: the firmware's GetNextVariableName,
 * GetVariable and SetVariable, on the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include <ember/lib/str.h>

#define DEFAULT_ATTRIBUTES                                                                         \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

int cmd_list(struct tool_store *t)
{
	CHAR16 name[VARSTORE_MAX_VARIABLE / 2];
	EFI_GUID guid;
	UINTN size, data_size;
	UINT32 attributes;
	char text_guid[37], text_attributes[64];

	name[0] = 0;
	for (;;) {
		size = sizeof(name);
		if (var_get_next(&t->svc, &size, name, &guid) != EFI_SUCCESS)
			break;
		data_size = 0;
		var_get(&t->svc, name, &guid, &attributes, &data_size, NULL);
		guid_to_str(text_guid, &guid);
		format_attributes(attributes, text_attributes, sizeof(text_attributes));
		printf("%s %-9s %6u %s\n", text_guid, text_attributes, (unsigned)data_size,
		       name_to_text(name, false));
	}
	return 0;
}

/* NAME [GUID] at the start of a command's arguments; the count used. */
static int name_and_guid(int argc, char **argv, CHAR16 **name, EFI_GUID *guid)
{
	if (argc < 1 || argv[0][0] == '-')
		tool_usage_error("a variable name is needed");
	*name = name_from_utf8(argv[0]);
	if (!*name)
		tool_usage_error("bad variable name '%s'", argv[0]);
	parse_guid("global", guid);
	if (argc > 1 && argv[1][0] != '-') {
		if (!parse_guid(argv[1], guid))
			tool_usage_error("bad GUID '%s' (want 8-4-4-4-12 or 'global')", argv[1]);
		return 2;
	}
	return 1;
}

static void hex_dump(const UINT8 *data, size_t size)
{
	for (size_t i = 0; i < size; i += 16) {
		printf("%08zx ", i);
		for (size_t j = i; j < i + 16; j++)
			printf(j < size ? " %02x" : "   ", j < size ? data[j] : 0);
		printf("  ");
		for (size_t j = i; j < i + 16 && j < size; j++)
			putchar(data[j] >= 0x20 && data[j] < 0x7f ? data[j] : '.');
		putchar('\n');
	}
}

static int write_data(const char *path, const UINT8 *data, size_t size)
{
	FILE *f = path ? fopen(path, "wb") : stdout;

	if (!f || fwrite(data, 1, size, f) != size)
		return tool_error("%s: cannot write it", path ? path : "stdout");
	if (path)
		fclose(f);
	return 0;
}

int cmd_get(struct tool_store *t, int argc, char **argv)
{
	CHAR16 *name;
	EFI_GUID guid;
	UINTN size = 0;
	UINT32 attributes;
	UINT8 *data;
	const char *out = NULL;
	bool raw = false;
	EFI_STATUS status;
	int i = name_and_guid(argc, argv, &name, &guid);

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--raw"))
			raw = true;
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else
			tool_usage_error("get: unexpected '%s'", argv[i]);
	}
	status = var_get(&t->svc, name, &guid, &attributes, &size, NULL);
	if (status != EFI_BUFFER_TOO_SMALL) {
		free(name);
		return tool_error("%s: %s", argv[0], status_text(status));
	}
	data = malloc(size);
	status = var_get(&t->svc, name, &guid, &attributes, &size, data);
	free(name);
	if (EFI_ERROR(status))
		return tool_error("%s: %s", argv[0], status_text(status));
	if (out || raw)
		status = (EFI_STATUS)write_data(out, data, size);
	else
		hex_dump(data, size);
	free(data);
	return (int)status;
}

/* Data for set from --hex, --string (UCS-2), --ascii or --file; false when none. */
static bool set_data(const char *kind, const char *value, UINT8 **data, size_t *size)
{
	if (!strcmp(kind, "--hex")) {
		if (!parse_hex(value, data, size))
			tool_usage_error("bad hex data");
		return true;
	}
	if (!strcmp(kind, "--ascii")) {
		*size = strlen(value) + 1;
		*data = (UINT8 *)strdup(value);
		return true;
	}
	if (!strcmp(kind, "--string")) {
		CHAR16 *text = name_from_utf8(value);
		*size = text ? str16_size(text) : 2;
		*data = text ? (UINT8 *)text : calloc(1, 2);
		return true;
	}
	if (!strcmp(kind, "--file")) {
		FILE *f = fopen(value, "rb");
		*data = malloc(VARSTORE_MAX_VARIABLE + 1);
		if (!f || !*data)
			exit(tool_error("%s: cannot read it", value));
		*size = fread(*data, 1, VARSTORE_MAX_VARIABLE + 1, f);
		fclose(f);
		return true;
	}
	return false;
}

int cmd_set(struct tool_store *t, int argc, char **argv)
{
	CHAR16 *name;
	EFI_GUID guid;
	UINT32 attributes = DEFAULT_ATTRIBUTES;
	UINT8 *data = NULL;
	size_t size = 0;
	bool have = false, force = false;
	EFI_STATUS status;
	int i = name_and_guid(argc, argv, &name, &guid);

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--append"))
			attributes |= EFI_VARIABLE_APPEND_WRITE;
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else if (!strcmp(argv[i], "--attrs") && i + 1 < argc) {
			UINT32 append = attributes & EFI_VARIABLE_APPEND_WRITE;
			if (!parse_attributes(argv[++i], &attributes))
				tool_usage_error("bad attributes '%s'", argv[i]);
			attributes |= append;
		} else if (i + 1 < argc && !have && set_data(argv[i], argv[i + 1], &data, &size))
			have = true, i++;
		else
			tool_usage_error("set: unexpected '%s'", argv[i]);
	}
	if (!have)
		tool_usage_error("set: give the data with --hex, --string, --ascii or --file");
	status = (force ? var_set_firmware : var_set)(&t->svc, name, &guid, attributes, size, data);
	free(name);
	free(data);
	if (EFI_ERROR(status))
		return tool_error("%s: %s", argv[0], status_text(status));
	t->dirty = true;
	return 0;
}

int cmd_delete(struct tool_store *t, int argc, char **argv)
{
	CHAR16 *name;
	EFI_GUID guid;
	bool force = argc > 1 && !strcmp(argv[argc - 1], "--force");
	int used = name_and_guid(argc - force, argv, &name, &guid);
	EFI_STATUS status;

	if (used != argc - force)
		tool_usage_error("delete: unexpected '%s'", argv[used]);
	status = (force ? var_set_firmware : var_set)(&t->svc, name, &guid, 0, 0, NULL);
	free(name);
	if (EFI_ERROR(status))
		return tool_error("%s: %s", argv[0], status_text(status));
	t->dirty = true;
	return 0;
}
