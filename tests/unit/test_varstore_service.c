/* The variable services' semantics (varstore/var_*.c), UEFI 2.10 section 8.2: argument
 * checks and status codes of GetVariable, GetNextVariableName, SetVariable and
 * QueryVariableInfo, attributes, deletion, APPEND_WRITE, quotas, ExitBootServices. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_varstore.h"
#include <ember/lib/str.h>

#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define NB (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)
#define BR (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define B EFI_VARIABLE_BOOTSERVICE_ACCESS
#define APPEND EFI_VARIABLE_APPEND_WRITE
#define HR EFI_VARIABLE_HARDWARE_ERROR_RECORD

static struct nor_sim flash;
static struct test_vars tv;
static struct var_service *svc;
static EFI_GUID g;

static void setup(void)
{
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	test_vars_mount(&tv, &flash.dev, 0);
	svc = &tv.svc;
	g = test_var_guid(1);
}

static void teardown(void)
{
	test_vars_unmount(&tv);
	nor_free(&flash);
}

TEST(var_get_argument_checks_and_size_probe)
{
	UINT32 attributes = 0;
	UINTN size = 0;
	UINT8 buf[16];

	setup();
	ASSERT_STATUS(var_set(svc, u"Probe", &g, NBR, 5, "hello"), EFI_SUCCESS);
	EXPECT_STATUS(var_get(svc, NULL, &g, NULL, &size, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_get(svc, u"Probe", NULL, NULL, &size, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_get(svc, u"Probe", &g, NULL, NULL, buf), EFI_INVALID_PARAMETER);
	/* The size probe: EFI_BUFFER_TOO_SMALL sets DataSize, and Attributes too. */
	EXPECT_STATUS(var_get(svc, u"Probe", &g, &attributes, &size, NULL), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 5);
	EXPECT_EQ(attributes, NBR);
	/* Big enough but no buffer. */
	EXPECT_STATUS(var_get(svc, u"Probe", &g, NULL, &size, NULL), EFI_INVALID_PARAMETER);
	size = sizeof(buf);
	EXPECT_STATUS(var_get(svc, u"Probe", &g, NULL, &size, buf), EFI_SUCCESS);
	EXPECT_EQ(size, 5);
	EXPECT(!memcmp(buf, "hello", 5));
	EXPECT_STATUS(var_get(svc, u"Other", &g, NULL, &size, buf), EFI_NOT_FOUND);
	EXPECT_STATUS(var_get(svc, u"", &g, NULL, &size, buf), EFI_NOT_FOUND);
	EFI_GUID other = test_var_guid(2);
	EXPECT_STATUS(var_get(svc, u"Probe", &other, NULL, &size, buf), EFI_NOT_FOUND);
	teardown();
}

/* Enumerates everything; returns the count and checks the names seen. */
static UINTN enumerate(const CHAR16 *const *expect, UINTN n)
{
	CHAR16 name[64] = {0};
	EFI_GUID guid;
	UINTN count = 0, size;
	EFI_STATUS status;

	for (;;) {
		size = sizeof(name);
		status = var_get_next(svc, &size, name, &guid);
		if (status != EFI_SUCCESS)
			break;
		EXPECT_EQ(size, str16_size(name));
		for (UINTN i = 0; i < n; i++)
			if (!str16_cmp(name, expect[i]))
				count++;
	}
	EXPECT_STATUS(status, EFI_NOT_FOUND);
	return count;
}

