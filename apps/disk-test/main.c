/* disk-test: runs the command named on the command line (see disk_test.h). */
#include "disk_test.h"

EFI_GUID dt_block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
EFI_GUID dt_block_io2_guid = EFI_BLOCK_IO2_PROTOCOL_GUID;
EFI_GUID dt_disk_io_guid = EFI_DISK_IO_PROTOCOL_GUID;
EFI_GUID dt_disk_io2_guid = EFI_DISK_IO2_PROTOCOL_GUID;
EFI_GUID dt_partition_info_guid = EFI_PARTITION_INFO_PROTOCOL_GUID;
EFI_GUID dt_device_path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
EFI_GUID dt_esp_guid = EFI_PART_TYPE_EFI_SYSTEM_PART_GUID;
EFI_GUID dt_sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

#define MAX_WORDS 8

UINTN dt_block_devices(EFI_HANDLE **handles)
{
	UINTN count = 0;

	*handles = NULL;
	if (EFI_ERROR(
		app_bs->LocateHandleBuffer(ByProtocol, &dt_block_io_guid, NULL, &count, handles)))
		return 0;
	return count;
}

CHAR16 *dt_path_text(EFI_HANDLE handle)
{
	EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text;
	EFI_DEVICE_PATH_PROTOCOL *path;

	if (EFI_ERROR(app_bs->LocateProtocol(&to_text_guid, NULL, (void **)&to_text)) ||
	    EFI_ERROR(app_bs->HandleProtocol(handle, &dt_device_path_guid, (void **)&path)))
		return NULL;
	return to_text->ConvertDevicePathToText(path, FALSE, FALSE);
}

/* Splits the command line (after the program's own name) into words. */
static UINTN split_words(char *line, char **words)
{
	UINTN n = 0;
	char *p = line;

	while (*p && n < MAX_WORDS) {
		while (*p == ' ')
			*p++ = 0;
		if (*p)
			words[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	while (*p == ' ')
		*p++ = 0;
	return n;
}

static UINT64 number(const char *s)
{
	UINT64 v = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (UINT64)(*s - '0');
	return v;
}

static UINTN command_words(char *line, UINTN size, char **words)
{
	EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *image;
	UINTN n;

	line[0] = 0;
	if (!EFI_ERROR(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image)) &&
	    image->LoadOptions)
		ucs2_to_utf8(line, size, image->LoadOptions,
			     image->LoadOptionsSize / sizeof(CHAR16));
	n = split_words(line, words);
	/* The first word is the program's own name. */
	for (UINTN i = 1; i < n; i++)
		words[i - 1] = words[i];
	return n ? n - 1 : 0;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	char line[512], *w[MAX_WORDS];
	UINTN n;

	app_init(image, st);
	st->BootServices->SetWatchdogTimer(0, 0, 0, NULL);
	n = command_words(line, sizeof(line), w);
	if (n == 1 && !str8_cmp(w[0], "list")) {
		dt_list();
	} else if (n == 4 && !str8_cmp(w[0], "io")) {
		dt_io(number(w[1]), number(w[2]), number(w[3]));
	} else if (n == 2 && !str8_cmp(w[0], "ro")) {
		dt_read_only(number(w[1]));
	} else if (n == 1 && !str8_cmp(w[0], "checks")) {
		dt_checks();
	} else if (n == 1 && !str8_cmp(w[0], "self")) {
		dt_self();
	} else {
		app_print("usage: disk-test list | io N OFFSET LENGTH | ro N | checks | self\n");
		return EFI_INVALID_PARAMETER;
	}
	check_print_summary("disk-test");
	return check_totals.failed ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}
