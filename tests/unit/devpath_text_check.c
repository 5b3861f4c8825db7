/* Helpers shared by the device path tests (declared where they are used). */
#include "devpath_text_check.h"
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>

bool dpt_str16_eq(const CHAR16 *a, const CHAR16 *b)
{
	return a && b && str16_cmp(a, b) == 0;
}

void dpt_print16(const char *prefix, const CHAR16 *s)
{
	char buf[1024];

	if (!s) {
		printf("%s(null)\n", prefix);
		return;
	}
	ucs2_to_utf8(buf, sizeof(buf), s, str16_len(s));
	printf("%s%s\n", prefix, buf);
}

/* Reports a text mismatch with the case that caused it. */
static bool text_matches(const CHAR16 *in, const CHAR16 *got, const CHAR16 *want)
{
	if (EXPECT(dpt_str16_eq(got, want)))
		return true;
	dpt_print16("    input:    ", in);
	dpt_print16("    got:      ", got);
	dpt_print16("    expected: ", want);
	return false;
}

/* Text -> binary -> text (compared with expected) -> binary (compared with the first). */
void dpt_check_round_trip(const CHAR16 *in, const CHAR16 *expected, bool display, bool shortcuts)
{
	EFI_DEVICE_PATH_PROTOCOL *first = dp_from_text(in), *second = NULL;
	CHAR16 *text = NULL;
	UINTN size;

	if (!EXPECT(first != NULL)) {
		dpt_print16("    refused:  ", in);
		return;
	}
	size = dp_size(first);
	EXPECT(dp_is_valid(first, size));
	text = dp_to_text(first, display, shortcuts);
	text_matches(in, text, expected);
	if (text && !display) {
		second = dp_from_text(text);
		if (!EXPECT(second && dp_size(second) == size && memcmp(first, second, size) == 0))
			dpt_print16("    binary differs after: ", text);
	}
	pool_free(second);
	pool_free(text);
	pool_free(first);
}

void dpt_check_to_text(const CHAR16 *in, const CHAR16 *expected, bool display, bool shortcuts)
{
	EFI_DEVICE_PATH_PROTOCOL *path = dp_from_text(in);
	CHAR16 *text;

	if (!EXPECT(path != NULL)) {
		dpt_print16("    refused:  ", in);
		return;
	}
	text = dp_to_text(path, display, shortcuts);
	text_matches(in, text, expected);
	pool_free(text);
	pool_free(path);
}

/* One binary node (len bytes): its text, and the text parses back to the same bytes. */
void dpt_check_node_bytes(const UINT8 *bytes, size_t len, const CHAR16 *expected)
{
	static const UINT8 end[] = {0x7f, 0xff, 0x04, 0x00};
	UINT8 *path = pool_alloc(len + sizeof(end));
	EFI_DEVICE_PATH_PROTOCOL *back = NULL;
	CHAR16 *text;

	ASSERT(path);
	memcpy(path, bytes, len);
	memcpy(path + len, end, sizeof(end));
	ASSERT(dp_is_valid((EFI_DEVICE_PATH_PROTOCOL *)path, len + sizeof(end)));
	text = dp_to_text((EFI_DEVICE_PATH_PROTOCOL *)path, false, true);
	text_matches(u"(binary)", text, expected);
	if (text) {
		back = dp_from_text(text);
		EXPECT(back && dp_size(back) == len + sizeof(end) &&
		       memcmp(back, path, len + sizeof(end)) == 0);
	}
	pool_free(back);
	pool_free(text);
	pool_free(path);
}