TEST(var_get_next_dance)
{
	static const CHAR16 *const names[] = {u"One", u"Two", u"ThreeThreeThree"};
	CHAR16 name[64];
	EFI_GUID guid;
	UINTN size;

	setup();
	for (int i = 0; i < 3; i++)
		ASSERT_STATUS(var_set(svc, names[i], &g, i == 1 ? BR : NBR, 1, "x"), EFI_SUCCESS);
	EXPECT_EQ(enumerate(names, 3), 3);
	/* Start, with a buffer that only holds the empty name: the size needed comes back. */
	name[0] = 0;
	size = sizeof(CHAR16);
	EXPECT_STATUS(var_get_next(svc, &size, name, &guid), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof(u"One"));
	EXPECT_STATUS(var_get_next(svc, &size, name, &guid), EFI_SUCCESS);
	EXPECT(!str16_cmp(name, u"One"));
	EXPECT(!mem_cmp(&guid, &g, sizeof(g)));
	/* The name given must end within VariableNameSize. */
	size = 4;
	EXPECT_STATUS(var_get_next(svc, &size, name, &guid), EFI_INVALID_PARAMETER);
	size = 0;
	EXPECT_STATUS(var_get_next(svc, &size, name, &guid), EFI_INVALID_PARAMETER);
	/* UEFI 2.10: a name/GUID that is not an existing variable is an invalid parameter. */
	str16_copy(name, u"Nope");
	size = sizeof(name);
	EXPECT_STATUS(var_get_next(svc, &size, name, &guid), EFI_INVALID_PARAMETER);
	str16_copy(name, u"One");
	EFI_GUID other = test_var_guid(7);
	EXPECT_STATUS(var_get_next(svc, &size, name, &other), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_get_next(NULL == svc ? svc : svc, NULL, name, &guid),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_get_next(svc, &size, NULL, &guid), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_get_next(svc, &size, name, NULL), EFI_INVALID_PARAMETER);
	teardown();
}

TEST(var_set_argument_and_attribute_rules)
{
	setup();
	EXPECT_STATUS(var_set(svc, NULL, &g, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", NULL, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"", &g, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, NBR, 1, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, EFI_VARIABLE_RUNTIME_ACCESS, 1, "x"),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, NBR | 0x100, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, NBR | EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS, 1, "x"),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(var_set(svc, u"A", &g,
			      NBR | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS, 1, "x"),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(
	    var_set(svc, u"A", &g, NBR | EFI_VARIABLE_ENHANCED_AUTHENTICATED_ACCESS, 1, "x"),
	    EFI_UNSUPPORTED);
	static UINT8 huge[VARSTORE_MAX_VARIABLE];
	EXPECT_STATUS(var_set(svc, u"A", &g, NBR, sizeof(huge), huge), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, NBR, sizeof(huge) - 64, huge), EFI_SUCCESS);
	/* Changing the attributes of an existing variable is refused. */
	EXPECT_STATUS(var_set(svc, u"A", &g, NB, 1, "y"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, BR, 1, "y"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"A", &g, NB, 0, NULL), EFI_INVALID_PARAMETER);
	teardown();
}

static UINTN value_size(const CHAR16 *name)
{
	UINTN size = 0;

	return var_get(svc, name, &g, NULL, &size, NULL) == EFI_BUFFER_TOO_SMALL ? size : 0;
}

