/* Directories on the FAT driver: reading entries, many entries and their aliases,
 * growth and slot reuse, and exchange with mtools in both directions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static UINT8 *img;
static size_t img_size;

/* Reads every entry of dir: their names joined by '|' in out (UTF-8). */
static UINTN list(EFI_FILE_PROTOCOL *dir, char *out, size_t out_size)
{
	UINT8 buf[SIZE_OF_EFI_FILE_INFO + 512];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	UINTN count = 0, used = 0;

	out[0] = 0;
	dir->SetPosition(dir, 0);
	for (;;) {
		UINTN n = sizeof(buf);

		if (EFI_ERROR(dir->Read(dir, &n, info)) || n == 0)
			return count;
		used += ucs2_to_utf8(out + used, out_size - used, info->FileName,
				     str16_len(info->FileName));
		if (used + 1 < out_size)
			out[used++] = '|', out[used] = 0;
		count++;
	}
}

TEST(fat_dir_read_entries)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *d;
	UINT8 buf[SIZE_OF_EFI_FILE_INFO + 512];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	char names[512];
	UINTN n;

	test_fs_fresh(&fs, "-F 16", 16384);
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"List", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(d, u"b.txt", "b", 1), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(d, u"A.TXT", "aa", 2), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(d, u"Mixed Case Long Name.Text", "m", 1), EFI_SUCCESS);
	EXPECT_EQ(list(d, names, sizeof(names)), 5);
	EXPECT(strcmp(names, ".|..|b.txt|A.TXT|Mixed Case Long Name.Text|") == 0);
	/* Too small: the needed size, and the position stays. */
	EXPECT_STATUS(d->SetPosition(d, 0), EFI_SUCCESS);
	n = sizeof(buf);
	EXPECT_STATUS(d->Read(d, &n, info), EFI_SUCCESS); /* "." */
	EXPECT(info->Attribute & EFI_FILE_DIRECTORY);
	n = sizeof(buf);
	EXPECT_STATUS(d->Read(d, &n, info), EFI_SUCCESS); /* ".." */
	n = SIZE_OF_EFI_FILE_INFO;
	EXPECT_STATUS(d->Read(d, &n, info), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(n, SIZE_OF_EFI_FILE_INFO + sizeof(u"b.txt"));
	EXPECT_STATUS(d->Read(d, &n, info), EFI_SUCCESS);
	EXPECT(str16_cmp(info->FileName, u"b.txt") == 0 && info->FileSize == 1);
	EXPECT_EQ(info->PhysicalSize, fs.sfs->vol->geo.cluster_size);
	/* The root has no "." or "..". */
	EXPECT_EQ(list(fs.root, names, sizeof(names)), 1);
	EXPECT(strcmp(names, "List|") == 0);
	d->Close(d);
	test_fs_done(&fs, true);
}

TEST(fat_dir_many_similar_names)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *d;
	static char names[200000];
	CHAR16 name[64];
	char out[64 * 1024];
	int count = 600;

	img = test_fs_fresh(&fs, "-F 32", 40000);
	img_size = fs.md.size;
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"Many", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	for (int i = 0; i < count; i++) {
		char ascii[64];
		int n = snprintf(ascii, sizeof(ascii), "Report for the year %04d.txt", i);
		utf8_to_ucs2(name, 64, ascii, (size_t)n);
		if (!EXPECT_STATUS(test_fs_put(d, name, ascii, (UINTN)n), EFI_SUCCESS))
			break;
	}
	EXPECT_EQ(list(d, names, sizeof(names)), count + 2);
	/* Every name reads back, by long name and (case-folded) again. */
	for (int i = 0; i < count; i += 37) {
		char ascii[64], back[64];
		UINTN n;
		int len = snprintf(ascii, sizeof(ascii), "REPORT FOR THE YEAR %04d.TXT", i);
		utf8_to_ucs2(name, 64, ascii, (size_t)len);
		EXPECT_STATUS(test_fs_get(d, name, back, sizeof(back), &n), EFI_SUCCESS);
		EXPECT(n == (UINTN)len && strncasecmp(back, ascii, n) == 0);
	}
	d->Close(d);
	test_fs_close(&fs);
	/* fsck finds no duplicate 8.3 names; mtools lists every long name. */
	EXPECT(fat_image_fsck_clean(img, img_size));
	EXPECT_EQ(fat_image_run(img, img_size, "mdir -i %s ::/Many | grep -c 'Report for the year'",
				out, sizeof(out)),
		  0);
	EXPECT_EQ(atoi(out), count);
	free(img);
}

