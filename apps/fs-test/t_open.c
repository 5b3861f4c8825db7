/* fs-test: Open() (13.5.2): modes, creation, paths, case, and its error codes. */
#include "fs_test.h"

#define LONG_NAME u"A Long File Name With Mixed Case.Text"
#define DEEP_DIR u"\\FsTest\\Nested Dir\\Deeper Still"
#define LONG_PATH DEEP_DIR u"\\" LONG_NAME
/* 120 characters: far beyond 8.3, well inside FAT's 255. */
#define VERY_LONG_NAME                                                                             \
	u"This name is long enough to need many long-name directory entries on FAT, and "          \
	u"it keeps its Mixed Case exactly as given.txt"

static void check_bad_modes(EFI_FILE_PROTOCOL *root)
{
	static const UINT64 bad[] = {
	    0,
	    EFI_FILE_MODE_WRITE,
	    EFI_FILE_MODE_CREATE,
	    EFI_FILE_MODE_READ | EFI_FILE_MODE_CREATE,
	    EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
	    RW_MODE | 4,
	    READ_ONLY_MODE | 0x100,
	};
	EFI_FILE_PROTOCOL *f = (EFI_FILE_PROTOCOL *)1;

	for (UINTN i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK_STATUS(root->Open(root, &f, u"FsTest", bad[i], 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\bad-attr", CREATE_MODE, 0x40),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Open(root, &f, NULL, READ_ONLY_MODE, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Open(root, NULL, u"FsTest", READ_ONLY_MODE, 0), EFI_INVALID_PARAMETER);
	CHECK(!fst_exists(root, u"FsTest\\bad-attr"));
}

static void check_not_found(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f = (EFI_FILE_PROTOCOL *)1;

	CHECK_STATUS(root->Open(root, &f, u"no such file", READ_ONLY_MODE, 0), EFI_NOT_FOUND);
	CHECK(f == NULL);
	/* Creation does not make missing directories on the way. */
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\missing\\x.txt", CREATE_MODE, 0),
		     EFI_NOT_FOUND);
	/* The root has no parent. */
	CHECK_STATUS(root->Open(root, &f, u"..", READ_ONLY_MODE, 0), EFI_NOT_FOUND);
	CHECK_STATUS(root->Open(root, &f, u"\\..\\FsTest", READ_ONLY_MODE, 0), EFI_NOT_FOUND);
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\..\\..", READ_ONLY_MODE, 0), EFI_NOT_FOUND);
	/* A file is no directory to look names up in. */
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\Nested Dir\\Deeper Still\\" LONG_NAME u"\\x",
				READ_ONLY_MODE, 0),
		     EFI_NOT_FOUND);
}

static void check_bad_names(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f = NULL;

	CHECK_STATUS(root->Open(root, &f, u"FsTest/Nested Dir", READ_ONLY_MODE, 0),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\a\x01", CREATE_MODE, 0), EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\bad:name", CREATE_MODE, 0),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(root->Open(root, &f, u"FsTest\\what?", CREATE_MODE, 0), EFI_INVALID_PARAMETER);
}