TEST(var_set_delete_and_append)
{
	UINT8 buf[16];
	UINTN size = sizeof(buf);

	setup();
	EXPECT_STATUS(var_set(svc, u"D", &g, NBR, 0, NULL), EFI_NOT_FOUND);
	ASSERT_STATUS(var_set(svc, u"D", &g, NBR, 2, "ab"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"D", &g, NBR, 0, NULL), EFI_SUCCESS);
	EXPECT_EQ(value_size(u"D"), 0);
	ASSERT_STATUS(var_set(svc, u"D", &g, NBR, 2, "ab"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"D", &g, 0, 0, NULL), EFI_SUCCESS);
	EXPECT_EQ(value_size(u"D"), 0);
	/* No access attributes deletes too, whatever the data. */
	ASSERT_STATUS(var_set(svc, u"D", &g, NBR, 2, "ab"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"D", &g, EFI_VARIABLE_NON_VOLATILE, 3, "xyz"), EFI_SUCCESS);
	EXPECT_EQ(value_size(u"D"), 0);
	/* APPEND_WRITE: creates, appends, and with no data changes nothing. */
	EXPECT_STATUS(var_set(svc, u"L", &g, NBR | APPEND, 0, NULL), EFI_SUCCESS);
	EXPECT_EQ(value_size(u"L"), 0);
	EXPECT_STATUS(var_set(svc, u"L", &g, NBR | APPEND, 3, "abc"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"L", &g, NBR | APPEND, 2, "de"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"L", &g, NBR | APPEND, 0, NULL), EFI_SUCCESS);
	EXPECT_STATUS(var_get(svc, u"L", &g, NULL, &size, buf), EFI_SUCCESS);
	EXPECT_EQ(size, 5);
	EXPECT(!memcmp(buf, "abcde", 5));
	/* APPEND_WRITE is the only attribute that may differ. */
	EXPECT_STATUS(var_set(svc, u"L", &g, NB | APPEND, 1, "f"), EFI_INVALID_PARAMETER);
	/* Volatile variables live in RAM: not on flash after a remount. */
	ASSERT_STATUS(var_set(svc, u"V", &g, BR, 1, "v"), EFI_SUCCESS);
	test_vars_unmount(&tv);
	test_vars_mount(&tv, &flash.dev, 0);
	EXPECT_EQ(value_size(u"V"), 0);
	EXPECT_EQ(value_size(u"L"), 5);
	teardown();
}

TEST(var_out_of_resources_only_when_full)
{
	static UINT8 chunk[8000];
	UINT64 max, remaining, largest;
	EFI_STATUS status = EFI_SUCCESS;
	int n = 0;

	setup();
	for (n = 0; n < 100 && status == EFI_SUCCESS; n++) {
		CHAR16 name[] = {u'F', (CHAR16)(u'A' + n / 26), (CHAR16)(u'A' + n % 26), 0};
		status = var_set(svc, name, &g, NB, sizeof(chunk), chunk);
	}
	EXPECT_STATUS(status, EFI_OUT_OF_RESOURCES);
	EXPECT_STATUS(var_query(svc, NB, &max, &remaining, &largest), EFI_SUCCESS);
	EXPECT(remaining < vstore_record_size(8, sizeof(chunk)));
	/* Many rewrites of one variable need compactions but never fail. */
	for (int i = 0; i < 50; i++)
		EXPECT_STATUS(var_set(svc, u"FAA", &g, NB, sizeof(chunk) - i, chunk), EFI_SUCCESS);
	EXPECT(svc->nv.compactions > 0);
	EXPECT_STATUS(var_set(svc, u"FAB", &g, NB, 0, NULL), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"New", &g, NB, sizeof(chunk), chunk), EFI_SUCCESS);
	teardown();
}

TEST(var_hardware_error_records)
{
	EFI_GUID hw = {
	    0x414e6bdd, 0xe47b, 0x47cc, {0xb2, 0x44, 0xbb, 0x61, 0x02, 0x0c, 0xf5, 0x16}};
	UINT64 max, remaining, largest, nv_max, nv_remaining;

	setup();
	EXPECT_STATUS(var_set(svc, u"HwErrRec0001", &hw, NBR | HR, 4, "err!"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"HwErrRec0002", &hw, NBR, 4, "err!"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"HwErrRec0003", &hw, NB | HR, 4, "err!"),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"HwErrRecX", &hw, NBR | HR, 4, "err!"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"HwErrRec0004", &g, NBR | HR, 4, "err!"),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, NBR | HR, &max, &remaining, &largest), EFI_SUCCESS);
	EXPECT_STATUS(var_query(svc, NBR, &nv_max, &nv_remaining, &largest), EFI_SUCCESS);
	EXPECT(max > 0 && max < nv_max);
	EXPECT_EQ(max - remaining, vstore_record_size(sizeof(u"HwErrRec0001"), 4));
	EXPECT_EQ(nv_max - nv_remaining, 0);
	EXPECT_STATUS(var_query(svc, B | HR, &max, &remaining, &largest), EFI_INVALID_PARAMETER);
	teardown();
}

