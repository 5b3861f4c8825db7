/* The setup screen's package builder (apps/setup/pure/ifr_build.c, str_build.c): what it
 * builds is read back by Ember's own IFR reader and package checks (core/hii), and it
 * refuses, without writing past them, buffers that are too small. */
#include <string.h>
#include "support/test.h"
#include "../../apps/setup/pure/ifr_build.h"
#include <ember/core/hii_ifr.h>
#include <ember/core/hii_packages.h>

#define CAP 64

static struct ifr_form forms[CAP];
static struct ifr_statement stmts[CAP];
static struct ifr_option options[CAP];
static struct ifr_varstore stores[CAP];
static struct ifr_formset fs = {
    .cap = CAP, .forms = forms, .stmts = stmts, .options = options, .stores = stores};
static const EFI_GUID guid = {0x11223344, 0x5566, 0x7788, {1, 2, 3, 4, 5, 6, 7, 8}};

static struct ifrb_question q(EFI_QUESTION_ID id, EFI_VARSTORE_ID store, UINT16 offset)
{
	return (struct ifrb_question){10, 11, id, store, offset, 0};
}

/* A form set with every opcode the builder has, over one varstore of 16 bytes. */
static size_t build(UINT8 *buf, size_t room)
{
	struct ifrb b;
	struct ifrb_question c = q(1, 1, 0), n = q(2, 1, 2), o = q(3, 1, 4), s = q(4, 1, 6),
			     g = q(5, 0, 0), a = q(6, 0, 0);

	ifrb_init(&b, buf, room);
	ifrb_form_set(&b, &guid, 1, 2);
	ifrb_varstore(&b, &guid, 1, 16, "Store");
	ifrb_form(&b, 1, 3);
	ifrb_subtitle(&b, 4);
	ifrb_text(&b, 5, 6, 7);
	ifrb_checkbox(&b, &c);
	ifrb_numeric(&b, &n, 2, 1, 300, 5);
	ifrb_one_of(&b, &o, 1);
	ifrb_option(&b, 8, 1, 0, false);
	ifrb_option(&b, 9, 1, 7, true);
	ifrb_end(&b);
	ifrb_string(&b, &s, 1, 4);
	ifrb_goto(&b, &g, 2);
	ifrb_action(&b, &a);
	ifrb_end(&b);
	ifrb_form(&b, 2, 12);
	ifrb_end(&b);
	ifrb_end(&b);
	return ifrb_done(&b);
}

TEST(setup_ifr_build_read_back)
{
	static UINT8 pkg[512];
	size_t size = build(pkg, sizeof(pkg));
	const struct ifr_statement *st;
	const struct ifr_form *f;

	ASSERT(size > 4);
	EXPECT_EQ(pkg[3], EFI_HII_PACKAGE_FORMS);
	EXPECT_EQ(pkg[0] | pkg[1] << 8 | pkg[2] << 16, size);
	EXPECT(hii_package_check(pkg, size) == NULL);
	ASSERT(ifr_parse(pkg, size, &guid, &fs) == NULL);
	EXPECT(fs.title == 1 && fs.help == 2 && fs.form_count == 2 && fs.store_count == 1);
	EXPECT(stores[0].size == 16 && stores[0].name[0] == 'S' && stores[0].name[5] == 0);
	f = ifr_form_find(&fs, 1);
	ASSERT(f && f->count == 8 && f->title == 3);
	st = &stmts[f->first];
	EXPECT(st[0].kind == IFR_SUBTITLE && st[0].prompt == 4);
	EXPECT(st[1].kind == IFR_TEXT && st[1].text_two == 7);
	EXPECT(st[2].kind == IFR_CHECKBOX && st[2].question_id == 1 && st[2].var_offset == 0);
	EXPECT(st[3].kind == IFR_NUMERIC && st[3].width == 2 && st[3].min == 1);
	EXPECT(st[3].max == 300 && st[3].step == 5 && st[3].var_offset == 2);
	EXPECT(st[4].kind == IFR_ONE_OF && st[4].option_count == 2 && st[4].width == 1);
	EXPECT(options[st[4].first_option + 1].value == 7 && st[4].has_default);
	EXPECT(st[4].default_value == 7);
	EXPECT(st[5].kind == IFR_STRING && st[5].min_len == 1 && st[5].max_len == 4);
	EXPECT(st[5].width == 8);
	EXPECT(st[6].kind == IFR_GOTO && st[6].form_id == 2);
	EXPECT(st[7].kind == IFR_ACTION && (st[7].question_flags & EFI_IFR_FLAG_CALLBACK));
	EXPECT(ifr_form_find(&fs, 2)->count == 0);
}

/* Every room shorter than the package fails cleanly, and nothing is written past it. */
TEST(setup_ifr_build_bounded)
{
	static UINT8 full[512], cut[512];
	size_t size = build(full, sizeof(full));

	ASSERT(size > 0);
	for (size_t room = 0; room < size; room++) {
		memset(cut, 0xa5, sizeof(cut));
		EXPECT_EQ(build(cut, room), 0);
		for (size_t i = room; i < sizeof(cut); i++)
			ASSERT_EQ(cut[i], 0xa5);
	}
	EXPECT_EQ(build(cut, size), size);
	EXPECT(!memcmp(cut, full, size));
}

/* A varstore name too long for the opcode's one-byte length is refused. */
TEST(setup_ifr_build_long_varstore_name)
{
	static UINT8 buf[512];
	char name[120];
	struct ifrb b;

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	ifrb_init(&b, buf, sizeof(buf));
	ifrb_varstore(&b, &guid, 1, 4, name);
	EXPECT_EQ(ifrb_done(&b), 0);
}

/* Strings: ids from 1 ("English" names the language), read back by the HII string code. */
TEST(setup_ifr_build_strings)
{
	static UINT8 pkg[256];
	struct strb s;
	struct hii_string_ref ref;
	const UINT8 *blocks;
	CHAR16 text[32];
	size_t size, n;

	strb_init(&s, pkg, sizeof(pkg));
	EXPECT_EQ(strb_add(&s, "Boot options"), 2);
	EXPECT_EQ(strb_add16(&s, u"Beta"), 3);
	size = strb_done(&s);
	ASSERT(size > 0);
	EXPECT(hii_package_check(pkg, size) == NULL);
	EXPECT(!strcmp(hii_string_package_language(pkg), "en-US"));
	blocks = hii_string_package_blocks(pkg, &n);
	ASSERT(blocks && hii_string_find(blocks, n, 3, &ref));
	hii_string_decode(&ref, text, 32);
	EXPECT(text[0] == 'B' && text[3] == 'a' && text[4] == 0);
	ASSERT(hii_string_find(blocks, n, 2, &ref));
	hii_string_decode(&ref, text, 32);
	EXPECT(text[0] == 'B' && text[11] == 's' && text[12] == 0);
	/* Full: no id, and the package is refused. */
	strb_init(&s, pkg, 60);
	EXPECT_EQ(strb_add(&s, "a string longer than the room left"), 0);
	EXPECT_EQ(strb_done(&s), 0);
}
