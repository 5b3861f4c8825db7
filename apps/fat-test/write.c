/* fat-test write: builds \FatTest, checking every step. tests/integration/test_fat.py
 * holds the same tree (EXPECTED) and compares what mtools extracts with it. */
#include "fat_test.h"

#define MANY 300
#define BIG_SIZE (3u << 20)

static const CHAR16 very_long[] =
    u"This name is long enough to need many long-name directory entries on FAT, it has "
    u"well over two hundred characters, keeps its Mixed Case exactly as given, and still "
    u"stays below the limit of two hundred and fifty-five units.txt";

static void nested(EFI_FILE_PROTOCOL *top)
{
	EFI_FILE_PROTOCOL *d = NULL;
	const CHAR16 *name = u"Nested Dir\\Deeper Still\\A Long File Name With Mixed Case.Text";
	static const char text[] = "Hello, FAT volume!\nAppended line.\n";

	/* The parent of a nested directory must exist first. */
	CHECK_STATUS(
	    top->Open(top, &d, u"Nested Dir\\Deeper Still", CREATE_MODE, EFI_FILE_DIRECTORY),
	    EFI_NOT_FOUND);
	d = ft_open(top, u"Nested Dir", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (d)
		d->Close(d);
	d = ft_open(top, u"Nested Dir\\Deeper Still", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (d)
		d->Close(d);
	ft_append(top, name, text, 19);
	ft_append(top, name, text + 19, sizeof(text) - 1 - 19);
	ft_holds(top, u"NESTED DIR\\deeper still\\a long file name with mixed case.text", text,
		 sizeof(text) - 1);
	d = ft_open(top, u"Nested Dir", RW_MODE, 0);
	if (d) {
		ft_append(d, very_long, "long", 4);
		ft_holds(top,
			 u"Nested Dir\\..\\Nested Dir\\.\\This name is long enough to need many "
			 u"long-name directory entries on FAT, it has well over two hundred "
			 u"characters, keeps its Mixed Case exactly as given, and still stays "
			 u"below the limit of two hundred and fifty-five units.txt",
			 "long", 4);
		d->Close(d);
	}
}

static void names(EFI_FILE_PROTOCOL *top)
{
	EFI_FILE_PROTOCOL *f;

	ft_append(top, u"\u00dcn\u00efc\u00f6d\u00e9 \u00d1ame.txt", "unicode", 7);
	ft_append(top, u"lower.txt", "lower", 5);
	ft_append(top, u"UPPER.TXT", "upper", 5);
	ft_append(top, u"Mixed.Txt", "mixed", 5);
	ft_holds(top, u"\u00fcN\u00cfC\u00d6D\u00c9 \u00f1AME.TXT", "unicode", 7);
	ft_holds(top, u"LOWER.TXT", "lower", 5);
	ft_holds(top, u"mixed.txt", "mixed", 5);
	/* A gap written over reads as zeros. */
	f = ft_open(top, u"Zeroes.bin", CREATE_MODE, 0);
	if (f) {
		ft_write(f, "0123", 4);
		CHECK_STATUS(f->SetPosition(f, 8), EFI_SUCCESS);
		ft_write(f, "4567", 4);
		f->Close(f);
	}
	ft_holds(top, u"Zeroes.bin",
		 "0123\0\0\0\0"
		 "4567",
		 12);
}

static void many(EFI_FILE_PROTOCOL *top)
{
	EFI_FILE_PROTOCOL *d = ft_open(top, u"Many", CREATE_MODE, EFI_FILE_DIRECTORY), *f;
	CHAR16 name[64];
	char text[8];

	if (!d)
		return;
	for (UINT32 i = 0; i < MANY; i++) {
		char ascii[64];
		UINTN n = format_sn(ascii, sizeof(ascii), "file %03u with a long name.txt", i);

		utf8_to_ucs2(name, ARRAY_SIZE(name), ascii, n);
		format_sn(text, sizeof(text), "%03u", i);
		if (!ft_append(d, name, text, 3))
			break;
	}
	for (UINT32 i = 0; i < MANY; i += 3) {
		char ascii[64];
		UINTN n = format_sn(ascii, sizeof(ascii), "FILE %03u WITH A LONG NAME.TXT", i);

		utf8_to_ucs2(name, ARRAY_SIZE(name), ascii, n);
		f = ft_open(d, name, RW_MODE, 0);
		if (f)
			CHECK_STATUS(f->Delete(f), EFI_SUCCESS);
	}
	d->Close(d);
}

static void deletes_and_renames(EFI_FILE_PROTOCOL *top)
{
	EFI_FILE_PROTOCOL *f, *d;
	EFI_FILE_INFO *info;

	ft_append(top, u"Delete Me.txt", "gone", 4);
	f = ft_open(top, u"delete me.txt", RW_MODE, 0);
	if (f)
		CHECK_STATUS(f->Delete(f), EFI_SUCCESS);
	CHECK_STATUS(top->Open(top, &f, u"Delete Me.txt", RO_MODE, 0), EFI_NOT_FOUND);
	d = ft_open(top, u"Empty Dir", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (d)
		CHECK_STATUS(d->Delete(d), EFI_SUCCESS);
	/* Rename in place, move a file, move a directory with its contents. */
	ft_append(top, u"Rename Source.txt", "renamed", 7);
	ft_append(top, u"Move Me.txt", "move me", 7);
	d = ft_open(top, u"Moved", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (d)
		d->Close(d);
	f = ft_open(top, u"Rename Source.txt", RW_MODE, 0);
	if (f && (info = ft_info(f))) {
		CHECK_STATUS(ft_set_info(f, info, u"Renamed Target.txt"), EFI_SUCCESS);
		app_free(info);
	}
	if (f)
		f->Close(f);
	f = ft_open(top, u"Move Me.txt", RW_MODE, 0);
	if (f && (info = ft_info(f))) {
		CHECK_STATUS(ft_set_info(f, info, u"\\FatTest\\Moved\\Final.txt"), EFI_SUCCESS);
		app_free(info);
	}
	if (f)
		f->Close(f);
	ft_holds(top, u"Moved\\Final.txt", "move me", 7);
	ft_holds(top, u"Renamed Target.txt", "renamed", 7);
}

static void move_directory(EFI_FILE_PROTOCOL *top)
{
	EFI_FILE_PROTOCOL *d = ft_open(top, u"Dir To Move", CREATE_MODE, EFI_FILE_DIRECTORY);
	EFI_FILE_INFO *info;

	if (!d)
		return;
	ft_append(d, u"inside.txt", "inside", 6);
	info = ft_info(d);
	if (info) {
		CHECK_STATUS(ft_set_info(d, info, u"Moved\\Dir Moved"), EFI_SUCCESS);
		app_free(info);
	}
	/* Still the same directory: its ".." leads to the new parent. */
	ft_holds(d, u"..\\Final.txt", "move me", 7);
	d->Close(d);
	ft_holds(top, u"Moved\\Dir Moved\\inside.txt", "inside", 6);
}

static void resize(EFI_FILE_PROTOCOL *top, const CHAR16 *name, UINT64 size)
{
	EFI_FILE_PROTOCOL *f = ft_open(top, name, RW_MODE, 0);
	EFI_FILE_INFO *info = f ? ft_info(f) : NULL;

	if (info) {
		info->FileSize = size;
		CHECK_STATUS(ft_set_info(f, info, name), EFI_SUCCESS);
		app_free(info);
	}
	if (f)
		f->Close(f);
}

static void sizes_and_attributes(EFI_FILE_PROTOCOL *top)
{
	static UINT8 data[5000];
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info;

	ft_pattern(data, sizeof(data), 1);
	ft_append(top, u"Truncated.bin", data, sizeof(data));
	ft_append(top, u"Extended.bin", "abc", 3);
	resize(top, u"Truncated.bin", 1000);
	resize(top, u"Extended.bin", 5000);
	ft_holds(top, u"Truncated.bin", data, 1000);
	f = ft_open(top, u"ReadOnly.txt", CREATE_MODE, EFI_FILE_READ_ONLY);
	if (f) {
		ft_write(f, "locked", 6);
		f->Close(f);
	}
	CHECK_STATUS(top->Open(top, &f, u"ReadOnly.txt", RW_MODE, 0), EFI_ACCESS_DENIED);
	f = ft_open(top, u"Hidden.txt", CREATE_MODE, EFI_FILE_HIDDEN);
	if (f) {
		ft_write(f, "hidden", 6);
		info = ft_info(f);
		if (info)
			CHECK_EQ(info->Attribute, EFI_FILE_HIDDEN | EFI_FILE_ARCHIVE);
		app_free(info);
		f->Close(f);
	}
}

static void big_file(EFI_FILE_PROTOCOL *top)
{
	UINT8 *data = app_alloc(BIG_SIZE);
	EFI_FILE_PROTOCOL *f;
	UINTN done = 0;

	if (!data)
		return;
	ft_pattern(data, BIG_SIZE, 7);
	f = ft_open(top, u"Big.bin", CREATE_MODE, 0);
	while (f && done < BIG_SIZE) {
		UINTN n = MIN((UINTN)(BIG_SIZE - done), 4096 * 3 + 17 * (done % 13));
		if (!ft_write(f, data + done, n))
			break;
		done += n;
	}
	if (f)
		f->Close(f);
	ft_holds(top, u"Big.bin", data, BIG_SIZE);
	app_free(data);
}

static void label_and_space(EFI_FILE_PROTOCOL *root, UINT64 free_before)
{
	UINT8 buf[256];
	EFI_FILE_SYSTEM_INFO *info = (EFI_FILE_SYSTEM_INFO *)buf;
	UINTN n = sizeof(buf);

	CHECK_STATUS(root->SetInfo(root, &ft_label_guid, sizeof(u"EMBERFAT"), u"EMBERFAT"),
		     EFI_SUCCESS);
	if (CHECK_STATUS(root->GetInfo(root, &ft_fs_info_guid, &n, info), EFI_SUCCESS)) {
		CHECK(str16_cmp(info->VolumeLabel, u"EMBERFAT") == 0);
		CHECK(info->FreeSpace + BIG_SIZE <= free_before);
		CHECK(!info->ReadOnly);
	}
}

void ft_write_scenario(EFI_FILE_PROTOCOL *root)
{
	UINT8 buf[256];
	UINTN n = sizeof(buf);
	UINT64 free_before = 0;
	EFI_FILE_PROTOCOL *top;

	if (CHECK_STATUS(root->GetInfo(root, &ft_fs_info_guid, &n, buf), EFI_SUCCESS))
		free_before = ((EFI_FILE_SYSTEM_INFO *)buf)->FreeSpace;
	top = ft_open(root, u"FatTest", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (!top)
		return;
	nested(top);
	names(top);
	many(top);
	deletes_and_renames(top);
	move_directory(top);
	sizes_and_attributes(top);
	big_file(top);
	top->Close(top);
	label_and_space(root, free_before);
}