TEST(var_query_rules_and_figures)
{
	UINT64 max, remaining, largest, before;

	setup();
	EXPECT_STATUS(var_query(svc, NBR, NULL, &remaining, &largest), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, NBR, &max, NULL, &largest), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, NBR, &max, &remaining, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, 0, &max, &remaining, &largest), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, EFI_VARIABLE_RUNTIME_ACCESS, &max, &remaining, &largest),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, NBR | APPEND, &max, &remaining, &largest),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, NBR | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS, &max,
				&remaining, &largest),
		      EFI_UNSUPPORTED);
	ASSERT_STATUS(var_query(svc, NB, &max, &before, &largest), EFI_SUCCESS);
	EXPECT(max > 200 * 1024 && max < 256 * 1024);
	EXPECT_EQ(largest, VARSTORE_MAX_VARIABLE);
	static const UINT8 hundred[100];
	ASSERT_STATUS(var_set(svc, u"Q", &g, NB, sizeof(hundred), hundred), EFI_SUCCESS);
	EXPECT_STATUS(var_query(svc, NB, &max, &remaining, &largest), EFI_SUCCESS);
	EXPECT_EQ(before - remaining, vstore_record_size(4, 100));
	/* Volatile variables are a class of their own. */
	ASSERT_STATUS(var_query(svc, BR, &max, &remaining, &largest), EFI_SUCCESS);
	EXPECT_EQ(max, VARSTORE_VOLATILE_SIZE / 2 - 32);
	EXPECT_EQ(remaining, max);
	teardown();
}

TEST(var_after_exit_boot_services)
{
	CHAR16 name[64];
	EFI_GUID guid;
	UINTN size = 16;
	UINT8 buf[16];
	UINT64 max, remaining, largest;

	setup();
	ASSERT_STATUS(var_set(svc, u"BsOnly", &g, NB, 1, "b"), EFI_SUCCESS);
	ASSERT_STATUS(var_set(svc, u"Runtime", &g, NBR, 1, "r"), EFI_SUCCESS);
	ASSERT_STATUS(var_set(svc, u"VolatileRt", &g, BR, 1, "v"), EFI_SUCCESS);
	svc->at_runtime = true;
	EXPECT_STATUS(var_get(svc, u"BsOnly", &g, NULL, &size, buf), EFI_NOT_FOUND);
	EXPECT_STATUS(var_get(svc, u"Runtime", &g, NULL, &size, buf), EFI_SUCCESS);
	/* Enumeration skips what is gone; naming it is naming no variable. */
	name[0] = 0;
	size = sizeof(name);
	int seen = 0;
	while (var_get_next(svc, &size, name, &guid) == EFI_SUCCESS) {
		EXPECT(str16_cmp(name, u"BsOnly"));
		seen++;
		size = sizeof(name);
	}
	EXPECT_EQ(seen, 2);
	str16_copy(name, u"BsOnly");
	size = sizeof(name);
	EXPECT_STATUS(var_get_next(svc, &size, name, &g), EFI_INVALID_PARAMETER);
	/* Only NV+RT variables can be written; volatile ones are read-only. */
	EXPECT_STATUS(var_set(svc, u"Runtime", &g, NBR, 1, "R"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"NewRt", &g, NBR, 1, "n"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"NewBs", &g, NB, 1, "n"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"NewVol", &g, BR, 1, "n"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"VolatileRt", &g, BR, 1, "V"), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"VolatileRt", &g, 0, 0, NULL), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"BsOnly", &g, 0, 0, NULL), EFI_NOT_FOUND);
	EXPECT_STATUS(var_set(svc, u"BsOnly", &g, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Runtime", &g, 0, 0, NULL), EFI_SUCCESS);
	EXPECT_STATUS(var_query(svc, NB, &max, &remaining, &largest), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_query(svc, NBR, &max, &remaining, &largest), EFI_SUCCESS);
	svc->at_runtime = false;
	size = sizeof(buf);
	EXPECT_STATUS(var_get(svc, u"BsOnly", &g, NULL, &size, buf), EFI_SUCCESS);
	teardown();
}
