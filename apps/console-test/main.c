/* console-test: the command named on the command line (LoadOptions) runs. */
#include "console_test.h"

struct command {
	const char *name;
	void (*run)(void);
};

static const struct command commands[] = {
    {"text", ct_text},
    {"terminal", ct_terminal},
    {"keys", ct_keys},
    {"keys-ex", ct_keys_ex},
    {"no-input", ct_no_input},
    {"gop", ct_gop},
    {"gop-screen", ct_gop_screen},
};

EFI_STATUS ct_out(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con, const CHAR16 *text)
{
	return con->OutputString(con, (CHAR16 *)text);
}

/* The path's text form through EFI_DEVICE_PATH_TO_TEXT_PROTOCOL, when the firmware has it. */
static void print_path_text(const char *label, const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text = NULL;
	CHAR16 *text;

	if (EFI_ERROR(app_bs->LocateProtocol(&to_text_guid, NULL, (void **)&to_text)))
		return;
	text = to_text->ConvertDevicePathToText(path, FALSE, TRUE);
	app_print("%s text: %ls\n", label, text ? text : u"(none)");
	app_free(text);
}

void ct_print_path(const char *label, EFI_HANDLE handle)
{
	EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL, *node;

	app_print("%s:", label);
	if (EFI_ERROR(app_bs->HandleProtocol(handle, &path_guid, (void **)&path)) || !path) {
		app_print(" none\n");
		return;
	}
	node = path;
	for (int i = 0; i < 16; i++, node = dp_next(node)) {
		app_print(" %x/%x/%u", node->Type, node->SubType, dp_node_length(node));
		if (node->Type == HARDWARE_DEVICE_PATH && node->SubType == HW_VENDOR_DP)
			app_print("(%pG)", &((VENDOR_DEVICE_PATH *)node)->Guid);
		if (dp_is_end(node) || dp_node_length(node) < 4)
			break;
	}
	app_print("\n");
	print_path_text(label, path);
}

/* The command line (LoadOptions) as UTF-8; false when there is none. */
static bool read_command_line(char *line, size_t size)
{
	EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image;

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image)) ||
	    !image->LoadOptions)
		return false;
	ucs2_to_utf8(line, size, image->LoadOptions, image->LoadOptionsSize / sizeof(CHAR16));
	return true;
}

bool ct_option(const char *key, char *buf, size_t size)
{
	char line[256];
	size_t key_len = str8_len(key);

	if (!size || !read_command_line(line, sizeof(line)))
		return false;
	for (char *word = line; *word;) {
		char *end = word;
		while (*end && *end != ' ')
			end++;
		if ((size_t)(end - word) > key_len && str8_ncmp(word, key, key_len) == 0 &&
		    word[key_len] == '=') {
			size_t n = MIN((size_t)(end - word) - key_len - 1, size - 1);
			mem_copy(buf, word + key_len + 1, n);
			buf[n] = 0;
			return true;
		}
		word = *end ? end + 1 : end;
	}
	return false;
}

/* The words of the command line after the program's own name. */
static const struct command *find_command(void)
{
	char line[256];

	if (!read_command_line(line, sizeof(line)))
		return NULL;
	for (char *word = line; *word;) {
		char *end = word;
		while (*end && *end != ' ')
			end++;
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if ((size_t)(end - word) == str8_len(commands[i].name) &&
			    str8_ncmp(word, commands[i].name, (size_t)(end - word)) == 0)
				return &commands[i];
		word = *end ? end + 1 : end;
	}
	return NULL;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	const struct command *command;

	app_init(image, st);
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	command = find_command();
	if (!command) {
		app_print("usage: console-test text|terminal|keys|keys-ex|no-input|gop|"
			  "gop-screen [mode=WxH] [rebind=1]\n");
		return EFI_INVALID_PARAMETER;
	}
	command->run();
	check_print_summary("console-test");
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
