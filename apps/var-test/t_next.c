/* GetNextVariableName (8.2.2). */
#define APP_TEST_SUITE "20_next"
#include "var_test.h"

APP_TEST(next_lists_every_variable_once)
{
	static const CHAR16 *const names[] = {u"VtNextA", u"VtNextB", u"VtNextLongerName"};
	CHAR16 buf[256];
	EFI_GUID g;
	UINTN size, seen[3] = {0}, total = 0;

	for (int i = 0; i < 3; i++)
		CHECK_STATUS(
		    vt_set(names[i], i == 1 ? &vt_guid2 : &vt_guid, i == 2 ? BR : NB, 1, "x"),
		    EFI_SUCCESS);
	buf[0] = 0;
	for (;;) {
		size = sizeof(buf);
		EFI_STATUS status = app_rt->GetNextVariableName(&size, buf, &g);
		if (status != EFI_SUCCESS) {
			CHECK_STATUS(status, EFI_NOT_FOUND);
			break;
		}
		/* On success VariableNameSize is the size of the name returned. */
		CHECK_EQ(size, str16_size(buf));
		total++;
		for (int i = 0; i < 3; i++)
			if (!str16_cmp(buf, names[i]))
				seen[i]++;
		if (total > 10000)
			break;
	}
	CHECK(total >= 3 && total < 10000);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(seen[i], 1);
		vt_remove(names[i], i == 1 ? &vt_guid2 : &vt_guid);
	}
}

APP_TEST(next_buffer_too_small_reports_the_size)
{
	CHAR16 buf[256];
	EFI_GUID g;
	UINTN size;

	/* A buffer that holds only the empty name: the first variable does not fit. */
	buf[0] = 0;
	size = sizeof(CHAR16);
	if (!CHECK_STATUS(app_rt->GetNextVariableName(&size, buf, &g), EFI_BUFFER_TOO_SMALL))
		return;
	CHECK(size > sizeof(CHAR16) && size <= sizeof(buf));
	UINTN needed = size;
	size = sizeof(buf);
	CHECK_STATUS(app_rt->GetNextVariableName(&size, buf, &g), EFI_SUCCESS);
	CHECK_EQ(size, needed);
	CHECK_EQ(str16_size(buf), needed);
}

APP_TEST(next_invalid_parameters)
{
	CHAR16 buf[64];
	EFI_GUID g = vt_guid;
	UINTN size = sizeof(buf);

	buf[0] = 0;
	CHECK_STATUS(app_rt->GetNextVariableName(NULL, buf, &g), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->GetNextVariableName(&size, NULL, &g), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->GetNextVariableName(&size, buf, NULL), EFI_INVALID_PARAMETER);
}

APP_TEST(next_needs_an_existing_variable)
{
	CHAR16 buf[64];
	EFI_GUID g = vt_guid;
	UINTN size = sizeof(buf);

	/* UEFI 2.10: "The input values of VariableName and VendorGuid are not a name and GUID
	 * of an existing variable" is EFI_INVALID_PARAMETER. */
	str16_copy(buf, u"VtNoSuchVariable");
	CHECK_STATUS(app_rt->GetNextVariableName(&size, buf, &g), EFI_INVALID_PARAMETER);
	if (!CHECK_STATUS(vt_set(u"VtNext", &vt_guid, NB, 1, "x"), EFI_SUCCESS))
		return;
	str16_copy(buf, u"VtNext");
	g = vt_guid2;
	size = sizeof(buf);
	CHECK_STATUS(app_rt->GetNextVariableName(&size, buf, &g), EFI_INVALID_PARAMETER);
	g = vt_guid;
	size = sizeof(buf);
	CHECK_STATUS2(app_rt->GetNextVariableName(&size, buf, &g), EFI_SUCCESS, EFI_NOT_FOUND);
	vt_remove(u"VtNext", &vt_guid);
}

APP_TEST(next_needs_a_terminator_within_the_size)
{
	CHAR16 buf[64];
	EFI_GUID g = vt_guid;
	UINTN size;

	if (!CHECK_STATUS(vt_set(u"VtNext", &vt_guid, NB, 1, "x"), EFI_SUCCESS))
		return;
	str16_copy(buf, u"VtNext");
	/* The name's terminator lies beyond VariableNameSize. */
	size = 6;
	CHECK_STATUS(app_rt->GetNextVariableName(&size, buf, &g), EFI_INVALID_PARAMETER);
	vt_remove(u"VtNext", &vt_guid);
}
