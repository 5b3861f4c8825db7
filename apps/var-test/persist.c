/* The modes that span processes: "write" stores variables, "read" (a later run on the same
 * store) checks them, "fresh" checks they are absent, "tool-check" checks what
 * ember-varstore set, "report" shows what an earlier "rules" run did after
 * ExitBootServices. tests/integration/test_variables.py knows these values too. */
#include "var_test.h"

#define BIG_SIZE 20000

static UINT8 *big_value(void)
{
	UINT8 *big = app_alloc(BIG_SIZE);

	for (UINTN i = 0; big && i < BIG_SIZE; i++)
		big[i] = (UINT8)(i * 7 + 3);
	return big;
}

void vt_write(void)
{
	UINT8 *big = big_value();

	CHECK_STATUS(vt_set(u"VtPersistNv", &vt_guid, NBR, 16, "persistent value"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtPersistBs", &vt_guid2, NB, 11, "boot only 1"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtPersistAppend", &vt_guid, NB, 5, "part1"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtPersistAppend", &vt_guid, NB | APPEND, 5, "part2"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtPersistGone", &vt_guid, NB, 4, "gone"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtPersistGone", &vt_guid, NB, 0, NULL), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtVolatile", &vt_guid, BR, 8, "volatile"), EFI_SUCCESS);
	if (CHECK(big))
		CHECK_STATUS(vt_set(u"VtPersistBig", &vt_guid, NB, BIG_SIZE, big), EFI_SUCCESS);
	app_free(big);
}

void vt_read(void)
{
	UINT8 *big = big_value(), *back = app_alloc(BIG_SIZE);
	UINTN size = BIG_SIZE;

	CHECK(vt_holds(u"VtPersistNv", &vt_guid, NBR, "persistent value", 16));
	CHECK(vt_holds(u"VtPersistBs", &vt_guid2, NB, "boot only 1", 11));
	CHECK(vt_holds(u"VtPersistAppend", &vt_guid, NB, "part1part2", 10));
	CHECK(!vt_exists(u"VtPersistGone", &vt_guid));
	CHECK(!vt_exists(u"VtVolatile", &vt_guid));
	if (CHECK(big && back) &&
	    CHECK_STATUS(vt_get(u"VtPersistBig", &vt_guid, NULL, &size, back), EFI_SUCCESS)) {
		CHECK_EQ(size, BIG_SIZE);
		CHECK(!mem_cmp(big, back, BIG_SIZE));
	}
	app_free(big);
	app_free(back);
}

void vt_fresh(void)
{
	CHECK(!vt_exists(u"VtPersistNv", &vt_guid));
	CHECK(!vt_exists(u"VtPersistBs", &vt_guid2));
	CHECK(!vt_exists(u"VtPersistAppend", &vt_guid));
	CHECK(!vt_exists(u"VtPersistBig", &vt_guid));
	CHECK(!vt_exists(u"VtVolatile", &vt_guid));
	/* The firmware's own variables are there all the same. */
	CHECK(vt_exists(u"PlatformLang", &vt_global));
	CHECK(vt_exists(u"PlatformLangCodes", &vt_global));
}

void vt_tool_check(void)
{
	static const CHAR16 text[] = u"set by ember-varstore";

	CHECK(vt_holds(u"VtFromTool", &vt_guid, NBR, text, sizeof(text)));
	CHECK(vt_holds(u"VtToolHex", &vt_guid2, NB, "\x01\x02\x03\xff", 4));
	CHECK(!vt_exists(u"VtToolDeleted", &vt_guid));
	CHECK(vt_holds(u"VtToolAscii", &vt_guid, NBR, "ascii", 6));
}

void vt_report(void)
{
	char log[512];
	UINTN size = sizeof(log) - 1;

	if (CHECK_STATUS(vt_get(u"VtRuntimeLog", &vt_guid, NULL, &size, log), EFI_SUCCESS)) {
		log[size] = 0;
		app_print("%s", log);
	}
	CHECK(vt_holds(u"VtRuntimeNv", &vt_guid, NBR, "set at runtime", 14));
	CHECK(vt_holds(u"VtRuntimeBs", &vt_guid, NB, "boot", 4));
	CHECK(!vt_exists(u"VtRuntimeVol", &vt_guid));
}
