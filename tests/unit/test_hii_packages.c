/* The checks of HII package lists and the walk of string blocks (core/hii/package_check.c,
 * core/hii/string_blocks.c). */
#include <stdlib.h>
#include <string.h>
#include "support/test.h"
#include "hii_builder.h"
#include <ember/core/hii_packages.h>

static const EFI_GUID list_guid = {0x11111111, 0x2222, 0x3333, {4, 5, 6, 7, 8, 9, 10, 11}};

static UINT32 sample_blocks(UINT8 *b)
{
	UINT32 n = 0;

	n += hb_ucs2_block(b + n, "one");		    /* 1 */
	b[n++] = EFI_HII_SIBT_SKIP1, b[n++] = 2;	    /* 2, 3 skipped */
	b[n++] = EFI_HII_SIBT_STRING_SCSU_FONT, b[n++] = 1; /* 4, in font 1 */
	memcpy(b + n, "four", 5), n += 5;
	b[n++] = EFI_HII_SIBT_DUPLICATE, b[n++] = 1, b[n++] = 0; /* 5 = 1 */
	b[n++] = EFI_HII_SIBT_EXT1, b[n++] = 0x77, b[n++] = 5, b[n++] = 0, b[n++] = 0;
	/* FONT 1: size 19, style 2, named "Ab". */
	memcpy(b + n,
	       "\x31\x40\x11\x00\x01\x13\x00\x02\x00\x00\x00"
	       "A\0b\0\0\0",
	       17),
	    n += 17;
	b[n++] = EFI_HII_SIBT_STRINGS_UCS2, b[n++] = 2, b[n++] = 0; /* 6, 7 */
	memcpy(b + n, "s\0i\0x\0\0\0s\0\0\0", 12), n += 12;
	b[n++] = EFI_HII_SIBT_END;
	return n;
}

static void text_of(const UINT8 *blocks, UINT32 size, EFI_STRING_ID id, char *out)
{
	struct hii_string_ref ref;
	CHAR16 wide[32];
	size_t units;

	out[0] = 0;
	if (!hii_string_find(blocks, size, id, &ref))
		return;
	units = hii_string_decode(&ref, wide, 32);
	for (size_t i = 0; i < units; i++)
		out[i] = (char)wide[i];
}

TEST(hii_string_blocks_ids)
{
	UINT8 b[128];
	UINT32 n = sample_blocks(b);
	EFI_STRING_ID last = 0;
	char text[32];

	EXPECT(hii_string_blocks_walk(b, n, NULL, NULL, &last) == NULL);
	EXPECT_EQ(last, 7);
	text_of(b, n, 1, text);
	EXPECT(!strcmp(text, "one"));
	text_of(b, n, 2, text);
	EXPECT(!strcmp(text, ""));
	text_of(b, n, 4, text);
	EXPECT(!strcmp(text, "four"));
	text_of(b, n, 5, text);
	EXPECT(!strcmp(text, "one"));
	text_of(b, n, 6, text);
	EXPECT(!strcmp(text, "six"));
	text_of(b, n, 7, text);
	EXPECT(!strcmp(text, "s"));
	text_of(b, n, 8, text);
	EXPECT(!strcmp(text, ""));
}

TEST(hii_string_font_block)
{
	UINT8 b[128];
	UINT32 n = sample_blocks(b), font_end;
	struct hii_font_ref font;

	ASSERT(hii_string_font(b, n, 1, &font));
	font_end = (UINT32)(font.name - b) + 6; /* past the name's terminator */
	EXPECT_EQ(font.size, 19);
	EXPECT_EQ(font.style, 2);
	EXPECT_EQ(font.name_bytes, 4);
	EXPECT(!memcmp(font.name, "A\0b\0", 4));
	EXPECT(!hii_string_font(b, n, 2, &font));
	/* A name not terminated inside its block is no font. */
	b[font_end - 2] = 'x';
	EXPECT(!hii_string_font(b, n, 1, &font));
}

TEST(hii_string_blocks_refused)
{
	UINT8 b[128];
	UINT32 n = sample_blocks(b);

	/* Every cut before the END block leaves a block or a string unfinished. */
	for (UINT32 cut = 0; cut < n; cut++)
		EXPECT(hii_string_blocks_walk(b, cut, NULL, NULL, NULL) != NULL);
	/* A duplicate of a later id, an EXT block longer than the data, an unknown type. */
	EXPECT(hii_string_blocks_walk((const UINT8 *)"\x20\x01\x00\x00", 4, NULL, NULL, NULL));
	EXPECT(hii_string_blocks_walk((const UINT8 *)"\x30\x40\x09\x00", 4, NULL, NULL, NULL));
	EXPECT(hii_string_blocks_walk((const UINT8 *)"\x31\x40\x01\x00\x00", 5, NULL, NULL, NULL));
	EXPECT(hii_string_blocks_walk((const UINT8 *)"\x01\x00", 2, NULL, NULL, NULL));
	/* An odd-length UCS-2 string never finds its terminator. */
	EXPECT(hii_string_blocks_walk((const UINT8 *)"\x14\x41\x00\x00", 4, NULL, NULL, NULL));
}

