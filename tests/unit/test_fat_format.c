/* The FAT driver's pure layer (drivers/fat/fat_bpb.c, fat_name.c, fat_time.c): boot
 * sectors from mkfs.vfat and crafted ones, 8.3 names and aliases, long-name entries,
 * dates. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include "../../drivers/unicode_collation/collation.h"
#include <ember/lib/str.h>

static EFI_UNICODE_COLLATION_PROTOCOL *uc = &collation_english2;

TEST(fat_bpb_from_mkfs)
{
	static const struct {
		const char *args;
		UINT32 kib;
		enum fat_type type;
		UINT32 cluster;
	} cases[] = {
	    {"-F 12", 1440, FAT_12, 512},
	    {"-F 16 -s 4", 16384, FAT_16, 2048},
	    {"-F 32 -s 1", 40000, FAT_32, 512},
	    {"-F 32 -S 4096 -s 1", 300000, FAT_32, 4096},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t size;
		UINT8 *img = fat_image_mkfs(cases[i].args, cases[i].kib, &size);
		struct fat_geometry g;

		EXPECT_STATUS(fat_bpb_parse(img, size, &g), EFI_SUCCESS);
		EXPECT_EQ(g.type, cases[i].type);
		EXPECT_EQ(g.cluster_size, cases[i].cluster);
		EXPECT_EQ(g.fat_count, 2);
		EXPECT(g.mirrored);
		EXPECT(g.state_offset != 0 && g.label_offset != 0);
		if (g.type == FAT_32) {
			EXPECT(g.fsinfo_offset != 0 && g.backup_boot_offset != 0);
			EXPECT_EQ(g.root_cluster, 2);
		} else {
			EXPECT(g.root_entries >= 16);
		}
		EXPECT(g.data_offset + (UINT64)g.cluster_count * g.cluster_size <= size);
		EXPECT_EQ(g.max_cluster, g.cluster_count + 1);
		/* Truncated: clusters past the end are never used. */
		EXPECT_STATUS(fat_bpb_parse(img, size / 2, &g), EFI_SUCCESS);
		EXPECT(g.data_offset + (UINT64)(g.max_cluster - 1) * g.cluster_size <= size / 2);
		free(img);
	}
}

TEST(fat_bpb_rejects)
{
	size_t size;
	UINT8 *img = fat_image_mkfs("-F 16", 16384, &size), copy[512];
	struct fat_geometry g;

	memcpy(copy, img, 512);
	copy[11] = 0; /* bytes per sector 0: an MBR, not FAT */
	copy[12] = 0;
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_UNSUPPORTED);
	memcpy(copy, img, 512);
	copy[13] = 3; /* sectors per cluster not a power of two */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_UNSUPPORTED);
	memcpy(copy, img, 512);
	copy[21] = 0x12; /* media byte */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_UNSUPPORTED);
	memcpy(copy, img, 512);
	copy[16] = 0; /* no FAT */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_UNSUPPORTED);
	memcpy(copy, img, 512);
	copy[17] = copy[18] = 0; /* FAT16 without a root directory */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_VOLUME_CORRUPTED);
	memcpy(copy, img, 512);
	fat_put16(copy + 14, 0xffff); /* reserved area past the end of the volume */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_VOLUME_CORRUPTED);
	EXPECT_STATUS(fat_bpb_parse(img, 4096, &g), EFI_VOLUME_CORRUPTED); /* data beyond disk */
	free(img);
	img = fat_image_mkfs("-F 32", 40000, &size);
	memcpy(copy, img, 512);
	fat_put32(copy + 44, 1); /* root cluster */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_VOLUME_CORRUPTED);
	memcpy(copy, img, 512);
	fat_put16(copy + 40, 0x0083); /* mirroring off, active FAT 3 of 2 */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_VOLUME_CORRUPTED);
	fat_put16(copy + 40, 0x0081);
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_SUCCESS);
	EXPECT(!g.mirrored && g.active_fat == 1);
	memcpy(copy, img, 512);
	fat_put16(copy + 17, 512); /* FAT32 with a fixed root directory */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_VOLUME_CORRUPTED);
	memcpy(copy, img, 512);
	fat_put16(copy + 42, 0x0100); /* FAT32 version 1.0 */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_VOLUME_CORRUPTED);
	memcpy(copy, img, 512);
	fat_put32(copy + 36, 1); /* a FAT of one sector: room for clusters 2..127 only */
	EXPECT_STATUS(fat_bpb_parse(copy, size, &g), EFI_SUCCESS);
	EXPECT_EQ(g.max_cluster, 127);
	/* A disk that ends inside the first cluster: not one cluster to use. */
	EXPECT_STATUS(fat_bpb_parse(img, size, &g), EFI_SUCCESS);
	EXPECT_STATUS(fat_bpb_parse(img, g.data_offset + g.cluster_size - 1, &g),
		      EFI_VOLUME_CORRUPTED);
	free(img);
}

