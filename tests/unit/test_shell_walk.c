/* What keeps the shell's tree walks finite (apps/shell/pure/walk.c): the depth bound, loops
 * known by listings seen again on one path, the bound on directories, names a walk may
 * follow, and the check of EFI_FILE_INFO read from a directory. Issue 10, item 2: a FAT
 * directory pointing back at its parent or the root made ls -r, rm and cp -r run away. */
#include <string.h>

#include "../../apps/shell/pure/walk.h"
#include "shell_test.h"

/* An entry as a directory read gives it: the fixed part and a name, in one buffer. */
struct entry {
	union {
		EFI_FILE_INFO info;
		UINT8 bytes[SIZE_OF_EFI_FILE_INFO + 32 * sizeof(CHAR16)];
	};
};

static struct entry make_entry(const CHAR16 *name, UINT64 size, UINT16 year)
{
	struct entry e;

	memset(&e, 0, sizeof(e));
	e.info.Size = SIZE_OF_EFI_FILE_INFO + (str16_len(name) + 1) * sizeof(CHAR16);
	e.info.FileSize = size;
	e.info.ModificationTime.Year = year;
	memcpy(e.info.FileName, name, (str16_len(name) + 1) * sizeof(CHAR16));
	return e;
}

static UINT64 listing(const CHAR16 *a, const CHAR16 *b)
{
	struct entry ea = make_entry(a, 1, 2024), eb = make_entry(b, 2, 2024);

	return sh_walk_print_entry(sh_walk_print_entry(SH_WALK_PRINT_INIT, &ea.info), &eb.info);
}

TEST(shell_walk_fingerprint_follows_every_field)
{
	struct entry a = make_entry(u"ab", 5, 2024), b = make_entry(u"ab", 5, 2024);
	UINT64 pa = sh_walk_print_entry(SH_WALK_PRINT_INIT, &a.info);

	/* The padding of EFI_TIME is no part of an entry. */
	b.info.ModificationTime.Pad1 = 0x55;
	EXPECT_EQ(sh_walk_print_entry(SH_WALK_PRINT_INIT, &b.info), pa);
	b.info.FileSize = 6;
	EXPECT(sh_walk_print_entry(SH_WALK_PRINT_INIT, &b.info) != pa);
	b = make_entry(u"ab", 5, 2025);
	EXPECT(sh_walk_print_entry(SH_WALK_PRINT_INIT, &b.info) != pa);
	b = make_entry(u"aB", 5, 2024);
	EXPECT(sh_walk_print_entry(SH_WALK_PRINT_INIT, &b.info) != pa);
	b = make_entry(u"ab", 5, 2024);
	b.info.Attribute = EFI_FILE_DIRECTORY;
	EXPECT(sh_walk_print_entry(SH_WALK_PRINT_INIT, &b.info) != pa);
	/* Entries are told apart: "ab"+"c" is not "a"+"bc". */
	EXPECT(listing(u"ab", u"c") != listing(u"a", u"bc"));
	EXPECT(listing(u"a", u"b") != listing(u"b", u"a"));
}

/* fs0:\DIR\SUB pointing back at fs0:\DIR: the walk sees DIR's listing again and again
 * until the depth bound, where the listing repeated names the loop. */
TEST(shell_walk_loop_through_the_parent)
{
	struct sh_walk w;
	UINT64 dir = listing(u"F.TXT", u"SUB");
	int levels = 0;

	sh_walk_init(&w);
	EXPECT_EQ(sh_walk_enter(&w, listing(u"DIR", u"ROOT.TXT")), SH_WALK_OK); /* fs0:\ */
	while (levels < 1000 && sh_walk_enter(&w, dir) == SH_WALK_OK)
		levels++;
	EXPECT_EQ(levels, SH_WALK_DEPTH_MAX); /* \DIR, then 63 times SUB */
	EXPECT_EQ(sh_walk_enter(&w, dir), SH_WALK_LOOP);
	EXPECT_EQ(w.seen_first, 1);
	EXPECT_EQ(w.depth, SH_WALK_DEPTH_MAX + 1);
	EXPECT_EQ(sh_walk_path_up(u"fs0:\\DIR\\SUB\\SUB", 3), 4 + 1); /* up to fs0:\ */
}

/* A loop through two directories (A\B\A ...), started below the root. */
TEST(shell_walk_loop_of_two_levels)
{
	struct sh_walk w;
	UINT64 a = listing(u"B", u"x"), b = listing(u"A", u"y");
	int levels = 0;

	sh_walk_init(&w);
	while (levels < 1000 && sh_walk_enter(&w, levels % 2 ? b : a) == SH_WALK_OK)
		levels++;
	EXPECT_EQ(levels, SH_WALK_DEPTH_MAX + 1);
	EXPECT_EQ(sh_walk_enter(&w, levels % 2 ? b : a), SH_WALK_LOOP);
	EXPECT_EQ(w.seen_first, 1); /* 65 levels: B's turn; the first B is level 1 */
}

