/* The reading of HII configuration strings (core/hii/config_string.c). */
#include <stdio.h>
#include <string.h>
#include "support/test.h"
#include <ember/core/hii_config.h>

/* GUID {0x01020304, 0x0506, 0x0708, {9..16}} as the spec writes it: bytes in memory order. */
#define GUID_HEX "04030201060508070910111213141516"
#define PATH_HEX "7fff0400"

static CHAR16 wide[512];

static size_t widen(const char *text)
{
	size_t n = strlen(text);

	for (size_t i = 0; i <= n; i++)
		wide[i] = (CHAR16)(unsigned char)text[i];
	return n;
}

static bool header_of(const char *text, struct hii_cfg *c, struct hii_cfg_hdr *h)
{
	hii_cfg_init(c, wide, widen(text));
	return hii_cfg_header(c, h);
}

TEST(hii_cfg_header_fields)
{
	static const CHAR16 name[] = {'A', 'b', 0};
	struct hii_cfg c;
	struct hii_cfg_hdr h;
	UINT8 path[4];

	ASSERT(header_of("GUID=" GUID_HEX "&NAME=00410062&PATH=" PATH_HEX, &c, &h));
	EXPECT_EQ(h.guid.Data1, 0x01020304u);
	EXPECT_EQ(h.guid.Data4[7], 0x16);
	EXPECT(hii_cfg_name_is(wide, &h, name));
	EXPECT(!hii_cfg_name_is(wide, &h, (const CHAR16[]){'A', 0}));
	EXPECT(hii_cfg_hex_bytes(wide + h.path_at, h.path_len, path, sizeof(path)));
	EXPECT_EQ(path[0], 0x7f);
	EXPECT_EQ(path[2], 4);
	EXPECT(hii_cfg_done(&c) && !h.has_alt);
}

TEST(hii_cfg_block_elements)
{
	struct hii_cfg c;
	struct hii_cfg_hdr h;
	struct hii_cfg_elem e;
	UINT8 v[4];

	ASSERT(header_of("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX
			 "&OFFSET=0&WIDTH=1&VALUE=7&OFFSET=1a&WIDTH=4&VALUE=0A0b0c0d&lbl=x",
			 &c, &h));
	ASSERT_EQ(hii_cfg_element(&c, &e), 1);
	EXPECT(e.block && e.offset == 0 && e.width == 1 && e.has_value);
	EXPECT(hii_cfg_value(wide + e.value_at, e.value_len, v, 1) && v[0] == 7);
	ASSERT_EQ(hii_cfg_element(&c, &e), 1);
	EXPECT(e.offset == 0x1a && e.width == 4);
	/* The most significant digit first: byte 0 is the last pair. */
	EXPECT(hii_cfg_value(wide + e.value_at, e.value_len, v, 4) && v[0] == 0x0d && v[3] == 0x0a);
	ASSERT_EQ(hii_cfg_element(&c, &e), 1);
	EXPECT(!e.block && e.label_len == 3 && e.has_value && e.value_len == 1);
	EXPECT_EQ(hii_cfg_element(&c, &e), 0);
}

TEST(hii_cfg_multi_and_alt)
{
	struct hii_cfg c;
	struct hii_cfg_hdr h;
	struct hii_cfg_elem e;

	ASSERT(header_of("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=0&WIDTH=1"
			 "&GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&ALTCFG=0001&OFFSET=2&WIDTH=2",
			 &c, &h));
	ASSERT_EQ(hii_cfg_element(&c, &e), 1);
	EXPECT(!e.has_value);
	ASSERT_EQ(hii_cfg_element(&c, &e), 0);
	ASSERT(hii_cfg_header(&c, &h));
	EXPECT(h.has_alt && h.alt_id == 1);
	ASSERT_EQ(hii_cfg_element(&c, &e), 1);
	EXPECT(e.offset == 2 && e.width == 2);
	EXPECT_EQ(hii_cfg_element(&c, &e), 0);
	EXPECT(hii_cfg_done(&c));
}

TEST(hii_cfg_put_hex_forms)
{
	static const UINT8 bytes[] = {0x01, 0xab};
	CHAR16 out[4];

	hii_cfg_put_hex(out, bytes, 2, false);
	EXPECT(out[0] == '0' && out[1] == '1' && out[2] == 'a' && out[3] == 'b');
	hii_cfg_put_hex(out, bytes, 2, true);
	EXPECT(out[0] == 'a' && out[3] == '1');
}

/* Each malformed string is refused, and the place reported is inside the string. */
TEST(hii_cfg_refused)
{
	static const char *const bad_headers[] = {
	    "",
	    "GUID=0403&NAME=&PATH=" PATH_HEX,
	    "GUID=" GUID_HEX "&PATH=" PATH_HEX,
	    "GUID=" GUID_HEX "&NAME=004&PATH=" PATH_HEX,
	    "GUID=" GUID_HEX "&NAME=&PATH=7ff",
	    "GUID=" GUID_HEX "&NAME=&PATH=",
	    "GUID=" GUID_HEX "&NAME=&PATH=zz",
	    "GUID=" GUID_HEX "&NAME=",
	    "GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&ALTCFG=12",
	    "GUID=0403020106050807091011121314151g&NAME=&PATH=" PATH_HEX,
	};
	static const char *const bad_bodies[] = {
	    "&OFFSET=&WIDTH=1",
	    "&OFFSET=1",
	    "&OFFSET=1&WIDTH=0",
	    "&OFFSET=1&WIDTH=10000",
	    "&OFFSET=1&WIDTH=1&VALUE=123",
	    "&OFFSET=1&WIDTH=1&VALUE=",
	    "&WIDTH=1",
	    "&",
	    "&&OFFSET=1&WIDTH=1",
	    "&OFFSET=11111111111111111&WIDTH=1",
	    "&OFFSET=100000000&WIDTH=1",
	    "&=5",
	    "&OFFSET=1&WIDTH=1&VALUE=x",
	};
	struct hii_cfg c;
	struct hii_cfg_hdr h;
	struct hii_cfg_elem e;
	char text[256];

	for (size_t i = 0; i < sizeof(bad_headers) / sizeof(*bad_headers); i++) {
		EXPECT(!header_of(bad_headers[i], &c, &h));
		EXPECT(c.problem && c.at <= c.len);
	}
	for (size_t i = 0; i < sizeof(bad_bodies) / sizeof(*bad_bodies); i++) {
		int r = 1;

		snprintf(text, sizeof(text), "GUID=%s&NAME=&PATH=%s%s", GUID_HEX, PATH_HEX,
			 bad_bodies[i]);
		ASSERT(header_of(text, &c, &h));
		while (r == 1)
			r = hii_cfg_element(&c, &e);
		EXPECT(r == -1);
		EXPECT(c.problem && c.at <= c.len);
	}
}

/* The length given bounds the parse: text beyond it is never read. */
TEST(hii_cfg_bounded)
{
	struct hii_cfg c;
	struct hii_cfg_hdr h;
	const char *text = "GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=1&WIDTH=1";

	widen(text);
	for (size_t cut = 0; cut < strlen(text); cut++) {
		struct hii_cfg_elem e;
		bool ok;

		hii_cfg_init(&c, wide, cut);
		ok = hii_cfg_header(&c, &h);
		if (ok) {
			int r = hii_cfg_element(&c, &e);

			EXPECT(r != 1 ||
			       (e.block ? e.start < cut : e.label_at + e.label_len <= cut));
		}
		EXPECT(c.at <= cut);
	}
}