TEST(fat_fsinfo)
{
	size_t size;
	UINT8 *img = fat_image_mkfs("-F 32", 40000, &size);
	struct fat_geometry g;
	UINT32 free_count, next;

	ASSERT_STATUS(fat_bpb_parse(img, size, &g), EFI_SUCCESS);
	EXPECT(fat_fsinfo_parse(img + g.fsinfo_offset, &free_count, &next));
	EXPECT_EQ(free_count, g.cluster_count - 1); /* the root takes one */
	img[g.fsinfo_offset + 484] ^= 1;
	EXPECT(!fat_fsinfo_parse(img + g.fsinfo_offset, &free_count, &next));
	free(img);
}

/* Plans the name and checks the 8.3 entry, flags and whether a long name is needed. */
static bool plans(const CHAR16 *name, const char *short_name, UINT8 nt_case, bool lfn, bool tail)
{
	struct fat_name_plan p;

	fat_name_plan(uc, name, str16_len(name), &p);
	return memcmp(p.short_name, short_name, 11) == 0 && p.nt_case == nt_case &&
	       p.need_lfn == lfn && p.need_tail == tail;
}

TEST(fat_name_plans)
{
	EXPECT(plans(u"README.TXT", "README  TXT", 0, false, false));
	EXPECT(plans(u"readme.txt", "README  TXT", 0x18, false, false));
	EXPECT(plans(u"readme.TXT", "README  TXT", 0x08, false, false));
	EXPECT(plans(u"README.txt", "README  TXT", 0x10, false, false));
	EXPECT(plans(u"Readme.txt", "README  TXT", 0, true, false));
	EXPECT(plans(u"MAKEFILE", "MAKEFILE   ", 0, false, false));
	EXPECT(plans(u"x", "X          ", 0x08, false, false));
	EXPECT(plans(u"a long name.txt", "ALONGNAMTXT", 0, true, true));
	EXPECT(plans(u"longfilename.c", "LONGFILEC  ", 0, true, true));
	EXPECT(plans(u"file.tar.gz", "FILETAR GZ ", 0, true, true));
	EXPECT(plans(u".bashrc", "BASHRC     ", 0, true, true));
	EXPECT(plans(u"a+b,c.txt", "A_B_C   TXT", 0, true, true));
	EXPECT(plans(u"name.html", "NAME    HTM", 0, true, true));
	EXPECT(plans(u"\u65e5\u672c.txt", "__      TXT", 0, true, true));
	EXPECT(plans(u"caf\u00e9.txt", "CAF\x90    TXT", 0, true, true));
	EXPECT(plans(u"+", "_          ", 0, true, true));
}

TEST(fat_name_tails)
{
	UINT8 out[11];

	fat_name_tail((const UINT8 *)"ALONGNAMTXT", 1, out);
	EXPECT(memcmp(out, "ALONGN~1TXT", 11) == 0);
	fat_name_tail((const UINT8 *)"ALONGNAMTXT", 42, out);
	EXPECT(memcmp(out, "ALONG~42TXT", 11) == 0);
	fat_name_tail((const UINT8 *)"AB      C  ", 7, out);
	EXPECT(memcmp(out, "AB~7    C  ", 11) == 0);
	fat_name_tail((const UINT8 *)"ABCDEFGH   ", 999999, out);
	EXPECT(memcmp(out, "A~999999   ", 11) == 0);
	fat_name_hashed((const UINT8 *)"ALONGNAMTXT", 0x1a2f, 3, out);
	EXPECT(memcmp(out, "AL1A2F~3TXT", 11) == 0);
	fat_name_hashed((const UINT8 *)"X          ", 0xbeef, 1, out);
	EXPECT(memcmp(out, "XBEEF~1    ", 11) == 0);
}

TEST(fat_name_trim_and_valid)
{
	EXPECT_EQ(fat_name_trim(u"abc. .", 6), 3);
	EXPECT_EQ(fat_name_trim(u"...", 3), 0);
	EXPECT_EQ(fat_name_trim(u" a", 2), 2);
	EXPECT(fat_name_valid(u"a b", 3));
	EXPECT(!fat_name_valid(u"a*b", 3));
	EXPECT(!fat_name_valid(u"a?", 2));
	EXPECT(!fat_name_valid(u"a\x01", 2));
	EXPECT(!fat_name_valid(u"", 0));
	EXPECT(!fat_name_valid(u"abc.", 4)); /* callers trim first */
}

