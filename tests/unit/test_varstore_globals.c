/* The specification's variables (varstore/var_rules.c, var_check.c, var_globals.c): the
 * firmware's globals, read-only ones, attributes, and validation of architectural
 * variables (BootOrder, Boot####, BootNext, Timeout, PlatformLang, Lang, ConOut ...). */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_varstore.h"
#include <efi/global_variable.h>
#include "../../varstore/var_internal.h"
#include <ember/lib/str.h>

#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define NB (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)
#define BR (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define APPEND EFI_VARIABLE_APPEND_WRITE

static const EFI_GUID gv = EFI_GLOBAL_VARIABLE;
static struct nor_sim flash;
static struct test_vars tv;
static struct var_service *svc;

static void setup(void)
{
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	test_vars_mount(&tv, &flash.dev, 0);
	svc = &tv.svc;
	var_globals_install(svc);
}

static void teardown(void)
{
	test_vars_unmount(&tv);
	nor_free(&flash);
}

static bool value_is(const CHAR16 *name, UINT32 attributes, const void *data, UINTN size)
{
	UINT8 buf[64];
	UINTN got = sizeof(buf);
	UINT32 a;

	return var_get(svc, name, &gv, &a, &got, buf) == EFI_SUCCESS && a == attributes &&
	       got == size && !memcmp(buf, data, size);
}

TEST(var_globals_are_installed)
{
	static const UINT8 zero = 0, one = 1;
	static const UINT16 timeout = 0, hwerr = 1;
	static const UINT32 support = EFI_BOOT_OPTION_SUPPORT_APP;
	static const UINT64 indications = 1; /* EFI_OS_INDICATIONS_BOOT_TO_FW_UI */

	setup();
	EXPECT(value_is(u"PlatformLangCodes", BR, "en-US", 6));
	EXPECT(value_is(u"LangCodes", BR, "eng", 4));
	EXPECT(value_is(u"PlatformLang", NBR, "en-US", 6));
	EXPECT(value_is(u"Lang", NBR, "eng", 4));
	EXPECT(value_is(u"SecureBoot", BR, &zero, 1));
	EXPECT(value_is(u"SetupMode", BR, &one, 1));
	EXPECT(value_is(u"BootOptionSupport", BR, &support, 4));
	EXPECT(value_is(u"OsIndicationsSupported", BR, &indications, 8));
	EXPECT(value_is(u"Timeout", NBR, &timeout, 2));
	EXPECT(value_is(u"HwErrRecSupport", NBR, &hwerr, 2));
	/* A second start rewrites nothing non-volatile that is already right. */
	UINT64 steps = flash.steps;
	test_vars_unmount(&tv);
	test_vars_mount(&tv, &flash.dev, 0);
	var_globals_install(svc);
	EXPECT_EQ(flash.steps, steps);
	teardown();
}

