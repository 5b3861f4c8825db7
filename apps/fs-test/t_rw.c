/* fs-test: Read, Write, GetPosition, SetPosition and Flush on files (13.5.5, 13.5.6,
 * 13.5.11, 13.5.12, 13.5.15). */
#include "fs_test.h"

#define END_OF_FILE 0xFFFFFFFFFFFFFFFFULL

static void check_reads(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f;
	char buffer[32];
	UINTN n;
	UINT64 pos = 0;

	if (!fst_make_file(root, u"FsTest\\Digits.txt", "0123456789"))
		return;
	f = OPEN(root, u"FsTest\\Digits.txt", READ_ONLY_MODE, 0);
	if (!f)
		return;
	n = 4;
	CHECK_STATUS(f->Read(f, &n, buffer), EFI_SUCCESS);
	CHECK(n == 4 && mem_cmp(buffer, "0123", 4) == 0);
	/* A read past the end is cut short, then returns nothing. */
	n = sizeof(buffer);
	CHECK_STATUS(f->Read(f, &n, buffer), EFI_SUCCESS);
	CHECK(n == 6 && mem_cmp(buffer, "456789", 6) == 0);
	n = sizeof(buffer);
	CHECK_STATUS(f->Read(f, &n, buffer), EFI_SUCCESS);
	CHECK_EQ(n, 0);
	/* Beyond the end is allowed to seek to, not to read from. */
	CHECK_STATUS(f->SetPosition(f, 11), EFI_SUCCESS);
	n = sizeof(buffer);
	CHECK_STATUS(f->Read(f, &n, buffer), EFI_DEVICE_ERROR);
	CHECK_STATUS(f->GetPosition(f, &pos), EFI_SUCCESS);
	CHECK_EQ(pos, 11);
	CHECK_STATUS(f->SetPosition(f, END_OF_FILE), EFI_SUCCESS);
	CHECK_STATUS(f->GetPosition(f, &pos), EFI_SUCCESS);
	CHECK_EQ(pos, 10);
	CHECK_STATUS(f->SetPosition(f, 7), EFI_SUCCESS);
	n = 2;
	CHECK_STATUS(f->Read(f, &n, buffer), EFI_SUCCESS);
	CHECK(n == 2 && mem_cmp(buffer, "78", 2) == 0);
	CHECK_STATUS(f->Read(f, NULL, buffer), EFI_INVALID_PARAMETER);
	n = 1;
	CHECK_STATUS(f->Read(f, &n, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->GetPosition(f, NULL), EFI_INVALID_PARAMETER);
	/* Opened for reading only. */
	CHECK_STATUS(fst_write(f, "x", 1), EFI_ACCESS_DENIED);
	CHECK_STATUS(f->Flush(f), EFI_ACCESS_DENIED);
	f->Close(f);
}

/* Leaves \FsTest\Seek.dat = "AxAA" 4*NUL "BBCC". */
static void check_writes(EFI_FILE_PROTOCOL *root)
{
	static const char want[] = "AxAA\0\0\0\0BBCC";
	EFI_FILE_PROTOCOL *f = OPEN(root, u"FsTest\\Seek.dat", CREATE_MODE, 0);
	UINT64 pos = 0;
	UINTN n;

	if (!f)
		return;
	CHECK_STATUS(fst_write(f, "AAAA", 4), EFI_SUCCESS);
	CHECK_STATUS(f->GetPosition(f, &pos), EFI_SUCCESS);
	CHECK_EQ(pos, 4);
	/* Writing past the end grows the file, the gap reads as zeros. */
	CHECK_STATUS(f->SetPosition(f, 8), EFI_SUCCESS);
	CHECK_STATUS(fst_write(f, "BB", 2), EFI_SUCCESS);
	CHECK_STATUS(f->SetPosition(f, END_OF_FILE), EFI_SUCCESS);
	CHECK_STATUS(fst_write(f, "CC", 2), EFI_SUCCESS);
	CHECK_STATUS(f->SetPosition(f, 1), EFI_SUCCESS);
	CHECK_STATUS(fst_write(f, "x", 1), EFI_SUCCESS);
	CHECK_STATUS(f->GetPosition(f, &pos), EFI_SUCCESS);
	CHECK_EQ(pos, 2);
	n = 0;
	CHECK_STATUS(f->Write(f, &n, NULL), EFI_SUCCESS);
	CHECK_STATUS(f->Write(f, NULL, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->Flush(f), EFI_SUCCESS);
	f->Close(f);
	CHECK(fst_file_holds(root, u"FsTest\\Seek.dat", want, sizeof(want) - 1));
}

/* Appends to the long-named file through a second handle. */
static void check_append(EFI_FILE_PROTOCOL *root)
{
	static const char want[] = "Hello, hosted volume!\nAppended line.\n";
	const CHAR16 *path =
	    u"FsTest\\Nested Dir\\Deeper Still\\A Long File Name With Mixed Case.Text";
	EFI_FILE_PROTOCOL *f = OPEN(root, path, RW_MODE, 0);

	if (!f)
		return;
	CHECK_STATUS(f->SetPosition(f, END_OF_FILE), EFI_SUCCESS);
	CHECK_STATUS(fst_write(f, "Appended line.\n", 15), EFI_SUCCESS);
	f->Close(f);
	CHECK(fst_file_holds(root, path, want, sizeof(want) - 1));
}

/* A larger file written and read in pieces of odd sizes. */
static void check_large(EFI_FILE_PROTOCOL *root)
{
	const UINTN size = 300000;
	UINT8 *data = fst_alloc(size), *back = fst_alloc(size);
	EFI_FILE_PROTOCOL *f =
	    data && back ? OPEN(root, u"FsTest\\Large.bin", CREATE_MODE, 0) : NULL;
	UINTN done = 0, n;

	if (!f)
		goto out;
	for (UINTN i = 0; i < size; i++)
		data[i] = (UINT8)(i * 7 + (i >> 8));
	while (done < size) {
		n = MIN(size - done, 4093);
		if (!CHECK_STATUS(fst_write(f, data + done, n), EFI_SUCCESS))
			break;
		done += n;
	}
	CHECK_STATUS(f->SetPosition(f, 0), EFI_SUCCESS);
	n = size;
	CHECK_STATUS(f->Read(f, &n, back), EFI_SUCCESS);
	CHECK(n == size && mem_cmp(data, back, size) == 0);
	CHECK_STATUS(f->Delete(f), EFI_SUCCESS);
out:
	fst_free(data);
	fst_free(back);
}

void test_read_write(EFI_FILE_PROTOCOL *root)
{
	check_reads(root);
	check_writes(root);
	check_append(root);
	check_large(root);
}