TEST(hii_scsu_controls_replaced)
{
	struct hii_string_ref ref = {.text = (const UINT8 *)"a\x05\xe9", .bytes = 3};
	CHAR16 out[4];

	EXPECT_EQ(hii_string_decode(&ref, out, 4), 4);
	EXPECT_EQ(out[0], 'a');
	EXPECT_EQ(out[1], 0xfffd);
	EXPECT_EQ(out[2], 0xe9);
	EXPECT_EQ(out[3], 0);
	/* Too small: the units needed, nothing written past the room. */
	out[1] = 0x1234;
	EXPECT_EQ(hii_string_decode(&ref, out, 1), 4);
	EXPECT_EQ(out[1], 0x1234);
}

TEST(hii_package_list_good)
{
	static struct hii_builder b;
	UINT8 blocks[128], keyboard[2 + 23 + 16] = {1, 0, 23 + 16, 0};
	UINT32 n = sample_blocks(blocks);

	keyboard[2 + 22] = 1; /* one descriptor */
	hb_begin(&b, &list_guid);
	hb_strings(&b, "en-US;x-test", blocks, n);
	hb_package(&b, EFI_HII_PACKAGE_TYPE_GUID, &list_guid, sizeof(list_guid));
	hb_package(&b, EFI_HII_PACKAGE_KEYBOARD_LAYOUT, keyboard, sizeof(keyboard));
	hb_package(&b, EFI_HII_PACKAGE_FORMS, "\x0e\x02\x29\x02", 4);
	hb_package(&b, 0xe5, "opaque", 6);
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) == NULL);
	EXPECT(hii_package_list_check(b.buf, b.len + 10) == NULL);
	/* Shorter than PackageLength says, or cut anywhere: refused. */
	for (UINT32 cut = 0; cut < b.len; cut++)
		EXPECT(hii_package_list_check(b.buf, cut) != NULL);
}

TEST(hii_package_list_refused)
{
	static struct hii_builder b;

	/* No END package. */
	hb_begin(&b, &list_guid);
	hb_package(&b, EFI_HII_PACKAGE_TYPE_GUID, &list_guid, sizeof(list_guid));
	memcpy(b.buf + 16, &b.len, 4);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
	/* A reserved package type. */
	hb_begin(&b, &list_guid);
	hb_package(&b, 0x03, "x", 1);
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
	/* Data after END. */
	hb_begin(&b, &list_guid);
	hb_end(&b);
	hb_package(&b, 0xe0, NULL, 0);
	memcpy(b.buf + 16, &b.len, 4);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
	/* An IFR opcode of length 1, a GUID package without its GUID. */
	hb_begin(&b, &list_guid);
	hb_package(&b, EFI_HII_PACKAGE_FORMS, "\x0e\x01", 2);
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
	hb_begin(&b, &list_guid);
	hb_package(&b, EFI_HII_PACKAGE_TYPE_GUID, "abc", 3);
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
	/* A keyboard layout whose descriptors run past it. */
	hb_begin(&b, &list_guid);
	hb_package(&b, EFI_HII_PACKAGE_KEYBOARD_LAYOUT,
		   "\x01\x00\x17\x00................\x00\x00\x00\x00\x02", 25);
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
	/* A device path package without a device path (found by fuzz_hii_packages: the check
	 * read past the package). */
	hb_begin(&b, &list_guid);
	hb_package(&b, EFI_HII_PACKAGE_DEVICE_PATH, NULL, 0);
	hb_end(&b);
	{
		/* Exactly the list's bytes, so that ASan sees a read past them. */
		UINT8 *exact = malloc(b.len);

		ASSERT(exact != NULL);
		memcpy(exact, b.buf, b.len);
		EXPECT(hii_package_list_check(exact, b.len) != NULL);
		free(exact);
	}
	hb_begin(&b, &list_guid);
	hb_package(&b, EFI_HII_PACKAGE_DEVICE_PATH, "\x7f\xff\x04\x00", 4);
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) == NULL);
	/* A string package whose language is not terminated in its header. */
	hb_begin(&b, &list_guid);
	hb_strings(&b, "en", (const UINT8 *)"\x00", 1);
	b.buf[sizeof(EFI_HII_PACKAGE_LIST_HEADER) + EFI_HII_STRING_PACKAGE_FIXED_SIZE + 2] = 'x';
	hb_end(&b);
	EXPECT(hii_package_list_check(b.buf, b.len) != NULL);
}
