/* QueryVariableInfo (8.2.4), and that rewriting never runs out of room while there is
 * room after reclaiming (compaction). */
#define APP_TEST_SUITE "40_query"
#include "var_test.h"

APP_TEST(query_invalid_parameters)
{
	UINT64 max, remaining, largest;

	CHECK_STATUS(app_rt->QueryVariableInfo(NB, NULL, &remaining, &largest),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, NULL, &largest), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, &remaining, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_rt->QueryVariableInfo(0, &max, &remaining, &largest),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    app_rt->QueryVariableInfo(EFI_VARIABLE_RUNTIME_ACCESS, &max, &remaining, &largest),
	    EFI_INVALID_PARAMETER);
	if (vt_hwerr_supported())
		CHECK_STATUS(app_rt->QueryVariableInfo(NB | HR, &max, &remaining, &largest),
			     EFI_INVALID_PARAMETER);
	else
		CHECK_STATUS2(app_rt->QueryVariableInfo(NB | HR, &max, &remaining, &largest),
			      EFI_INVALID_PARAMETER, EFI_UNSUPPORTED);
	/* Time-based authenticated variables are supported (Secure Boot). */
	CHECK_STATUS(app_rt->QueryVariableInfo(NB | TIME_AUTH, &max, &remaining, &largest),
		     EFI_SUCCESS);
}

APP_TEST(query_figures_follow_writes)
{
	UINT64 max = 0, before = 0, after = 0, largest = 0;
	static UINT8 data[1000];

	if (!CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, &before, &largest), EFI_SUCCESS))
		return;
	CHECK(max >= 64 * 1024);
	CHECK(before <= max && largest <= max && largest >= 1024);
	if (!CHECK_STATUS(vt_set(u"VtQuery", &vt_guid, NB, sizeof(data), data), EFI_SUCCESS))
		return;
	CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, &after, &largest), EFI_SUCCESS);
	CHECK(after + sizeof(data) <= before);
	vt_remove(u"VtQuery", &vt_guid);
	/* Volatile variables are their own class. */
	CHECK_STATUS(app_rt->QueryVariableInfo(BR, &max, &after, &largest), EFI_SUCCESS);
	CHECK(max > 0 && after <= max);
}

APP_TEST(rewrites_reclaim_space)
{
	UINT64 max = 0, remaining = 0, largest = 0;
	UINTN size = 16 * 1024, rounds;
	UINT8 *data = app_zalloc(size);

	if (app_firmware_is(FW_EDK2)) {
		/* Megabytes of writes through EDK II's fault-tolerant writes take minutes under
		 * QEMU's TCG; the expectation (every write succeeds) is not in doubt there. */
		app_free(data);
		check_skip("too slow on EDK II under emulation");
		return;
	}
	if (!CHECK(data) ||
	    !CHECK_STATUS(app_rt->QueryVariableInfo(NB, &max, &remaining, &largest), EFI_SUCCESS))
		return;
	/* Twice the whole store in rewrites of one variable: every one must succeed. */
	rounds = (UINTN)(2 * max / size) + 1;
	for (UINTN i = 0; i < rounds; i++) {
		data[0] = (UINT8)i;
		if (!CHECK_STATUS(vt_set(u"VtRewrite", &vt_guid, NB, size - (i & 7), data),
				  EFI_SUCCESS))
			break;
	}
	data[0] = (UINT8)(rounds - 1);
	UINTN got = size;
	UINT8 *back = app_zalloc(size);
	if (back && CHECK_STATUS(vt_get(u"VtRewrite", &vt_guid, NULL, &got, back), EFI_SUCCESS)) {
		CHECK_EQ(got, size - ((rounds - 1) & 7));
		CHECK(!mem_cmp(back, data, got));
	}
	vt_remove(u"VtRewrite", &vt_guid);
	app_free(back);
	app_free(data);
}