TEST(fat_dir_grows_and_reuses_slots)
{
	struct test_fs fs;
	EFI_FILE_PROTOCOL *d, *f;
	CHAR16 name[32];
	UINT64 slots_before;
	char listing[8192];

	test_fs_fresh(&fs, "-F 12 -s 1", 1440); /* 512-byte clusters: 16 slots each */
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"grow", CREATE, EFI_FILE_DIRECTORY), EFI_SUCCESS);
	for (int i = 0; i < 40; i++) {
		int n = 0;
		for (const char *s = "long name number "; *s; s++)
			name[n++] = (CHAR16)*s;
		name[n++] = (CHAR16)(u'A' + i / 10);
		name[n++] = (CHAR16)(u'0' + i % 10);
		name[n] = 0;
		ASSERT_STATUS(d->Open(d, &f, name, CREATE, 0), EFI_SUCCESS);
		f->Close(f);
	}
	slots_before = fs.sfs->vol->root->dir ? 0 : 0;
	EXPECT_EQ(list(d, listing, sizeof(listing)), 42);
	/* Delete every other one; new names fill the holes, the directory does not grow. */
	for (int i = 0; i < 40; i += 2) {
		name[17] = (CHAR16)(u'A' + i / 10);
		name[18] = (CHAR16)(u'0' + i % 10);
		ASSERT_STATUS(d->Open(d, &f, name, RW, 0), EFI_SUCCESS);
		EXPECT_STATUS(f->Delete(f), EFI_SUCCESS);
	}
	ASSERT_STATUS(d->Open(d, &f, u"..", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	f->Close(f);
	{
		struct fat_volume *vol = fs.sfs->vol;
		struct fat_node *n;
		UINT32 slots = 0;

		list_for_each_entry (n, &vol->nodes, link)
			if (n->dir && !n->is_root && n->name[0] == u'g')
				slots = n->dir->slots;
		slots_before = slots;
		for (int i = 0; i < 20; i++) {
			name[17] = u'z';
			name[18] = (CHAR16)(u'a' + i);
			ASSERT_STATUS(d->Open(d, &f, name, CREATE, 0), EFI_SUCCESS);
			f->Close(f);
		}
		list_for_each_entry (n, &vol->nodes, link)
			if (n->dir && !n->is_root && n->name[0] == u'g')
				slots = n->dir->slots;
		EXPECT_EQ(slots, slots_before);
	}
	EXPECT_EQ(list(d, listing, sizeof(listing)), 42);
	d->Close(d);
	test_fs_done(&fs, true);
}

/* Files with these names and contents, written by mtools, read by Ember. */
static const struct {
	const char *path; /* NULL contents: a directory */
	const char *contents;
} mtools_tree[] = {
    {"Top Level Directory", NULL},
    {"Top Level Directory/Second Level", NULL},
    {"Top Level Directory/Second Level/A rather long file name indeed.txt", "deep"},
    {"Top Level Directory/short.c", "int x;"},
    {"UPPER.TXT", "upper"},
    {"lower.txt", "lower"},
    {"MiXeD.TxT", "mixed"},
    {"name with spaces.and.dots.tar.gz", "dots"},
    {"caf\xc3\xa9 \xc3\xbc\x62\x65r.txt", "utf8"},
};

static void mtools_put(const char *path, const char *contents)
{
	char cmd[1024];
	int status;

	if (!contents) {
		snprintf(cmd, sizeof(cmd), "mmd -i %%s '::/%s' 2>&1", path);
	} else {
		FILE *f = fopen(fat_image_scratch(), "wb");
		fputs(contents, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "mcopy -i %%s %%t '::/%s' 2>&1", path);
	}
	status = fat_image_run(img, img_size, cmd, NULL, 0);
	EXPECT_EQ(status, 0);
}

TEST(fat_dir_reads_what_mtools_wrote)
{
	static const char *const args[] = {"-F 12", "-F 16", "-F 32"};
	static const UINT32 kib[] = {1440, 16384, 40000};

	for (int t = 0; t < 3; t++) {
		struct test_fs fs;

		img = fat_image_mkfs(args[t], kib[t], &img_size);
		for (size_t i = 0; i < ARRAY_SIZE(mtools_tree); i++)
			mtools_put(mtools_tree[i].path, mtools_tree[i].contents);
		ASSERT_STATUS(test_fs_open(&fs, img, img_size), EFI_SUCCESS);
		for (size_t i = 0; i < ARRAY_SIZE(mtools_tree); i++) {
			CHAR16 path[256];
			char back[64];
			UINTN n;
			EFI_FILE_PROTOCOL *f;
			size_t len = utf8_to_ucs2(path, 256, mtools_tree[i].path,
						  strlen(mtools_tree[i].path));

			for (size_t k = 0; k < len; k++)
				if (path[k] == u'/')
					path[k] = u'\\';
			if (!mtools_tree[i].contents) {
				EXPECT_STATUS(
				    fs.root->Open(fs.root, &f, path, EFI_FILE_MODE_READ, 0),
				    EFI_SUCCESS);
				f->Close(f);
				continue;
			}
			EXPECT_STATUS(test_fs_get(fs.root, path, back, sizeof(back), &n),
				      EFI_SUCCESS);
			EXPECT(n == strlen(mtools_tree[i].contents) &&
			       memcmp(back, mtools_tree[i].contents, n) == 0);
		}
		{
			EFI_FILE_PROTOCOL *d;
			char names[1024];
			ASSERT_STATUS(fs.root->Open(fs.root, &d, u"TOP LEVEL DIRECTORY",
						    EFI_FILE_MODE_READ, 0),
				      EFI_SUCCESS);
			list(d, names, sizeof(names));
			EXPECT(strcmp(names, ".|..|Second Level|short.c|") == 0);
			d->Close(d);
			list(fs.root, names, sizeof(names));
			EXPECT(strstr(names, "|MiXeD.TxT|") && strstr(names, "|lower.txt|") &&
			       strstr(names, "|UPPER.TXT|") &&
			       strstr(names, "caf\xc3\xa9 \xc3\xbc"));
		}
		test_fs_close(&fs);
		free(img);
	}
}

/* More directories used than are kept cached: the oldest are dropped and read again when
 * used again, with the same contents. */
TEST(fat_dir_cache_of_recent_directories)
{
	struct test_fs fs;
	CHAR16 name[16];
	char buf[8];
	UINTN n;

	test_fs_fresh(&fs, "-F 16", 16384);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 3 * 8; i++) {
			str16_copy(name, u"D00\\f.txt");
			name[1] = (CHAR16)(u'0' + i / 10);
			name[2] = (CHAR16)(u'0' + i % 10);
			if (round == 0) {
				EFI_FILE_PROTOCOL *d;

				name[3] = 0;
				ASSERT_STATUS(
				    fs.root->Open(fs.root, &d, name, CREATE, EFI_FILE_DIRECTORY),
				    EFI_SUCCESS);
				d->Close(d);
				name[3] = u'\\';
				EXPECT_STATUS(test_fs_put(fs.root, name, name + 1, 4), EFI_SUCCESS);
			} else {
				EXPECT_STATUS(test_fs_get(fs.root, name, buf, sizeof(buf), &n),
					      EFI_SUCCESS);
				EXPECT(n == 4 && memcmp(buf, name + 1, 4) == 0);
			}
		}
	}
	EXPECT_EQ(fs.sfs->vol->recent_count, 8);
	test_fs_done(&fs, true);
}

