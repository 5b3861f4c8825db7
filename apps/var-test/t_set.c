/* SetVariable (8.2.3): attributes, deletion, APPEND_WRITE, hardware error records. */
#define APP_TEST_SUITE "30_set"
#include "var_test.h"

APP_TEST(set_invalid_parameters)
{
	CHECK_STATUS(vt_set(NULL, &vt_guid, NB, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtSet", NULL, NB, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"", &vt_guid, NB, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtSet", &vt_guid, NB, 1, NULL), EFI_INVALID_PARAMETER);
	/* Runtime access implies boot-service access. */
	CHECK_STATUS(vt_set(u"VtSet", &vt_guid, EFI_VARIABLE_RUNTIME_ACCESS, 1, "x"),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtSet", &vt_guid,
			    EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_RUNTIME_ACCESS, 1, "x"),
		     EFI_INVALID_PARAMETER);
	CHECK(!vt_exists(u"VtSet", &vt_guid));
}

APP_TEST(set_updates_and_keeps_attributes)
{
	if (!CHECK_STATUS(vt_set(u"VtSet", &vt_guid, NBR, 3, "one"), EFI_SUCCESS))
		return;
	CHECK_STATUS(vt_set(u"VtSet", &vt_guid, NBR, 5, "three"), EFI_SUCCESS);
	CHECK(vt_holds(u"VtSet", &vt_guid, NBR, "three", 5));
	/* Different attributes for an existing variable: refused, the variable unchanged. */
	CHECK_STATUS(vt_set(u"VtSet", &vt_guid, NB, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtSet", &vt_guid, BR, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK(vt_holds(u"VtSet", &vt_guid, NBR, "three", 5));
	vt_remove(u"VtSet", &vt_guid);
}

APP_TEST(set_deletes)
{
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, NB, 0, NULL), EFI_NOT_FOUND);
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, 0, 0, NULL), EFI_NOT_FOUND);
	/* DataSize 0 deletes. */
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, NB, 2, "ab"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, NB, 0, NULL), EFI_SUCCESS);
	CHECK(!vt_exists(u"VtDel", &vt_guid));
	/* Attributes 0 deletes. */
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, BR, 2, "ab"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, 0, 0, NULL), EFI_SUCCESS);
	CHECK(!vt_exists(u"VtDel", &vt_guid));
	CHECK_STATUS(vt_set(u"VtDel", &vt_guid, 0, 0, NULL), EFI_NOT_FOUND);
}

APP_TEST(set_append_write)
{
	UINT8 buf[16];
	UINTN size = sizeof(buf);

	vt_remove(u"VtAppend", &vt_guid);
	CHECK_STATUS(vt_set(u"VtAppend", &vt_guid, NB | APPEND, 3, "abc"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"VtAppend", &vt_guid, NB | APPEND, 2, "de"), EFI_SUCCESS);
	/* APPEND_WRITE with no data changes nothing, and is no deletion. */
	CHECK_STATUS(vt_set(u"VtAppend", &vt_guid, NB | APPEND, 0, NULL), EFI_SUCCESS);
	CHECK_STATUS(vt_get(u"VtAppend", &vt_guid, NULL, &size, buf), EFI_SUCCESS);
	CHECK_EQ(size, 5);
	CHECK(!mem_cmp(buf, "abcde", 5));
	/* APPEND_WRITE is the one attribute that may differ from the variable's. */
	CHECK_STATUS(vt_set(u"VtAppend", &vt_guid, NBR | APPEND, 1, "f"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"VtAppend", &vt_guid, NB, 1, "z"), EFI_SUCCESS);
	CHECK(vt_holds(u"VtAppend", &vt_guid, NB, "z", 1));
	vt_remove(u"VtAppend", &vt_guid);
}

