/* fs-test: Delete() (13.5.4): the handle is closed whether or not the file goes. */
#include "fs_test.h"

static void check_delete_file(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f, *other;
	UINT64 pos;
	UINTN n = 4;
	char buffer[4];

	if (!fst_make_file(root, u"FsTest\\Gone.txt", "bye"))
		return;
	/* Not through a read-only open. */
	f = OPEN(root, u"FsTest\\Gone.txt", READ_ONLY_MODE, 0);
	if (f)
		CHECK_STATUS(f->Delete(f), EFI_WARN_DELETE_FAILURE);
	CHECK(fst_exists(root, u"FsTest\\Gone.txt"));
	other = OPEN(root, u"FsTest\\Gone.txt", READ_ONLY_MODE, 0);
	f = OPEN(root, u"FSTEST\\GONE.TXT", RW_MODE, 0);
	if (f)
		CHECK_STATUS(f->Delete(f), EFI_SUCCESS);
	CHECK(!fst_exists(root, u"FsTest\\Gone.txt"));
	if (other) {
		/* 13.5.5, 13.5.6, 13.5.12: a deleted file reports device errors. */
		CHECK_STATUS(other->Read(other, &n, buffer), EFI_DEVICE_ERROR);
		CHECK_STATUS(other->GetPosition(other, &pos), EFI_DEVICE_ERROR);
		CHECK_STATUS(other->SetPosition(other, 0), EFI_DEVICE_ERROR);
		other->Close(other);
	}
}

static void check_delete_directories(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *dir, *again;

	dir = OPEN(root, u"FsTest\\Full Dir", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (!dir)
		return;
	CHECK(fst_make_file(dir, u"keep.txt", "kept"));
	/* rmdir of a directory with an entry fails: a warning, the handle is gone. */
	CHECK_STATUS(dir->Delete(dir), EFI_WARN_DELETE_FAILURE);
	CHECK(fst_exists(root, u"FsTest\\Full Dir\\keep.txt"));
	dir = OPEN(root, u"FsTest\\Empty Dir", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (dir)
		CHECK_STATUS(dir->Delete(dir), EFI_SUCCESS);
	CHECK(!fst_exists(root, u"FsTest\\Empty Dir"));
	/* The root cannot be deleted. */
	again = OPEN(root, u"\\", RW_MODE, 0);
	if (again)
		CHECK_STATUS(again->Delete(again), EFI_WARN_DELETE_FAILURE);
	CHECK(fst_exists(root, u"FsTest"));
}

void test_delete(EFI_FILE_PROTOCOL *root)
{
	check_delete_file(root);
	check_delete_directories(root);
}