/* Makes \FsTest\Nested Dir\Deeper Still and the long-named file in it. */
static void create_tree(EFI_FILE_PROTOCOL *root)
{
	static const char hello[] = "Hello, hosted volume!\n";
	EFI_FILE_PROTOCOL *dir, *deeper, *f;
	EFI_FILE_INFO *info;

	dir = OPEN(root, u"FsTest", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (!dir)
		return;
	deeper = OPEN(dir, u"Nested Dir", CREATE_MODE, EFI_FILE_DIRECTORY);
	if (deeper) {
		deeper->Close(deeper);
		/* Relative to a handle on a directory. */
		deeper = OPEN(dir, u"Nested Dir\\Deeper Still", CREATE_MODE, EFI_FILE_DIRECTORY);
	}
	info = deeper ? fst_file_info(deeper) : NULL;
	CHECK(info && (info->Attribute & EFI_FILE_DIRECTORY));
	CHECK(info && str16_cmp(info->FileName, u"Deeper Still") == 0);
	fst_free(info);
	f = deeper ? OPEN(deeper, LONG_NAME, CREATE_MODE, 0) : NULL;
	if (f) {
		CHECK_STATUS(fst_write(f, hello, sizeof(hello) - 1), EFI_SUCCESS);
		f->Close(f);
	}
	if (deeper)
		deeper->Close(deeper);
	dir->Close(dir);
	CHECK(fst_file_holds(root, LONG_PATH, hello, sizeof(hello) - 1));
}

static void check_paths_and_case(EFI_FILE_PROTOCOL *root)
{
	static const char hello[] = "Hello, hosted volume!\n";
	EFI_FILE_PROTOCOL *dir, *f;
	EFI_FILE_INFO *info;

	CHECK(fst_file_holds(root,
			     u"fstest\\NESTED DIR\\deeper still\\a long file name with "
			     u"mixed case.text",
			     hello, sizeof(hello) - 1));
	CHECK(fst_file_holds(root,
			     u"\\\\FsTest\\\\.\\Nested Dir\\..\\Nested Dir\\\\Deeper Still"
			     u"\\.\\" LONG_NAME,
			     hello, sizeof(hello) - 1));
	/* The name found on disk is reported, not the one asked for. */
	f = OPEN(root, u"FSTEST\\NESTED DIR", READ_ONLY_MODE, 0);
	info = f ? fst_file_info(f) : NULL;
	CHECK(info && str16_cmp(info->FileName, u"Nested Dir") == 0);
	fst_free(info);
	if (f) {
		/* ".." from a subdirectory, and an absolute name from any handle. */
		CHECK(fst_exists(f, u"..\\Nested Dir\\Deeper Still\\" LONG_NAME));
		CHECK(fst_exists(f, u"\\FsTest"));
		dir = OPEN(f, u".", READ_ONLY_MODE, 0);
		info = dir ? fst_file_info(dir) : NULL;
		CHECK(info && str16_cmp(info->FileName, u"Nested Dir") == 0);
		fst_free(info);
		if (dir)
			dir->Close(dir);
		f->Close(f);
	}
	/* "." and "" on the root are the root, named "" (13.5.16). */
	dir = OPEN(root, u".", READ_ONLY_MODE, 0);
	info = dir ? fst_file_info(dir) : NULL;
	CHECK(info && info->FileName[0] == 0 && (info->Attribute & EFI_FILE_DIRECTORY));
	fst_free(info);
	if (dir)
		dir->Close(dir);
	CHECK(fst_exists(root, u""));
}

static void check_create_semantics(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *f, *file;

	/* CREATE on an existing file opens it and keeps its contents. */
	f = OPEN(root, LONG_PATH, CREATE_MODE, 0);
	if (f)
		f->Close(f);
	CHECK(fst_file_holds(root, LONG_PATH, "Hello, hosted volume!\n", 22));
	/* Creation keeps the case given; a second name differing in case is the same file. */
	CHECK(fst_make_file(root, u"FsTest\\Case.TXT", "first"));
	f = OPEN(root, u"FSTEST\\CASE.txt", CREATE_MODE, 0);
	if (f) {
		CHECK_STATUS(f->SetPosition(f, 0xFFFFFFFFFFFFFFFFULL), EFI_SUCCESS);
		CHECK_STATUS(fst_write(f, " second", 7), EFI_SUCCESS);
		f->Close(f);
	}
	CHECK(fst_file_holds(root, u"FsTest\\case.txt", "first second", 12));
	CHECK(fst_make_file(root, u"FsTest\\Nested Dir\\" VERY_LONG_NAME, "long"));
	CHECK(fst_make_file(root, u"FsTest\\\u00dcn\u00efc\u00f6d\u00e9 \u00d1ame.txt", "unicode"));
	CHECK(fst_file_holds(root, u"FSTEST\\\u00fcN\u00cfC\u00d6D\u00c9 \u00f1AME.TXT", "unicode",
			     7));
	/* Relative names need a directory handle. */
	file = OPEN(root, u"FsTest\\Case.TXT", READ_ONLY_MODE, 0);
	if (file) {
		EFI_FILE_PROTOCOL *g = NULL;

		CHECK_STATUS(file->Open(file, &g, u"x", READ_ONLY_MODE, 0), EFI_NOT_FOUND);
		CHECK(fst_exists(file, u"\\FsTest\\Nested Dir"));
		file->Close(file);
	}
}

void test_open(EFI_FILE_PROTOCOL *root)
{
	create_tree(root);
	check_bad_modes(root);
	check_not_found(root);
	check_bad_names(root);
	check_paths_and_case(root);
	check_create_semantics(root);
}