APP_TEST(set_volatile_and_guids_are_distinct)
{
	if (!CHECK_STATUS(vt_set(u"VtTwin", &vt_guid, BR, 3, "one"), EFI_SUCCESS))
		return;
	CHECK_STATUS(vt_set(u"VtTwin", &vt_guid2, NB, 3, "two"), EFI_SUCCESS);
	CHECK(vt_holds(u"VtTwin", &vt_guid, BR, "one", 3));
	CHECK(vt_holds(u"VtTwin", &vt_guid2, NB, "two", 3));
	vt_remove(u"VtTwin", &vt_guid);
	vt_remove(u"VtTwin", &vt_guid2);
}

APP_TEST(set_authenticated_attributes_refused)
{
	/* EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS is deprecated: "Platforms should return
	 * EFI_UNSUPPORTED" (8.2.3). */
	CHECK_STATUS(
	    vt_set(u"VtAuth", &vt_guid, NB | EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS, 4, "data"),
	    EFI_UNSUPPORTED);
	/* Time-based authentication without an EFI_VARIABLE_AUTHENTICATION_2 descriptor: the
	 * AuthInfo fails validation (8.2.3). apps/sb-enroll writes real ones. */
	CHECK_STATUS(vt_set(u"VtAuth", &vt_guid, NB | TIME_AUTH, 4, "data"),
		     EFI_SECURITY_VIOLATION);
	CHECK_STATUS_KNOWN(
	    vt_set(u"VtAuth", &vt_guid, NB | EFI_VARIABLE_ENHANCED_AUTHENTICATED_ACCESS, 4, "data"),
	    EFI_UNSUPPORTED, FW_EDK2, EDK2_AUTH);
	CHECK(!vt_exists(u"VtAuth", &vt_guid));
}

APP_TEST(set_hardware_error_records)
{
	UINT64 max = 0, remaining = 0, largest = 0;

	/* HR needs NV+BS+RT and a HwErrRec#### name under EFI_HARDWARE_ERROR_VARIABLE. */
	CHECK_STATUS(vt_set(u"VtHwErr", &vt_guid, NBR | HR, 4, "oops"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"HwErrRec7E57", &vt_hwerr, NB | HR, 4, "oops"), EFI_INVALID_PARAMETER);
	if (!vt_hwerr_supported()) {
		CHECK_STATUS2(vt_set(u"HwErrRec7E57", &vt_hwerr, NBR | HR, 4, "oops"),
			      EFI_INVALID_PARAMETER, EFI_UNSUPPORTED);
		check_skip("HwErrRecSupport is 0: the platform keeps no hardware error records");
		return;
	}
	if (CHECK_STATUS(vt_set(u"HwErrRec7E57", &vt_hwerr, NBR | HR, 4, "oops"), EFI_SUCCESS)) {
		CHECK(vt_holds(u"HwErrRec7E57", &vt_hwerr, NBR | HR, "oops", 4));
		vt_remove(u"HwErrRec7E57", &vt_hwerr);
	}
	/* Hardware error records have storage of their own. */
	CHECK_STATUS(app_rt->QueryVariableInfo(NBR | HR, &max, &remaining, &largest), EFI_SUCCESS);
	CHECK(max > 0 && remaining <= max);
}

APP_TEST(set_too_large_is_invalid)
{
	UINT64 max = 0, remaining = 0, largest = 0;
	UINTN size;
	UINT8 *big;

	if (!CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, &remaining, &largest), EFI_SUCCESS))
		return;
	size = (UINTN)largest + 4096;
	big = app_zalloc(size);
	if (!CHECK(big))
		return;
	/* 8.2.3: "the DataSize exceeds the maximum allowed" is EFI_INVALID_PARAMETER. */
	CHECK_STATUS2(vt_set(u"VtBig", &vt_guid, NB, size, big), EFI_INVALID_PARAMETER,
		      EFI_OUT_OF_RESOURCES);
	CHECK(!vt_exists(u"VtBig", &vt_guid));
	app_free(big);
}
