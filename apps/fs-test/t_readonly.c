/* fs-test: a read-only volume (EFI_FILE_SYSTEM_INFO.ReadOnly): reads work, every change is
 * refused. Expects ro-data.txt ("read-only volume\n") and RoDir\inner.txt in the root. */
#include "fs_test.h"

static const char ro_data[] = "read-only volume\n";

static void check_open_refusals(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f = NULL;

	CHECK_STATUS(root->Open(root, &f, u"ro-data.txt", RW_MODE, 0), EFI_WRITE_PROTECTED);
	CHECK_STATUS(root->Open(root, &f, u"new.txt", CREATE_MODE, 0), EFI_WRITE_PROTECTED);
	CHECK_STATUS(root->Open(root, &f, u"RoDir\\new dir", CREATE_MODE, EFI_FILE_DIRECTORY),
		     EFI_WRITE_PROTECTED);
	CHECK_STATUS(root->Open(root, &f, u"RoDir", RW_MODE, 0), EFI_WRITE_PROTECTED);
	CHECK(!fst_exists(root, u"new.txt"));
}

static void check_change_refusals(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f = OPEN(root, u"RO-DATA.TXT", READ_ONLY_MODE, 0);
	EFI_FILE_INFO *info = f ? fst_file_info(f) : NULL;
	UINT64 buffer[80];
	EFI_FILE_SYSTEM_INFO *fs = (EFI_FILE_SYSTEM_INFO *)buffer;
	UINTN n = sizeof(buffer);

	if (!info)
		goto out;
	CHECK_STATUS(fst_write(f, "x", 1), EFI_ACCESS_DENIED);
	CHECK_STATUS(f->Flush(f), EFI_ACCESS_DENIED);
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_WRITE_PROTECTED);
	info->Attribute |= EFI_FILE_READ_ONLY;
	CHECK_STATUS(fst_set_info(f, info, info->FileName), EFI_WRITE_PROTECTED);
	CHECK_STATUS(root->GetInfo(root, &fst_fs_info_guid, &n, fs), EFI_SUCCESS);
	CHECK_EQ(fs->ReadOnly, TRUE);
	CHECK_STATUS(root->SetInfo(root, &fst_fs_info_guid, n, fs), EFI_WRITE_PROTECTED);
	CHECK_STATUS(root->SetInfo(root, &fst_label_guid, sizeof(u"NEW"), u"NEW"),
		     EFI_WRITE_PROTECTED);
	CHECK_STATUS(f->Delete(f), EFI_WARN_DELETE_FAILURE);
	f = NULL;
	CHECK(fst_file_holds(root, u"ro-data.txt", ro_data, sizeof(ro_data) - 1));
out:
	fst_free(info);
	if (f)
		f->Close(f);
}

static void check_reads(EFI_FILE_PROTOCOL *root)
{
	UINT64 buffer[64];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buffer;
	EFI_FILE_PROTOCOL *dir;
	UINTN n, seen = 0;

	CHECK(fst_file_holds(root, u"ro-data.txt", ro_data, sizeof(ro_data) - 1));
	CHECK(fst_file_holds(root, u"rodir\\INNER.TXT", "inner\n", 6));
	n = sizeof(buffer);
	CHECK_STATUS(root->GetInfo(root, &fst_file_info_guid, &n, info), EFI_SUCCESS);
	CHECK_EQ(info->Attribute & (EFI_FILE_DIRECTORY | EFI_FILE_READ_ONLY),
		 EFI_FILE_DIRECTORY | EFI_FILE_READ_ONLY);
	dir = OPEN(root, u"\\", READ_ONLY_MODE, 0);
	if (!dir)
		return;
	for (;;) {
		n = sizeof(buffer);
		if (!CHECK_STATUS(dir->Read(dir, &n, info), EFI_SUCCESS) || n == 0)
			break;
		if (str16_cmp(info->FileName, u"ro-data.txt") == 0)
			seen |= 1;
		if (str16_cmp(info->FileName, u"RoDir") == 0)
			seen |= 2;
	}
	CHECK_EQ(seen, 3);
	dir->Close(dir);
}

void test_read_only_volume(EFI_FILE_PROTOCOL *root)
{
	check_reads(root);
	check_open_refusals(root);
	check_change_refusals(root);
}