TEST(fat_short_names_shown)
{
	CHAR16 out[13];

	EXPECT_EQ(fat_short_display(uc, (const UINT8 *)"README  TXT", 0, out), 10);
	EXPECT(str16_cmp(out, u"README.TXT") == 0);
	fat_short_display(uc, (const UINT8 *)"README  TXT", 0x18, out);
	EXPECT(str16_cmp(out, u"readme.txt") == 0);
	fat_short_display(uc, (const UINT8 *)"README  TXT", 0x10, out);
	EXPECT(str16_cmp(out, u"README.txt") == 0);
	fat_short_display(uc, (const UINT8 *)"MAKEFILE   ", 0x08, out);
	EXPECT(str16_cmp(out, u"makefile") == 0);
	fat_short_display(uc,
			  (const UINT8 *)"\x05"
					 "BC     E  ",
			  0, out);
	EXPECT(str16_cmp(out, u"\u03c3BC.E") == 0); /* 0x05 stands for 0xe5 */
	fat_short_display(uc, (const UINT8 *)"..         ", 0, out);
	EXPECT(str16_cmp(out, u"..") == 0);
	fat_short_display(uc, (const UINT8 *)"CAF\x90    TXT", 0x18, out);
	EXPECT(str16_cmp(out, u"caf\u00e9.txt") == 0);
}

TEST(fat_lfn_entries)
{
	struct fat_lfn e[3];
	CHAR16 units[13];
	const CHAR16 *name = u"Thirteen Char"; /* exactly 13 units */
	UINT8 sum = fat_lfn_checksum((const UINT8 *)"THIRTE~1   ");

	/* The checksum rotates right and adds each byte. */
	EXPECT_EQ(fat_lfn_checksum((const UINT8 *)"           "), 0xf7);
	EXPECT_EQ(fat_lfn_count(13), 1);
	EXPECT_EQ(fat_lfn_count(14), 2);
	EXPECT_EQ(fat_lfn_count(255), 20);
	fat_lfn_pack(name, 13, sum, e);
	EXPECT_EQ(e[0].order, 0x41);
	EXPECT_EQ(e[0].attr, FAT_ATTR_LFN);
	EXPECT_EQ(e[0].checksum, sum);
	fat_lfn_unpack(&e[0], units);
	EXPECT(memcmp(units, name, 26) == 0); /* no terminator when it fills the entry */
	fat_lfn_pack(u"Fourteen Chars", 14, sum, e);
	EXPECT_EQ(e[0].order, 0x42);
	EXPECT_EQ(e[1].order, 0x01);
	fat_lfn_unpack(&e[1], units);
	EXPECT(memcmp(units, u"Fourteen Char", 26) == 0);
	fat_lfn_unpack(&e[0], units);
	EXPECT_EQ(units[0], u's');
	EXPECT_EQ(units[1], 0);
	EXPECT_EQ(units[2], 0xffff);
	EXPECT_EQ(units[12], 0xffff);
	EXPECT_EQ(e[0].cluster, 0);
}

TEST(fat_times)
{
	EFI_TIME t = {.Year = 2024,
		      .Month = 2,
		      .Day = 29,
		      .Hour = 13,
		      .Minute = 59,
		      .Second = 31,
		      .Nanosecond = 250000000};
	EFI_TIME back;
	UINT16 date, time;
	UINT8 tenths;

	fat_time_encode(&t, &date, &time, &tenths);
	EXPECT_EQ(date, (2024 - 1980) << 9 | 2 << 5 | 29);
	EXPECT_EQ(time, 13 << 11 | 59 << 5 | 15);
	EXPECT_EQ(tenths, 125);
	fat_time_decode(date, time, tenths, &back);
	EXPECT(back.Year == 2024 && back.Month == 2 && back.Day == 29 && back.Hour == 13 &&
	       back.Minute == 59 && back.Second == 31 && back.Nanosecond == 250000000);
	EXPECT_EQ(back.TimeZone, EFI_UNSPECIFIED_TIMEZONE);
	t.Year = 1970;
	fat_time_encode(&t, &date, &time, &tenths);
	EXPECT_EQ(date, 1 << 5 | 1);
	t.Year = 2200;
	fat_time_encode(&t, &date, &time, &tenths);
	EXPECT_EQ(date >> 9, 127);
	fat_time_decode(0, 0, 0, &back);
	EXPECT(mem_is_zero(&back, sizeof(back)));
	fat_time_decode((44 << 9) | (2 << 5) | 30, 0, 0, &back); /* 30 February */
	EXPECT(mem_is_zero(&back, sizeof(back)));
	fat_time_decode((44 << 9) | (13 << 5) | 1, 0, 0, &back);
	EXPECT(mem_is_zero(&back, sizeof(back)));
}
