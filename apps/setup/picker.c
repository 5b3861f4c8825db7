/* The file picker: a list of the file systems, then of a directory's entries; Enter opens a
 * directory or chooses a file, Esc goes up (and leaves from a volume's root). Drawn by the
 * app itself, during a callback, over the browser's screen (the browser redraws after). */
#include "ui.h"
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/guids.h>

#define MAX_ENTRIES 128
#define NAME_UNITS 72

static CHAR16 names[MAX_ENTRIES][NAME_UNITS];
static const CHAR16 *items[MAX_ENTRIES];
static bool is_dir[MAX_ENTRIES];

static void set_name(UINTN i, const CHAR16 *text, bool dir)
{
	size_t n = 0;

	for (; text[n] && n + 2 < NAME_UNITS; n++)
		names[i][n] = text[n];
	if (dir)
		names[i][n++] = '\\';
	names[i][n] = 0;
	items[i] = names[i];
	is_dir[i] = dir;
}

/* A volume's name: its device path as text, or "Volume N". */
static void volume_name(EFI_HANDLE handle, UINTN i)
{
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *to_text;
	EFI_DEVICE_PATH_PROTOCOL *path;
	CHAR16 *text = NULL, fallback[16];
	char ascii[16];

	if (!EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_device_path_to_text_protocol_guid,
					      NULL, (void **)&to_text)) &&
	    !EFI_ERROR(app_bs->HandleProtocol(handle, (EFI_GUID *)&efi_device_path_protocol_guid,
					      (void **)&path)))
		text = to_text->ConvertDevicePathToText(path, FALSE, FALSE);
	if (!text) {
		size_t n = format_sn(ascii, sizeof(ascii), "Volume %u", (unsigned)i);

		for (size_t k = 0; k <= n && k < 16; k++)
			fallback[k] = (UINT8)ascii[k];
	}
	set_name(i, text ? text : fallback, false);
	app_free(text);
}

static EFI_STATUS pick_volume(const char *title, EFI_HANDLE *volume)
{
	EFI_HANDLE *handles;
	UINTN count;
	int choice;

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol,
						 (EFI_GUID *)&efi_simple_file_system_protocol_guid,
						 NULL, &count, &handles)))
		return EFI_NOT_FOUND;
	if (count > MAX_ENTRIES)
		count = MAX_ENTRIES;
	for (UINTN i = 0; i < count; i++)
		volume_name(handles[i], i);
	choice = ui_choose(title, items, count);
	if (choice >= 0)
		*volume = handles[choice];
	app_free(handles);
	return choice < 0 ? EFI_ABORTED : EFI_SUCCESS;
}

/* One entry of a directory, or false at its end. */
static bool read_entry(EFI_FILE_PROTOCOL *dir, EFI_FILE_INFO *info, UINTN room)
{
	UINTN size = room;

	return !EFI_ERROR(dir->Read(dir, &size, info)) && size;
}

/* The entries of a directory: ".." first below the root, then all but "." and "..". */
static UINTN read_dir(EFI_FILE_PROTOCOL *dir, bool root)
{
	static UINT64 buf[(SIZE_OF_EFI_FILE_INFO + 2 * 256) / 8];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	UINTN n = 0;

	if (!root)
		set_name(n++, u"..", true);
	while (n < MAX_ENTRIES && read_entry(dir, info, sizeof(buf))) {
		if (!str16_cmp(info->FileName, u".") || !str16_cmp(info->FileName, u".."))
			continue;
		set_name(n, info->FileName, info->Attribute & EFI_FILE_DIRECTORY);
		n++;
	}
	return n;
}

/* Goes into a directory (a name, '\' ending it dropped) or out of it (".."). */
static void step(CHAR16 *path, size_t units, const CHAR16 *name)
{
	size_t n = str16_len(path), k = 0;

	if (!str16_cmp(name, u"..\\")) {
		while (n > 1 && path[n - 1] != '\\')
			n--;
		path[n > 1 ? n - 1 : 1] = 0;
		return;
	}
	if (n > 1 && n + 1 < units)
		path[n++] = '\\';
	for (; name[k] && name[k] != '\\' && n + 1 < units; k++)
		path[n++] = name[k];
	path[n] = 0;
}

/* Lists path's entries for a choice: its index, -1 for Esc, -2 when it cannot be read. */
static int choose_in(const char *title, EFI_FILE_PROTOCOL *root, const CHAR16 *path)
{
	EFI_FILE_PROTOCOL *dir = root;
	bool at_root = path[1] == 0;
	UINTN n;

	if (!at_root && EFI_ERROR(root->Open(root, &dir, (CHAR16 *)path, EFI_FILE_MODE_READ, 0)))
		return -2;
	dir->SetPosition(dir, 0);
	n = read_dir(dir, at_root);
	if (!at_root)
		dir->Close(dir);
	return ui_choose(title, items, n);
}

static EFI_STATUS browse(const char *title, EFI_FILE_PROTOCOL *root, CHAR16 *path, size_t units)
{
	path[0] = '\\', path[1] = 0;
	for (;;) {
		int choice = choose_in(title, root, path);

		if (choice < 0 && path[1] == 0)
			return EFI_ABORTED;
		if (choice < 0) {
			step(path, units, u"..\\");
			continue;
		}
		step(path, units, names[choice]);
		if (!is_dir[choice])
			return EFI_SUCCESS;
	}
}

/* Lets the user choose a file. */
EFI_STATUS setup_pick_file(const char *title, EFI_HANDLE *volume, CHAR16 *path, size_t units)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_PROTOCOL *root;
	EFI_STATUS status;

	if (units < 4)
		return EFI_BUFFER_TOO_SMALL;
	status = pick_volume(title, volume);
	if (EFI_ERROR(status))
		return status;
	if (EFI_ERROR(app_bs->HandleProtocol(
		*volume, (EFI_GUID *)&efi_simple_file_system_protocol_guid, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &root)))
		return EFI_NOT_FOUND;
	status = browse(title, root, path, units);
	root->Close(root);
	return status;
}
