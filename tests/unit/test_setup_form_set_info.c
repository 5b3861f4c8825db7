/* The setup screen's reader of other drivers' form sets (apps/setup/pure/form_set_info.c):
 * the GUID and title of the first form set of an exported package list, found after other
 * packages and other opcodes; lists cut short or with lengths that lie are refused. */
#include <string.h>
#include "support/test.h"
#include "../../apps/setup/pure/form_set_info.h"
#include "../../apps/setup/pure/ifr_build.h"

static const EFI_GUID guid = {0xa1b2c3d4, 0x1122, 0x3344, {5, 6, 7, 8, 9, 10, 11, 12}};

static void put32(UINT8 *p, UINT32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (UINT8)(v >> (8 * i));
}

/* A package list: header, a strings-typed filler package, the forms package, END. */
static size_t list(UINT8 *out, size_t room)
{
	UINT8 forms[128];
	struct ifrb b;
	size_t n = 20, forms_size;

	ifrb_init(&b, forms, sizeof(forms));
	ifrb_form_set(&b, &guid, 7, 8);
	ifrb_form(&b, 1, 9);
	ifrb_end(&b);
	ifrb_end(&b);
	forms_size = ifrb_done(&b);
	ASSERT(forms_size && 20 + 8 + forms_size + 4 <= room);
	memset(out, 0, 20);
	put32(out + n, 8 | (UINT32)EFI_HII_PACKAGE_STRINGS << 24); /* 4 bytes of filler */
	n += 8;
	memcpy(out + n, forms, forms_size);
	n += forms_size;
	put32(out + n, 4 | (UINT32)EFI_HII_PACKAGE_END << 24);
	n += 4;
	put32(out + 16, (UINT32)n);
	return n;
}

TEST(setup_form_set_info_reads_guid_and_title)
{
	UINT8 buf[256];
	size_t size = list(buf, sizeof(buf));
	struct form_set_info info;

	ASSERT(form_set_info(buf, size, &info));
	EXPECT(!memcmp(&info.guid, &guid, sizeof(guid)));
	EXPECT_EQ(info.title, 7);
}

TEST(setup_form_set_info_refuses_what_does_not_hold)
{
	UINT8 buf[256];
	size_t size = list(buf, sizeof(buf));
	struct form_set_info info;

	/* Every cut short: the list's own length is then beyond the bytes given. */
	for (size_t cut = 0; cut < size; cut++)
		EXPECT(!form_set_info(buf, cut, &info));
	/* A package longer than the list. */
	put32(buf + 20, 0x1000 | (UINT32)EFI_HII_PACKAGE_STRINGS << 24);
	EXPECT(!form_set_info(buf, size, &info));
	/* No forms package before END. */
	size = list(buf, sizeof(buf));
	buf[28 + 3] = EFI_HII_PACKAGE_END;
	EXPECT(!form_set_info(buf, size, &info));
	/* An opcode of length 0 or 1 in the forms package. */
	size = list(buf, sizeof(buf));
	buf[32 + 1] = 1;
	EXPECT(!form_set_info(buf, size, &info));
}
