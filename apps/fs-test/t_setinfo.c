/* fs-test: SetInfo() (13.5.14): renames and moves, sizes, EFI_FILE_READ_ONLY, times, the
 * volume label, and the refusals. */
#include "fs_test.h"

/* Renames through one handle: same directory, a relative path, an absolute path. Leaves
 * \FsTest\Moved\Final.txt and \FsTest\LOWER.TXT. */
static void check_rename(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f,
	    *moved = OPEN(root, u"FsTest\\Moved", CREATE_MODE, EFI_FILE_DIRECTORY);
	EFI_FILE_INFO *info;

	if (moved)
		moved->Close(moved);
	if (!fst_make_file(root, u"FsTest\\Original.txt", "move me"))
		return;
	f = OPEN(root, u"FsTest\\Original.txt", RW_MODE, 0);
	info = f ? fst_file_info(f) : NULL;
	if (!info)
		goto out;
	CHECK_STATUS(fst_set_info(f, info, u"Renamed Once.txt"), EFI_SUCCESS);
	CHECK(!fst_exists(root, u"FsTest\\Original.txt"));
	CHECK(fst_exists(root, u"FsTest\\Renamed Once.txt"));
	CHECK_STATUS(fst_set_info(f, info, u"Moved\\Renamed.txt"), EFI_SUCCESS);
	CHECK_STATUS(fst_set_info(f, info, u"\\FsTest\\Moved\\Final.txt"), EFI_SUCCESS);
	fst_free(info);
	/* The handle follows its file. */
	info = fst_file_info(f);
	CHECK(info && str16_cmp(info->FileName, u"Final.txt") == 0);
	CHECK(fst_file_holds(root, u"FsTest\\Moved\\Final.txt", "move me", 7));
	/* Onto an existing name, to a missing directory, to a bad name. */
	CHECK(fst_make_file(root, u"FsTest\\Moved\\Taken.txt", "taken"));
	if (info) {
		CHECK_STATUS(fst_set_info(f, info, u"taken.TXT"), EFI_ACCESS_DENIED);
		CHECK_STATUS(fst_set_info(f, info, u"\\FsTest\\Nowhere\\x.txt"), EFI_NOT_FOUND);
		CHECK_STATUS(fst_set_info(f, info, u"a:b"), EFI_INVALID_PARAMETER);
		CHECK_STATUS(fst_set_info(f, info, u"..\\..\\..\\x"), EFI_NOT_FOUND);
	}
	CHECK(fst_file_holds(root, u"FsTest\\Moved\\Taken.txt", "taken", 5));
	/* A change of case only. */
	fst_free(info);
	f->Close(f);
	CHECK(fst_make_file(root, u"FsTest\\lower.txt", "case"));
	f = OPEN(root, u"FsTest\\lower.txt", RW_MODE, 0);
	info = f ? fst_file_info(f) : NULL;
	if (info)
		CHECK_STATUS(fst_set_info(f, info, u"LOWER.TXT"), EFI_SUCCESS);
out:
	fst_free(info);
	if (f)
		f->Close(f);
}

/* Leaves \FsTest\Nested Dir\Zeroes.bin = "0123" + 4 NUL. */
static void check_resize(EFI_FILE_PROTOCOL *root)
{
	static const char want[] = "0123\0\0\0\0";
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info;

	if (!fst_make_file(root, u"FsTest\\Nested Dir\\Zeroes.bin", "0123456789"))
		return;
	f = OPEN(root, u"FsTest\\Nested Dir\\Zeroes.bin", RW_MODE, 0);
	info = f ? fst_file_info(f) : NULL;
	if (info) {
		info->FileSize = 4;
		CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_SUCCESS);
		info->FileSize = 8;
		CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_SUCCESS);
	}
	fst_free(info);
	if (f)
		f->Close(f);
	CHECK(fst_file_holds(root, u"FsTest\\Nested Dir\\Zeroes.bin", want, sizeof(want) - 1));
}

/* Leaves \FsTest\ReadOnly.txt = "locked", read-only. */
static void check_read_only_attribute(EFI_FILE_PROTOCOL *root)
{
	const CHAR16 *path = u"FsTest\\ReadOnly.txt";
	EFI_FILE_PROTOCOL *f = OPEN(root, path, CREATE_MODE, EFI_FILE_READ_ONLY), *g = NULL;
	EFI_FILE_INFO *info;

	if (!f)
		return;
	/* The creating handle may still write. */
	CHECK_STATUS(fst_write(f, "locked", 6), EFI_SUCCESS);
	f->Close(f);
	CHECK_STATUS(root->Open(root, &g, (CHAR16 *)path, RW_MODE, 0), EFI_ACCESS_DENIED);
	f = OPEN(root, path, READ_ONLY_MODE, 0);
	info = f ? fst_file_info(f) : NULL;
	if (!info)
		goto out;
	CHECK(info->Attribute & EFI_FILE_READ_ONLY);
	/* A read-only open may change the Attribute field and nothing else. */
	info->FileSize = 2;
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_ACCESS_DENIED);
	info->FileSize = 6;
	CHECK_STATUS(fst_set_info(f, info, u"Other.txt"), EFI_ACCESS_DENIED);
	info->Attribute &= ~EFI_FILE_READ_ONLY;
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_SUCCESS);
	f->Close(f);
	f = OPEN(root, path, RW_MODE, 0);
	if (f) {
		info->Attribute |= EFI_FILE_READ_ONLY;
		CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_SUCCESS);
	}
out:
	fst_free(info);
	if (f)
		f->Close(f);
	CHECK(fst_file_holds(root, path, "locked", 6));
}

