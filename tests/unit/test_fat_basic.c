/* The FAT driver through EFI_FILE_PROTOCOL on images made by mkfs.vfat: files, long
 * names, directories, and what mtools and fsck.fat make of the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static const char *const formats[] = {"-F 12", "-F 16", "-F 32"};
static const UINT32 sizes_kib[] = {2048, 16384, 40000};

static bool contains(const char *haystack, const char *needle)
{
	return strstr(haystack, needle) != NULL;
}

/* Creates, writes and reads files and directories on each FAT type. */
TEST(fat_create_write_read_each_type)
{
	for (int t = 0; t < 3; t++) {
		size_t size;
		UINT8 *img = fat_image_mkfs(formats[t], sizes_kib[t], &size);
		struct test_fs fs;
		EFI_FILE_PROTOCOL *dir;
		char buf[64];
		UINTN n;
		char out[4096];

		ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
		EXPECT_STATUS(test_fs_put(fs.root, u"HELLO.TXT", "hello", 5), EFI_SUCCESS);
		EXPECT_STATUS(test_fs_put(fs.root, u"A Long File Name.text", "long!", 5),
			      EFI_SUCCESS);
		EXPECT_STATUS(fs.root->Open(fs.root, &dir, u"Sub Dir", CREATE, EFI_FILE_DIRECTORY),
			      EFI_SUCCESS);
		EXPECT_STATUS(test_fs_put(dir, u"inner.bin", "\1\2\3", 3), EFI_SUCCESS);
		dir->Close(dir);
		EXPECT_STATUS(test_fs_get(fs.root, u"hello.txt", buf, sizeof(buf), &n),
			      EFI_SUCCESS);
		EXPECT(n == 5 && memcmp(buf, "hello", 5) == 0);
		EXPECT_STATUS(test_fs_get(fs.root, u"\\SUB DIR\\INNER.BIN", buf, sizeof(buf), &n),
			      EFI_SUCCESS);
		EXPECT(n == 3 && memcmp(buf, "\1\2\3", 3) == 0);
		test_fs_close(&fs);
		EXPECT(fat_image_fsck_clean(img, size));
		EXPECT_EQ(fat_image_run(img, size,
					"mtype -i %s '::/Sub Dir/inner.bin' && "
					"mtype -i %s '::/a long file name.text' && "
					"mtype -i %s ::hello.txt",
					out, sizeof(out)),
			  0);
		EXPECT(strcmp(out, "\1\2\3long!hello") == 0);
		EXPECT_EQ(fat_image_run(img, size, "mdir -i %s ::", out, sizeof(out)), 0);
		EXPECT(contains(out, "A Long File Name.text"));
		EXPECT(contains(out, "Sub Dir"));
		free(img);
	}
}
