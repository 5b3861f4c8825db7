/* The FAT driver on hostile images (made by mkfs.vfat and mtools, then patched): a
 * directory whose cluster is itself, its parent or the root, '.' and '..' that lie, a
 * file whose chain is a directory's, two entries of one name, sizes the chain cannot
 * hold, and orphaned long-name entries next to new ones. Nothing outside the named
 * entry may be touched, and such entries are reported as EFI_VOLUME_CORRUPTED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)
#define TREE                                                                                       \
	"echo root file > %t && mmd -i %s ::/DIR ::/DIR/SUB && "                                   \
	"mcopy -i %s %t ::/A.TXT && mcopy -i %s %t ::/DIR/B.TXT"

static UINT32 entry_cluster(const UINT8 *e)
{
	return (UINT32)fat_le16(e + 20) << 16 | fat_le16(e + 26);
}

static void set_entry_cluster(UINT8 *e, UINT32 c)
{
	fat_put16(e + 20, (UINT16)(c >> 16));
	fat_put16(e + 26, (UINT16)c);
}

/* An image holding \A.TXT, \DIR\B.TXT and the empty directory \DIR\SUB. */
static UINT8 *tree(const char *mkfs, UINT32 kib, size_t *size)
{
	UINT8 *img = fat_image_mkfs(mkfs, kib, size);

	ASSERT_EQ(fat_image_run(img, *size, TREE, NULL, 0), 0);
	return img;
}

static UINT8 *dir_entry(UINT8 *img, size_t size)
{
	UINT8 *e = fat_image_entry(img, size, NULL, "DIR        ");

	ASSERT(e);
	return e;
}

static UINT8 *sub_entry(UINT8 *img, size_t size)
{
	UINT8 *e = fat_image_entry(img, size, dir_entry(img, size), "SUB        ");

	ASSERT(e);
	return e;
}

static EFI_STATUS try_open(struct test_fs *fs, const CHAR16 *path, UINT64 mode)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = fs->root->Open(fs->root, &f, (CHAR16 *)path, mode, 0);

	if (!EFI_ERROR(status))
		f->Close(f);
	return status;
}

/* What fsck.fat says about the image now, without the temporary file's name; the
 * caller frees it. */
static char *fsck_report(UINT8 *img, size_t size)
{
	char *out = malloc(16384), *name;

	fat_image_fsck(img, size, out, 16384);
	while ((name = strstr(out, "/tmp/ember-fat-")))
		memmove(name, name + 21, strlen(name + 21) + 1);
	return out;
}