/* Junk after a directory's end marker (some writers leave it): a new entry at the end is
 * followed by a new end marker, so that the junk stays out of the directory. */
TEST(fat_dir_junk_after_the_end)
{
	struct test_fs fs;
	char names[256];
	EFI_FILE_PROTOCOL *d;
	UINT8 *dir, *first;

	img = fat_image_mkfs("-F 16", 16384, &img_size);
	ASSERT_EQ(fat_image_run(img, img_size, "mmd -i %s ::/JUNK", NULL, 0), 0);
	dir = fat_image_entry(img, img_size, NULL, "JUNK       ");
	ASSERT(dir);
	first = fat_image_cluster(img, img_size, fat_le16(dir + 26));
	/* After '.', '..' and the end marker, an entry that would be a file. */
	memcpy(first + 3 * 32, "GHOST   TXT", 11);
	first[3 * 32 + 11] = FAT_ATTR_ARCHIVE;
	ASSERT_STATUS(test_fs_open(&fs, img, img_size), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"JUNK", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	EXPECT_EQ(list(d, names, sizeof(names)), 2);
	EXPECT_STATUS(test_fs_put(fs.root, u"JUNK\\NEW.TXT", "new", 3), EFI_SUCCESS);
	EXPECT_EQ(list(d, names, sizeof(names)), 3);
	EXPECT(strcmp(names, ".|..|NEW.TXT|") == 0);
	d->Close(d);
	EXPECT(first[3 * 32] == 0); /* the end marker moved after NEW.TXT */
	test_fs_done(&fs, true);
}
