/* fs-test: GetInfo() (13.5.13) with EFI_FILE_INFO, EFI_FILE_SYSTEM_INFO and
 * EFI_FILE_SYSTEM_VOLUME_LABEL. */
#include "fs_test.h"

static bool time_plausible(const EFI_TIME *t)
{
	return t->Year >= 2020 && t->Year <= 9999 && t->Month >= 1 && t->Month <= 12 &&
	       t->Day >= 1 && t->Day <= 31 && t->Hour < 24 && t->Minute < 60 && t->Second < 60 &&
	       t->Nanosecond < 1000000000 && t->TimeZone == EFI_UNSPECIFIED_TIMEZONE;
}

static void check_file_info(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f = OPEN(root, u"FsTest\\Digits.txt", READ_ONLY_MODE, 0);
	EFI_GUID unknown = {0x12345678, 0x1234, 0x5678, {1, 2, 3, 4, 5, 6, 7, 8}};
	UINT64 buffer[32];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buffer;
	UINTN n = 0;

	if (!f)
		return;
	CHECK_STATUS(f->GetInfo(f, &fst_file_info_guid, &n, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(n, SIZE_OF_EFI_FILE_INFO + sizeof(u"Digits.txt"));
	n = SIZE_OF_EFI_FILE_INFO;
	CHECK_STATUS(f->GetInfo(f, &fst_file_info_guid, &n, info), EFI_BUFFER_TOO_SMALL);
	n = sizeof(buffer);
	CHECK_STATUS(f->GetInfo(f, &fst_file_info_guid, &n, info), EFI_SUCCESS);
	CHECK_EQ(n, SIZE_OF_EFI_FILE_INFO + sizeof(u"Digits.txt"));
	CHECK_EQ(info->Size, n);
	CHECK_EQ(info->FileSize, 10);
	CHECK_EQ(info->Attribute & (EFI_FILE_DIRECTORY | EFI_FILE_READ_ONLY), 0);
	CHECK(str16_cmp(info->FileName, u"Digits.txt") == 0);
	CHECK(time_plausible(&info->ModificationTime));
	CHECK(time_plausible(&info->LastAccessTime));
	CHECK(time_plausible(&info->CreateTime));
	n = sizeof(buffer);
	CHECK_STATUS(f->GetInfo(f, &unknown, &n, info), EFI_UNSUPPORTED);
	CHECK_STATUS(f->GetInfo(f, NULL, &n, info), EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->GetInfo(f, &fst_file_info_guid, NULL, info), EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->SetInfo(f, &unknown, n, info), EFI_UNSUPPORTED);
	f->Close(f);
}

static void check_volume_info(EFI_FILE_PROTOCOL *root)
{
	UINT64 buffer[80];
	EFI_FILE_SYSTEM_INFO *info = (EFI_FILE_SYSTEM_INFO *)buffer;
	CHAR16 label[64];
	UINTN n = 0, label_size = 0;
	EFI_FILE_PROTOCOL *sub;

	CHECK_STATUS(root->GetInfo(root, &fst_label_guid, &label_size, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK(label_size >= sizeof(CHAR16) && label_size <= sizeof(label));
	CHECK_STATUS(root->GetInfo(root, &fst_label_guid, &label_size, label), EFI_SUCCESS);
	CHECK_STATUS(root->GetInfo(root, &fst_fs_info_guid, &n, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(n, SIZE_OF_EFI_FILE_SYSTEM_INFO + label_size);
	n = sizeof(buffer);
	/* Volume information is the same through any handle on the volume. */
	sub = OPEN(root, u"FsTest", READ_ONLY_MODE, 0);
	if (!sub)
		return;
	CHECK_STATUS(sub->GetInfo(sub, &fst_fs_info_guid, &n, info), EFI_SUCCESS);
	sub->Close(sub);
	CHECK_EQ(info->Size, SIZE_OF_EFI_FILE_SYSTEM_INFO + label_size);
	CHECK_EQ(info->ReadOnly, FALSE);
	CHECK(info->VolumeSize > 0 && info->FreeSpace <= info->VolumeSize);
	CHECK(info->BlockSize >= 512);
	CHECK(str16_cmp(info->VolumeLabel, label) == 0);
}

void test_get_info(EFI_FILE_PROTOCOL *root)
{
	check_file_info(root);
	check_volume_info(root);
}
