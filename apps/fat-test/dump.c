/* fat-test dump: every directory and file below the root with size and CRC-32, read
 * through EFI_FILE_PROTOCOL, for comparison with what the image was made from. */
#include "fat_test.h"
#include <ember/lib/crc32.h>

#define MAX_DEPTH 16
#define PATH_UNITS 1024
#define CHUNK 65536

static UINT32 file_crc(EFI_FILE_PROTOCOL *f, UINT64 *size)
{
	static UINT8 buf[CHUNK];
	UINT32 crc = 0;

	*size = 0;
	for (;;) {
		UINTN n = sizeof(buf);

		if (!CHECK_STATUS(f->Read(f, &n, buf), EFI_SUCCESS) || n == 0)
			return crc;
		crc = crc32_update(crc, buf, n);
		*size += n;
	}
}

/* Prints path (UCS-2) in UTF-8 with '/' separators, after a prefix. */
static void print_path(const char *prefix, const CHAR16 *path, const char *suffix)
{
	static char text[PATH_UNITS * 3];
	size_t n = ucs2_to_utf8(text, sizeof(text), path, str16_len(path));

	for (size_t i = 0; i < n; i++)
		if (text[i] == '\\')
			text[i] = '/';
	app_print("%s%s%s\n", prefix, text, suffix);
}

static void walk(EFI_FILE_PROTOCOL *dir, CHAR16 *path, UINTN len, int depth)
{
	UINT8 buf[SIZE_OF_EFI_FILE_INFO + 2 * 256 + 16];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;

	for (;;) {
		UINTN n = sizeof(buf), name_len;
		EFI_FILE_PROTOCOL *child;

		if (!CHECK_STATUS(dir->Read(dir, &n, info), EFI_SUCCESS) || n == 0)
			return;
		if (!str16_cmp(info->FileName, u".") || !str16_cmp(info->FileName, u".."))
			continue;
		name_len = str16_len(info->FileName);
		if (len + name_len + 2 >= PATH_UNITS)
			continue;
		if (len)
			path[len] = u'\\';
		mem_copy(path + len + (len > 0), info->FileName, (name_len + 1) * sizeof(CHAR16));
		child = ft_open(dir, info->FileName, RO_MODE, 0);
		if (!child)
			continue;
		if (info->Attribute & EFI_FILE_DIRECTORY) {
			print_path("D ", path, "");
			if (depth < MAX_DEPTH)
				walk(child, path, len + (len > 0) + name_len, depth + 1);
		} else {
			UINT64 size;
			UINT32 crc = file_crc(child, &size);
			char tail[48];

			CHECK_EQ(size, info->FileSize);
			format_sn(tail, sizeof(tail), " %llu %08x", size, crc);
			print_path("F ", path, tail);
		}
		child->Close(child);
		path[len] = 0;
	}
}

void ft_dump(EFI_FILE_PROTOCOL *root)
{
	static CHAR16 path[PATH_UNITS];
	UINT8 buf[256];
	EFI_FILE_SYSTEM_INFO *info = (EFI_FILE_SYSTEM_INFO *)buf;
	UINTN n = sizeof(buf);

	path[0] = 0;
	walk(root, path, 0, 0);
	if (CHECK_STATUS(root->GetInfo(root, &ft_fs_info_guid, &n, info), EFI_SUCCESS)) {
		print_path("label ", info->VolumeLabel, "");
		app_print("free %llu\n", info->FreeSpace);
	}
}