TEST(var_globals_read_only_and_undocumented)
{
	static const UINT8 one = 1;

	setup();
	EXPECT_STATUS(var_set(svc, u"SecureBoot", (EFI_GUID *)&gv, BR, 1, &one),
		      EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"SecureBoot", (EFI_GUID *)&gv, 0, 0, NULL),
		      EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"PlatformLangCodes", &gv, BR, 3, "fr"), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"OsIndicationsSupported", &gv, BR, 8, "12345678"),
		      EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"HwErrRecSupport", &gv, NBR, 2, "\1\0"), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"PlatformRecovery0000", &gv, BR, 2, "xx"), EFI_WRITE_PROTECTED);
	/* Only documented names under EFI_GLOBAL_VARIABLE, with their attributes. */
	EXPECT_STATUS(var_set(svc, u"MyOwnSetting", &gv, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Bootabcd", &gv, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Timeout", &gv, NB, 2, "\5\0"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Timeout", &gv, NBR, 2, "\5\0"), EFI_SUCCESS);
	/* Authenticated variables need Secure Boot. */
	EXPECT_STATUS(var_set(svc, u"PK", &gv, NBR, 4, "key!"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"PK", &gv,
			      NBR | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS, 4, "key!"),
		      EFI_UNSUPPORTED);
	teardown();
}

TEST(var_globals_scalars_and_arrays)
{
	setup();
	EXPECT_STATUS(var_set(svc, u"BootOrder", &gv, NBR, 3, "\1\0\2"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"BootOrder", &gv, NBR, 4, "\1\0\2\0"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"BootOrder", &gv, NBR | APPEND, 2, "\3\0"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"BootOrder", &gv, NBR | APPEND, 1, "\3"),
		      EFI_INVALID_PARAMETER);
	EXPECT(value_is(u"BootOrder", NBR, "\1\0\2\0\3\0", 6));
	EXPECT_STATUS(var_set(svc, u"DriverOrder", &gv, NBR, 1, "\1"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"SysPrepOrder", &gv, NBR, 2, "\1\0"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"BootNext", &gv, NBR, 4, "\1\0\0\0"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"BootNext", &gv, NBR, 2, "\1\0"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"BootNext", &gv, NBR | APPEND, 2, "\1\0"),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Timeout", &gv, NBR, 1, "\5"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"OsIndications", &gv, NBR, 8, "\1\0\0\0\0\0\0\0"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"OsIndications", &gv, NBR, 4, "\1\0\0\0"),
		      EFI_INVALID_PARAMETER);
	teardown();
}

TEST(var_globals_languages)
{
	setup();
	EXPECT_STATUS(var_set(svc, u"PlatformLang", &gv, NBR, 6, "fr-FR"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"PlatformLang", &gv, NBR, 3, "en"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"PlatformLang", &gv, NBR, 7, "en-US\0x"),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"PlatformLang", &gv, NBR, 6, "en-US"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"PlatformLang", &gv, NBR, 5, "en-US"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"Lang", &gv, NBR, 4, "fra"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Lang", &gv, NBR, 3, "eng"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"Lang", &gv, NBR, 2, "en"), EFI_INVALID_PARAMETER);
	/* An invalid stored value is replaced by the default at the next start. */
	EXPECT_STATUS(var_set_firmware(svc, u"PlatformLang", &gv, NBR, 3, "xx"), EFI_SUCCESS);
	var_globals_install(svc);
	EXPECT(value_is(u"PlatformLang", NBR, "en-US", 6));
	teardown();
}

/* A load option: attributes, FilePathListLength, description, a file path, optional data. */
static UINTN load_option(UINT8 *out, UINT32 attributes, const CHAR16 *description,
			 const CHAR16 *file, const void *optional, UINTN optional_size)
{
	UINTN at = 6, desc = str16_size(description), fsize = str16_size(file);
	UINT16 node = (UINT16)(4 + fsize), fpll = (UINT16)(node + 4);

	memcpy(out, &attributes, 4);
	memcpy(out + 4, &fpll, 2);
	memcpy(out + at, description, desc);
	at += desc;
	out[at] = 4, out[at + 1] = 4, memcpy(out + at + 2, &node, 2);
	memcpy(out + at + 4, file, fsize);
	at += node;
	out[at] = 0x7f, out[at + 1] = 0xff, out[at + 2] = 4, out[at + 3] = 0;
	at += 4;
	if (optional_size)
		memcpy(out + at, optional, optional_size);
	return at + optional_size;
}

TEST(var_globals_load_options)
{
	UINT8 opt[256];
	UINTN n;

	setup();
	n = load_option(opt, LOAD_OPTION_ACTIVE, u"Ember test", u"\\EFI\\BOOT\\BOOTX64.EFI", "od",
			2);
	EXPECT_STATUS(var_set(svc, u"Boot0001", &gv, NBR, n, opt), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"Boot0001", &gv, NBR | APPEND, 3, "abc"), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"Driver00FF", &gv, NBR, n, opt), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"SysPrepA000", &gv, NBR, n, opt), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"Boot00001", &gv, NBR, n, opt), EFI_INVALID_PARAMETER);
	EXPECT(var_check_load_option(opt, n));
	/* Truncated inside the device path, or without room for it. */
	EXPECT(!var_check_load_option(opt, n - 5));
	EXPECT_STATUS(var_set(svc, u"Boot0002", &gv, NBR, n - 5, opt), EFI_INVALID_PARAMETER);
	/* FilePathListLength past the end. */
	UINT8 bad[256];
	memcpy(bad, opt, n);
	bad[4] = 0xf0;
	EXPECT(!var_check_load_option(bad, n));
	/* A device path node whose length runs past FilePathListLength. */
	memcpy(bad, opt, n);
	bad[6 + str16_size(u"Ember test") + 2] += 2;
	EXPECT(!var_check_load_option(bad, n));
	/* No terminator in the description. */
	n = load_option(bad, LOAD_OPTION_ACTIVE, u"", u"\\x", NULL, 0);
	EXPECT(var_check_load_option(bad, n));
	EXPECT(!var_check_load_option(bad, 7));
	/* Reserved attribute bits, reserved categories. */
	n = load_option(bad, 0x10000 | LOAD_OPTION_ACTIVE, u"d", u"\\x", NULL, 0);
	EXPECT(!var_check_load_option(bad, n));
	n = load_option(bad, 0x200, u"d", u"\\x", NULL, 0);
	EXPECT(!var_check_load_option(bad, n));
	n = load_option(bad, LOAD_OPTION_CATEGORY_APP | LOAD_OPTION_HIDDEN, u"d", u"\\x", NULL, 0);
	EXPECT(var_check_load_option(bad, n));
	teardown();
}

TEST(var_globals_device_paths_and_keys)
{
	static const UINT8 end[] = {0x7f, 0xff, 4, 0};
	static const UINT8 two[] = {1, 1, 6, 0, 0, 0, 0x7f, 0x01, 4, 0,
				    1, 1, 6, 0, 1, 0, 0x7f, 0xff, 4, 0};
	static const UINT8 unterminated[] = {1, 1, 6, 0, 0, 0};
	UINT8 key[18] = {0};

	setup();
	EXPECT_STATUS(var_set(svc, u"ConOut", &gv, NBR, sizeof(end), end), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"ConIn", &gv, NBR, sizeof(two), two), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"ErrOut", &gv, NBR, sizeof(unterminated), unterminated),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"ConOut", &gv, NBR, sizeof(two) - 1, two),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"ConOut", &gv, NBR | APPEND, sizeof(end), end),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"ConInDev", &gv, BR, sizeof(end), end), EFI_WRITE_PROTECTED);
	/* Key####: ten bytes, then InputKeyCount keys of four. */
	EXPECT_STATUS(var_set(svc, u"Key0000", &gv, NBR, 10, key), EFI_SUCCESS);
	key[3] = 0x80; /* two keys */
	EXPECT_STATUS(var_set(svc, u"Key0001", &gv, NBR, 10, key), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"Key0001", &gv, NBR, 18, key), EFI_SUCCESS);
	teardown();
}