/* Leaves \FsTest\Timed.txt modified at 2001-02-03 04:05:06 local time. */
static void check_times(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f;
	EFI_FILE_INFO *info, *after = NULL;

	if (!fst_make_file(root, u"FsTest\\Timed.txt", "time"))
		return;
	f = OPEN(root, u"FsTest\\Timed.txt", RW_MODE, 0);
	info = f ? fst_file_info(f) : NULL;
	if (!info)
		goto out;
	mem_set(&info->ModificationTime, 0, sizeof(EFI_TIME));
	info->ModificationTime.Year = 2001;
	info->ModificationTime.Month = 2;
	info->ModificationTime.Day = 3;
	info->ModificationTime.Hour = 4;
	info->ModificationTime.Minute = 5;
	info->ModificationTime.Second = 6;
	info->ModificationTime.TimeZone = EFI_UNSPECIFIED_TIMEZONE;
	/* Zero times are left alone. */
	mem_set(&info->LastAccessTime, 0, sizeof(EFI_TIME));
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_SUCCESS);
	after = fst_file_info(f);
	CHECK(after && after->ModificationTime.Year == 2001 && after->ModificationTime.Month == 2 &&
	      after->ModificationTime.Day == 3 && after->ModificationTime.Hour == 4 &&
	      after->ModificationTime.Minute == 5 && after->ModificationTime.Second == 6);
	info->ModificationTime.Month = 13;
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_INVALID_PARAMETER);
out:
	fst_free(info);
	fst_free(after);
	if (f)
		f->Close(f);
}

static void check_refusals(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f = OPEN(root, u"FsTest\\Digits.txt", RW_MODE, 0);
	EFI_FILE_PROTOCOL *dir = OPEN(root, u"FsTest\\List", RW_MODE, 0);
	EFI_FILE_INFO *info = f ? fst_file_info(f) : NULL,
		      *dir_info = dir ? fst_file_info(dir) : NULL;
	UINT64 base = 0;

	if (!info || !dir_info)
		goto out;
	base = info->Attribute;
	info->Attribute = base | EFI_FILE_DIRECTORY;
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_ACCESS_DENIED);
	info->Attribute = base | 0x80;
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_INVALID_PARAMETER);
	info->Attribute = base;
	dir_info->Attribute &= ~EFI_FILE_DIRECTORY;
	CHECK_STATUS(fst_set_info(dir, dir_info, dir_info->FileName), EFI_ACCESS_DENIED);
	/* Sizes: below the structure, a Size beyond the buffer, a name without an end. */
	CHECK_STATUS(f->SetInfo(f, &fst_file_info_guid, SIZE_OF_EFI_FILE_INFO, info),
		     EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(f->SetInfo(f, &fst_file_info_guid, (UINTN)info->Size - 2, info),
		     EFI_BAD_BUFFER_SIZE);
	info->Size = SIZE_OF_EFI_FILE_INFO + 4;
	info->FileName[0] = u'D';
	info->FileName[1] = u'x';
	CHECK_STATUS(f->SetInfo(f, &fst_file_info_guid, SIZE_OF_EFI_FILE_INFO + 4, info),
		     EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(f->SetInfo(f, &fst_file_info_guid, 200, NULL), EFI_INVALID_PARAMETER);
	CHECK(fst_file_holds(root, u"FsTest\\Digits.txt", "0123456789", 10));
out:
	fst_free(info);
	fst_free(dir_info);
	if (f)
		f->Close(f);
	if (dir)
		dir->Close(dir);
}

static void check_root_and_label(EFI_FILE_PROTOCOL *root)
{
	UINT64 buffer[80];
	EFI_FILE_SYSTEM_INFO *fs = (EFI_FILE_SYSTEM_INFO *)buffer;
	EFI_FILE_INFO *info = fst_file_info(root);
	CHAR16 label[64], check[64];
	UINTN n = sizeof(label);

	if (info)
		CHECK_STATUS(fst_set_info(root, info, u"NewRootName"), EFI_ACCESS_DENIED);
	fst_free(info);
	CHECK_STATUS(root->GetInfo(root, &fst_label_guid, &n, label), EFI_SUCCESS);
	CHECK_STATUS(root->SetInfo(root, &fst_label_guid, sizeof(u"EMBER TEST"), u"EMBER TEST"),
		     EFI_SUCCESS);
	n = sizeof(buffer);
	CHECK_STATUS(root->GetInfo(root, &fst_fs_info_guid, &n, fs), EFI_SUCCESS);
	CHECK(str16_cmp(fs->VolumeLabel, u"EMBER TEST") == 0);
	str16_copy(fs->VolumeLabel, u"Second");
	CHECK_STATUS(root->SetInfo(root, &fst_fs_info_guid,
				   SIZE_OF_EFI_FILE_SYSTEM_INFO + sizeof(u"Second"), fs),
		     EFI_SUCCESS);
	n = sizeof(check);
	CHECK_STATUS(root->GetInfo(root, &fst_label_guid, &n, check), EFI_SUCCESS);
	CHECK(str16_cmp(check, u"Second") == 0);
	CHECK_STATUS(root->SetInfo(root, &fst_fs_info_guid, SIZE_OF_EFI_FILE_SYSTEM_INFO, fs),
		     EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(root->SetInfo(root, &fst_label_guid, 4, u"abc"), EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(root->SetInfo(root, &fst_label_guid, 0, u""), EFI_BAD_BUFFER_SIZE);
	CHECK_STATUS(root->SetInfo(root, &fst_label_guid, str16_size(label), label), EFI_SUCCESS);
}

void test_set_info(EFI_FILE_PROTOCOL *root)
{
	check_rename(root);
	check_resize(root);
	check_read_only_attribute(root);
	check_times(root);
	check_refusals(root);
	check_root_and_label(root);
}