/* Opens the root; the named paths must fail as damaged, \A.TXT and \DIR\B.TXT stay. */
static void expect_refused(UINT8 *img, size_t size, const CHAR16 *const *paths)
{
	struct test_fs fs;
	char buf[32];
	UINTN n;

	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	for (; *paths; paths++) {
		EXPECT_STATUS(try_open(&fs, *paths, EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
		EXPECT_STATUS(try_open(&fs, *paths, RW), EFI_VOLUME_CORRUPTED);
	}
	EXPECT_STATUS(test_fs_get(fs.root, u"A.TXT", buf, sizeof(buf), &n), EFI_SUCCESS);
	EXPECT(n == 10 && memcmp(buf, "root file\n", 10) == 0);
	EXPECT_STATUS(test_fs_get(fs.root, u"DIR\\B.TXT", buf, sizeof(buf), &n), EFI_SUCCESS);
	test_fs_close(&fs);
}

static const CHAR16 *const sub_paths[] = {u"DIR\\SUB", u"DIR\\SUB\\SUB", u"DIR\\SUB\\B.TXT",
					  u"DIR\\SUB\\A.TXT", NULL};

TEST(fat_hostile_subdir_is_its_parent)
{
	static const char *const types[] = {"-F 12", "-F 16", "-F 32"};
	static const UINT32 kib[] = {1440, 16384, 40000};

	for (int t = 0; t < 3; t++) {
		size_t size;
		UINT8 *img = tree(types[t], kib[t], &size);
		char *before;

		set_entry_cluster(sub_entry(img, size), entry_cluster(dir_entry(img, size)));
		before = fsck_report(img, size);
		expect_refused(img, size, sub_paths);
		/* Nothing was written: fsck finds what it found before. */
		{
			char *after = fsck_report(img, size);
			EXPECT(strcmp(before, after) == 0);
			free(after);
		}
		free(before);
		free(img);
	}
}

TEST(fat_hostile_subdir_is_the_root)
{
	size_t size;
	UINT8 *img;
	struct fat_geometry g;

	/* FAT12/16: cluster 0 names the root only in a '..' entry. */
	img = tree("-F 16", 16384, &size);
	set_entry_cluster(sub_entry(img, size), 0);
	expect_refused(img, size, sub_paths);
	free(img);
	/* FAT32: the root's own cluster. */
	img = tree("-F 32", 40000, &size);
	g = fat_image_geometry(img, size);
	set_entry_cluster(sub_entry(img, size), g.root_cluster);
	expect_refused(img, size, sub_paths);
	free(img);
}

/* A file whose chain is a directory's: deleting it would free the directory. */
TEST(fat_hostile_file_in_a_directory_chain)
{
	size_t size;
	UINT8 *img = tree("-F 32", 40000, &size);
	struct fat_geometry g = fat_image_geometry(img, size);
	UINT8 *b = fat_image_entry(img, size, dir_entry(img, size), "B       TXT");
	static const CHAR16 *const paths[] = {u"DIR\\B2.TXT", NULL};
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;

	ASSERT(b);
	/* \DIR\B2.TXT starts at the root's cluster, \DIR\B3.TXT at its own directory's. */
	ASSERT_EQ(fat_image_run(img, size,
				"mcopy -i %s %t ::/DIR/B2.TXT && "
				"mcopy -i %s %t ::/DIR/B3.TXT",
				NULL, 0),
		  0);
	b = fat_image_entry(img, size, dir_entry(img, size), "B2      TXT");
	ASSERT(b);
	set_entry_cluster(b, g.root_cluster);
	b = fat_image_entry(img, size, dir_entry(img, size), "B3      TXT");
	ASSERT(b);
	set_entry_cluster(b, entry_cluster(dir_entry(img, size)));
	expect_refused(img, size, paths);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	EXPECT_STATUS(fs.root->Open(fs.root, &f, u"DIR\\B3.TXT", RW, 0), EFI_VOLUME_CORRUPTED);
	test_fs_close(&fs);
	/* The directories are whole: mtools still lists them. */
	EXPECT_EQ(fat_image_run(img, size, "mdir -i %s ::/ ::/DIR >/dev/null", NULL, 0), 0);
	free(img);
}

/* The same in a directory of many clusters (looked up in a sorted copy of its chain): a
 * file starting at any of them is refused. */
TEST(fat_hostile_file_in_a_long_directory)
{
	size_t size;
	UINT8 *img = tree("-F 16 -s 1", 16384, &size);
	UINT8 *dir = dir_entry(img, size), *b;
	static const CHAR16 *const paths[] = {u"DIR\\B2.TXT", NULL};
	UINT32 c = entry_cluster(dir), count = 0;

	ASSERT_EQ(fat_image_run(img, size,
				"for i in $(seq 1 200); do echo $i > %t.$i; done && "
				"mcopy -i %s %t.* ::/DIR/ && rm -f %t.* && "
				"echo x > %t && mcopy -i %s %t ::/DIR/B2.TXT",
				NULL, 0),
		  0);
	b = fat_image_entry(img, size, dir, "B2      TXT");
	ASSERT(b);
	for (UINT32 next = c; next < 0xfff8; next = fat_image_get_fat(img, size, next))
		count++;
	ASSERT(count >= 12);
	for (UINT32 i = 0; i < count / 2; i++)
		c = fat_image_get_fat(img, size, c);
	set_entry_cluster(b, c);
	expect_refused(img, size, paths);
	free(img);
}

/* A file whose chain goes on into its directory's cluster past its size: deleting it or
 * writing past its end would take the directory with it. */
TEST(fat_hostile_file_chain_runs_into_parent)
{
	size_t size;
	UINT8 *img = tree("-F 16", 16384, &size);
	struct fat_geometry g = fat_image_geometry(img, size);
	UINT8 *dir = dir_entry(img, size);
	UINT8 *b = fat_image_entry(img, size, dir, "B       TXT");
	struct test_fs fs;
	EFI_FILE_PROTOCOL *f;
	char *before, *after;
	UINTN n = 4;

	ASSERT(b);
	fat_image_set_fat(img, size, entry_cluster(b), entry_cluster(dir));
	before = fsck_report(img, size);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"DIR\\B.TXT", RW, 0), EFI_SUCCESS);
	EXPECT_STATUS(f->SetPosition(f, g.cluster_size), EFI_SUCCESS);
	EXPECT_STATUS(f->Write(f, &n, "junk"), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(f->Delete(f), EFI_WARN_DELETE_FAILURE);
	test_fs_close(&fs);
	/* The directory is as it was: fsck finds what it found before. */
	after = fsck_report(img, size);
	EXPECT(strcmp(before, after) == 0);
	EXPECT_EQ(fat_image_run(img, size, "mdir -i %s ::/DIR | grep -q SUB", NULL, 0), 0);
	free(before);
	free(after);
	free(img);
}

TEST(fat_hostile_subdir_chain_runs_into_parent)
{
	size_t size;
	UINT8 *img = tree("-F 16 -s 1", 16384, &size);
	UINT32 sub = entry_cluster(sub_entry(img, size));

	/* SUB's one cluster goes on into DIR's: DIR's entries would show up in SUB. */
	fat_image_set_fat(img, size, sub, entry_cluster(dir_entry(img, size)));
	expect_refused(img, size, sub_paths);
	free(img);
}

TEST(fat_hostile_dot_entries_that_lie)
{
	for (int which = 0; which < 2; which++) {
		size_t size;
		UINT8 *img = tree("-F 16", 16384, &size);
		UINT8 *sub = sub_entry(img, size);
		UINT8 *dots = fat_image_cluster(img, size, entry_cluster(sub));

		ASSERT(memcmp(dots, ".          ", 11) == 0);
		ASSERT(memcmp(dots + 32, "..         ", 11) == 0);
		/* '.' names the parent, or '..' names the directory itself. */
		if (which == 0)
			set_entry_cluster(dots, entry_cluster(dir_entry(img, size)));
		else
			set_entry_cluster(dots + 32, entry_cluster(sub));
		expect_refused(img, size, sub_paths);
		free(img);
	}
}

TEST(fat_hostile_sane_trees_still_open)
{
	size_t size;
	UINT8 *img = tree("-F 32", 40000, &size);
	struct fat_geometry g = fat_image_geometry(img, size);
	UINT8 *dir = dir_entry(img, size);
	UINT8 *dots = fat_image_cluster(img, size, entry_cluster(dir));
	struct test_fs fs;

	/* Some writers put the root's cluster in '..' of a directory in a FAT32 root. */
	ASSERT_EQ(entry_cluster(dots + 32), 0);
	set_entry_cluster(dots + 32, g.root_cluster);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SUB", RW), EFI_SUCCESS);
	EXPECT_STATUS(try_open(&fs, u"DIR\\B.TXT", RW), EFI_SUCCESS);
	EXPECT_STATUS(test_fs_put(fs.root, u"DIR\\SUB\\new.txt", "new", 3), EFI_SUCCESS);
	test_fs_close(&fs);
	free(img);
}

/* A file and a directory of one name in one directory: which one a name opens is a
 * guess, so neither opens. */
TEST(fat_hostile_two_entries_of_one_name)
{
	size_t size;
	UINT8 *img = tree("-F 16", 16384, &size);
	UINT8 *e;
	struct test_fs fs;
	EFI_FILE_PROTOCOL *d;
	UINT8 buf[SIZE_OF_EFI_FILE_INFO + 64];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	int seen = 0;
	UINTN n;

	ASSERT_EQ(fat_image_run(img, size, "mcopy -i %s %t ::/DIR/SAME", NULL, 0), 0);
	e = fat_image_entry(img, size, dir_entry(img, size), "SUB        ");
	ASSERT(e);
	memcpy(e, "SAME       ", 11);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAME", EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(try_open(&fs, u"DIR\\same", EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAME\\x", EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(try_open(&fs, u"DIR\\B.TXT", EFI_FILE_MODE_READ), EFI_SUCCESS);
	/* Creating that name again does not add a third. */
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAME", CREATE), EFI_VOLUME_CORRUPTED);
	/* The listing still shows both. */
	ASSERT_STATUS(fs.root->Open(fs.root, &d, u"DIR", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	for (;;) {
		n = sizeof(buf);
		if (EFI_ERROR(d->Read(d, &n, info)) || n == 0)
			break;
		seen += str16_cmp(info->FileName, u"SAME") == 0;
	}
	EXPECT_EQ(seen, 2);
	d->Close(d);
	test_fs_close(&fs);
	free(img);
}

/* The same with a long name that ends in a dot: names are looked up without trailing
 * dots (as everywhere), so "SAME." is "SAME" too and neither opens. */
TEST(fat_hostile_long_name_with_a_trailing_dot)
{
	static const UINT16 units[13] = {u'S',	 u'A',	 u'M',	 u'E',	 u'.',	 0,	0xffff,
					 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff};
	size_t size;
	UINT8 *img = tree("-F 16", 16384, &size);
	UINT8 *alias, *lfn;
	struct test_fs fs;

	ASSERT_EQ(fat_image_run(img, size,
				"mcopy -i %s %t ::/DIR/SAME && mmd -i %s '::/DIR/Same Dir'", NULL,
				0),
		  0);
	alias = fat_image_entry(img, size, dir_entry(img, size), "SAMEDI~1   ");
	ASSERT(alias);
	lfn = alias - 32;
	ASSERT(lfn[0] == 0x41 && lfn[11] == FAT_ATTR_LFN);
	for (int i = 0; i < 13; i++)
		fat_put16(lfn + (i < 5	  ? 1 + 2 * i
				 : i < 11 ? 14 + 2 * (i - 5)
					  : 28 + 2 * (i - 11)),
			  units[i]);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAME.", EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAME", EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAMEDI~1\\x", CREATE), EFI_SUCCESS);
	test_fs_close(&fs);
	/* Alone, the directory answers to its name. */
	ASSERT_EQ(fat_image_run(img, size, "mdel -i %s ::/DIR/SAME", NULL, 0), 0);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	EXPECT_STATUS(try_open(&fs, u"DIR\\SAME.\\x", EFI_FILE_MODE_READ), EFI_SUCCESS);
	EXPECT_STATUS(try_open(&fs, u"DIR\\same\\x", EFI_FILE_MODE_READ), EFI_SUCCESS);
	test_fs_close(&fs);
	free(img);
}

/* Sizes beyond what the chain holds are damage, reported when the file is opened (not
 * after a caller has tried to allocate a buffer of that size). */
TEST(fat_hostile_size_beyond_the_chain)
{
	static const UINT32 sizes[] = {0xffffffff, 0x80000000, 3 * 2048 + 1};
	size_t size;
	UINT8 *img = fat_image_mkfs("-F 16 -s 4", 16384, &size); /* 2 KiB clusters */
	UINT8 *e;
	struct test_fs fs;
	EFI_FILE_INFO *info;
	EFI_FILE_PROTOCOL *f;

	ASSERT_EQ(fat_image_run(img, size,
				"head -c 5000 /dev/zero > %t && "
				"mcopy -i %s %t ::/BIG.BIN",
				NULL, 0),
		  0);
	e = fat_image_entry(img, size, NULL, "BIG     BIN");
	ASSERT(e);
	for (int i = 0; i < 3; i++) {
		fat_put32(e + 28, sizes[i]);
		ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
		EXPECT_STATUS(try_open(&fs, u"BIG.BIN", EFI_FILE_MODE_READ), EFI_VOLUME_CORRUPTED);
		test_fs_close(&fs);
	}
	/* Exactly what three clusters hold is fine. */
	fat_put32(e + 28, 3 * 2048);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	ASSERT_STATUS(fs.root->Open(fs.root, &f, u"BIG.BIN", EFI_FILE_MODE_READ, 0), EFI_SUCCESS);
	info = test_fs_info(f);
	ASSERT(info);
	EXPECT_EQ(info->FileSize, 3 * 2048);
	pool_free(info);
	f->Close(f);
	test_fs_close(&fs);
	free(img);
}

/* Whether an fsck.fat report says what. */
static bool mentions(const char *report, const char *what)
{
	return strstr(report, what) != NULL;
}

/* Long-name entries left without their 8.3 entry (deleted by a careless tool, or at the
 * end of a directory): a new entry placed right after them would be read as theirs. */
TEST(fat_hostile_orphaned_long_names)
{
	for (int variant = 0; variant < 2; variant++) {
		size_t size;
		UINT8 *img = fat_image_mkfs("-F 16", 16384, &size);
		struct test_fs fs;
		UINT8 *e, *dir;
		char *report;

		ASSERT_EQ(fat_image_run(img, size,
					"echo x > %t && mmd -i %s ::/D && "
					"mcopy -i %s %t "
					"'::/D/A long file name number one.txt'",
					NULL, 0),
			  0);
		dir = fat_image_entry(img, size, NULL, "D          ");
		ASSERT(dir);
		e = fat_image_entry(img, size, dir, "ALONGF~1TXT");
		ASSERT(e);
		/* Its 8.3 entry deleted, or turned into the end of the directory; the file's
		 * cluster freed, so that the long name is all that is left. */
		e[0] = variant == 0 ? FAT_ENTRY_FREE : 0;
		fat_image_set_fat(img, size, entry_cluster(e), 0);
		report = fsck_report(img, size);
		EXPECT(mentions(report, "Orphaned long file name"));
		free(report);
		ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
		EXPECT_STATUS(test_fs_put(fs.root, u"D\\NEW.TXT", "new", 3), EFI_SUCCESS);
		EXPECT_STATUS(test_fs_put(fs.root, u"D\\Another long name.txt", "long", 4),
			      EFI_SUCCESS);
		test_fs_close(&fs);
		/* The orphans went (as fsck would have them go); no entry took their name. */
		EXPECT(fat_image_fsck_clean(img, size));
		EXPECT_EQ(
		    fat_image_run(img, size, "mtype -i %s ::/D/NEW.TXT | grep -q new", NULL, 0), 0);
		free(img);
	}
}