/* Nested directories that list alike (mkdir a\a\a at once) are no loop, nor are equal
 * listings side by side. */
TEST(shell_walk_equal_listings_are_no_loop)
{
	struct sh_walk w;
	UINT64 empty = SH_WALK_PRINT_INIT, twin = listing(u"a", u"files");

	sh_walk_init(&w);
	EXPECT_EQ(sh_walk_enter(&w, listing(u"one", u"two")), SH_WALK_OK);
	for (int i = 0; i < 10; i++) {
		EXPECT_EQ(sh_walk_enter(&w, twin), SH_WALK_OK);
		EXPECT_EQ(sh_walk_enter(&w, empty), SH_WALK_OK);
		sh_walk_leave(&w);
	}
	EXPECT_EQ(w.depth, 11);
	EXPECT_EQ(w.visited, 21);
}

/* A legal tree deeper than the bound, without any loop. */
TEST(shell_walk_depth_bound)
{
	struct sh_walk w;

	sh_walk_init(&w);
	for (UINT64 level = 0; level <= SH_WALK_DEPTH_MAX; level++)
		ASSERT_EQ(sh_walk_enter(&w, level), SH_WALK_OK);
	EXPECT_EQ(sh_walk_enter(&w, 999), SH_WALK_TOO_DEEP);
	EXPECT_EQ(w.depth, SH_WALK_DEPTH_MAX + 1);
	sh_walk_leave(&w);
	EXPECT_EQ(sh_walk_enter(&w, 999), SH_WALK_OK);
}

TEST(shell_walk_bound_on_directories)
{
	struct sh_walk w;
	enum sh_walk_verdict v = SH_WALK_OK;
	UINT64 n = 0;

	sh_walk_init(&w);
	while (v == SH_WALK_OK && n < 2 * SH_WALK_DIRS_MAX) {
		v = sh_walk_enter(&w, n++);
		sh_walk_leave(&w);
	}
	EXPECT_EQ(v, SH_WALK_TOO_MANY);
	EXPECT_EQ(n, SH_WALK_DIRS_MAX + 1);
	EXPECT(strstr(sh_walk_verdict_text(SH_WALK_LOOP), "loop") != NULL);
}

TEST(shell_walk_names_and_paths)
{
	const CHAR16 *path = u"fs0:\\A\\B\\C";

	EXPECT(sh_walk_name_ok(u"SUB"));
	EXPECT(sh_walk_name_ok(u"a b.txt"));
	EXPECT(sh_walk_name_ok(u"..."));
	EXPECT(!sh_walk_name_ok(u""));
	EXPECT(!sh_walk_name_ok(u"."));
	EXPECT(!sh_walk_name_ok(u".."));
	EXPECT(!sh_walk_name_ok(u"a\\..\\.."));
	EXPECT(!sh_walk_name_ok(u"a/b"));
	EXPECT_EQ(sh_walk_path_up(path, 0), 10);
	EXPECT_EQ(sh_walk_path_up(path, 1), 8); /* fs0:\A\B */
	EXPECT_EQ(sh_walk_path_up(path, 2), 6); /* fs0:\A */
	EXPECT_EQ(sh_walk_path_up(path, 3), 5); /* fs0:\ */
	EXPECT_EQ(sh_walk_path_up(path, 9), 5); /* never above the root */
	EXPECT_EQ(sh_walk_path_up(u"fs0:\\", 1), 5);
	EXPECT_EQ(sh_walk_path_up(u"fs0:\\A\\B\\", 1), 6); /* a trailing '\' names no level */
}

TEST(shell_walk_entries_read_are_checked)
{
	struct entry e = make_entry(u"name", 1, 2024);
	size_t size = (size_t)e.info.Size;

	EXPECT(sh_file_info_valid(&e, size));
	EXPECT(sh_file_info_valid(&e, sizeof(e))); /* a buffer larger than the entry */
	EXPECT(!sh_file_info_valid(&e, size - 1)); /* Size claims more than was read */
	EXPECT(!sh_file_info_valid(&e, SIZE_OF_EFI_FILE_INFO));
	e.info.Size = SIZE_OF_EFI_FILE_INFO;
	EXPECT(!sh_file_info_valid(&e, size)); /* no room for a name */
	e = make_entry(u"name", 1, 2024);
	e.info.FileName[4] = 'x'; /* the terminator falls outside Size */
	EXPECT(!sh_file_info_valid(&e, size));
	/* A file's bytes read as entries (issue 10, item 6). */
	memset(&e, 'A', sizeof(e));
	EXPECT(!sh_file_info_valid(&e, sizeof(e)));
}
