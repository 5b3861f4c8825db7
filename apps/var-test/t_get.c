/* GetVariable (8.2.1). */
#define APP_TEST_SUITE "10_get"
#include "var_test.h"

APP_TEST(get_returns_data_and_attributes)
{
	UINT8 buf[16];
	UINTN size = sizeof(buf);
	UINT32 attributes = 0;

	if (!CHECK_STATUS(vt_set(u"VtGet", &vt_guid, NB, 5, "hello"), EFI_SUCCESS))
		return;
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, &attributes, &size, buf), EFI_SUCCESS);
	CHECK_EQ(size, 5);
	CHECK_EQ(attributes, NB);
	CHECK(!mem_cmp(buf, "hello", 5));
	/* Attributes is optional. */
	size = sizeof(buf);
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, NULL, &size, buf), EFI_SUCCESS);
	vt_remove(u"VtGet", &vt_guid);
}

APP_TEST(get_buffer_too_small_reports_the_size)
{
	UINT8 buf[16];
	UINTN size = 0;
	UINT32 attributes = 0;

	if (!CHECK_STATUS(vt_set(u"VtGet", &vt_guid, NBR, 9, "123456789"), EFI_SUCCESS))
		return;
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, &attributes, &size, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, 9);
	/* 8.2.1: Attributes is set on EFI_BUFFER_TOO_SMALL as well. */
	CHECK_EQ(attributes, NBR);
	size = 8;
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, NULL, &size, buf), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, 9);
	size = 9;
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, NULL, &size, buf), EFI_SUCCESS);
	vt_remove(u"VtGet", &vt_guid);
}

APP_TEST(get_invalid_parameters)
{
	UINT8 buf[16];
	UINTN size = sizeof(buf);

	if (!CHECK_STATUS(vt_set(u"VtGet", &vt_guid, NB, 1, "x"), EFI_SUCCESS))
		return;
	CHECK_STATUS(vt_get(NULL, &vt_guid, NULL, &size, buf), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_get(u"VtGet", NULL, NULL, &size, buf), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, NULL, NULL, buf), EFI_INVALID_PARAMETER);
	/* DataSize is large enough but Data is NULL. */
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid, NULL, &size, NULL), EFI_INVALID_PARAMETER);
	vt_remove(u"VtGet", &vt_guid);
}

APP_TEST(get_not_found)
{
	UINT8 buf[16];
	UINTN size = sizeof(buf);

	CHECK_STATUS(vt_get(u"VtNoSuchVariable", &vt_guid, NULL, &size, buf), EFI_NOT_FOUND);
	if (!CHECK_STATUS(vt_set(u"VtGet", &vt_guid, NB, 1, "x"), EFI_SUCCESS))
		return;
	/* The GUID is part of the name. */
	CHECK_STATUS(vt_get(u"VtGet", &vt_guid2, NULL, &size, buf), EFI_NOT_FOUND);
	/* Names compare exactly. */
	CHECK_STATUS(vt_get(u"vtget", &vt_guid, NULL, &size, buf), EFI_NOT_FOUND);
	CHECK_STATUS(vt_get(u"VtGe", &vt_guid, NULL, &size, buf), EFI_NOT_FOUND);
	CHECK_STATUS(vt_get(u"", &vt_guid, NULL, &size, buf), EFI_NOT_FOUND);
	vt_remove(u"VtGet", &vt_guid);
}
