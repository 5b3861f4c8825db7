/* The global variables (3.3): what the firmware provides, which ones are read-only, and
 * that writes to architectural variables are validated. Settings the tests change are
 * put back. */
#define APP_TEST_SUITE "50_globals"
#include "var_test.h"
#include <efi/global_variable.h>

static UINT32 attributes_of(const CHAR16 *name)
{
	UINT32 attributes = 0;
	UINTN size = 0;

	if (vt_get(name, &vt_global, &attributes, &size, NULL) != EFI_BUFFER_TOO_SMALL)
		return 0;
	return attributes;
}

APP_TEST(globals_exist_with_their_attributes)
{
	CHECK_EQ(attributes_of(u"PlatformLangCodes"), BR);
	CHECK_EQ(attributes_of(u"PlatformLang"), NBR);
	CHECK_EQ(attributes_of(u"SecureBoot"), BR);
	CHECK_EQ(attributes_of(u"SetupMode"), BR);
	CHECK_EQ(attributes_of(u"BootOptionSupport"), BR);
	CHECK_EQ(attributes_of(u"OsIndicationsSupported"), BR);
	CHECK_EQ(attributes_of(u"Timeout"), NBR);
}

APP_TEST(globals_values_are_well_formed)
{
	char codes[256], lang[64];
	UINT8 byte = 0xff;
	UINTN size = sizeof(codes) - 1, lsize = sizeof(lang) - 1, n;

	if (CHECK_STATUS(vt_get(u"PlatformLangCodes", &vt_global, NULL, &size, codes),
			 EFI_SUCCESS) &&
	    CHECK_STATUS(vt_get(u"PlatformLang", &vt_global, NULL, &lsize, lang), EFI_SUCCESS)) {
		codes[size] = 0;
		lang[lsize] = 0;
		/* PlatformLang is one of the ';'-separated PlatformLangCodes. */
		n = str8_len(lang);
		bool listed = false;
		for (char *p = codes; *p && !listed; p++)
			if ((p == codes || p[-1] == ';') && !str8_ncmp(p, lang, n) &&
			    (p[n] == ';' || p[n] == 0))
				listed = true;
		CHECK(n > 0 && listed);
	}
	size = 1;
	if (CHECK_STATUS(vt_get(u"SecureBoot", &vt_global, NULL, &size, &byte), EFI_SUCCESS))
		CHECK(byte == 0 || byte == 1);
	size = 1;
	if (CHECK_STATUS(vt_get(u"SetupMode", &vt_global, NULL, &size, &byte), EFI_SUCCESS))
		CHECK(byte == 0 || byte == 1);
	size = 0;
	CHECK_STATUS(vt_get(u"Timeout", &vt_global, NULL, &size, NULL), EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, 2);
	size = 0;
	CHECK_STATUS(vt_get(u"OsIndicationsSupported", &vt_global, NULL, &size, NULL),
		     EFI_BUFFER_TOO_SMALL);
	CHECK_EQ(size, 8);
}

APP_TEST(globals_read_only)
{
	static const UINT8 one = 1;
	static const UINT64 all = ~0ull;

	CHECK_STATUS(vt_set(u"SecureBoot", &vt_global, BR, 1, &one), EFI_WRITE_PROTECTED);
	CHECK_STATUS(vt_set(u"SetupMode", &vt_global, BR, 1, &one), EFI_WRITE_PROTECTED);
	CHECK_STATUS(vt_set(u"PlatformLangCodes", &vt_global, BR, 3, "xx"), EFI_WRITE_PROTECTED);
	CHECK_STATUS(vt_set(u"OsIndicationsSupported", &vt_global, BR, 8, &all),
		     EFI_WRITE_PROTECTED);
	CHECK_STATUS(vt_set(u"BootOptionSupport", &vt_global, BR, 4, "\0\0\0\0"),
		     EFI_WRITE_PROTECTED);
	/* Nor can they be deleted. */
	CHECK_STATUS(vt_set(u"SecureBoot", &vt_global, 0, 0, NULL), EFI_WRITE_PROTECTED);
	CHECK_EQ(attributes_of(u"SecureBoot"), BR);
}

APP_TEST(globals_only_documented_names)
{
	CHECK_STATUS(vt_set(u"VtNotAGlobal", &vt_global, NBR, 1, "x"), EFI_INVALID_PARAMETER);
	CHECK(!vt_exists(u"VtNotAGlobal", &vt_global));
}

/* Saves a global variable, to put it back after a test. */
struct saved {
	UINT8 data[256];
	UINTN size;
	UINT32 attributes;
	bool existed;
};

static void save(const CHAR16 *name, struct saved *s)
{
	s->size = sizeof(s->data);
	s->existed = vt_get(name, &vt_global, &s->attributes, &s->size, s->data) == EFI_SUCCESS;
}

static void restore(const CHAR16 *name, struct saved *s)
{
	if (s->existed)
		CHECK_STATUS(vt_set(name, &vt_global, s->attributes, s->size, s->data),
			     EFI_SUCCESS);
	else
		vt_remove(name, &vt_global);
}

APP_TEST(globals_scalars_and_arrays_validated)
{
	struct saved timeout, order;

	save(u"Timeout", &timeout);
	save(u"BootOrder", &order);
	CHECK_STATUS(vt_set(u"Timeout", &vt_global, NBR, 1, "\5"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"Timeout", &vt_global, NBR, 4, "\5\0\0\0"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"Timeout", &vt_global, NBR, 2, "\5\0"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"Timeout", &vt_global, NB, 2, "\5\0"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"BootOrder", &vt_global, NBR, 3, "\1\0\2"), EFI_INVALID_PARAMETER);
	CHECK_STATUS(vt_set(u"BootOrder", &vt_global, NBR, 4, "\1\0\2\0"), EFI_SUCCESS);
	CHECK_STATUS(vt_set(u"BootOrder", &vt_global, NBR | APPEND, 2, "\3\0"), EFI_SUCCESS);
	CHECK(vt_holds(u"BootOrder", &vt_global, NBR, "\1\0\2\0\3\0", 6));
	CHECK_STATUS(vt_set(u"BootNext", &vt_global, NBR, 3, "\1\0\0"), EFI_INVALID_PARAMETER);
	restore(u"Timeout", &timeout);
	restore(u"BootOrder", &order);
}

APP_TEST(globals_load_options_validated)
{
	UINT8 opt[256];
	UINTN n = vt_load_option(opt, LOAD_OPTION_ACTIVE, u"Ember var-test");

	vt_remove(u"Boot7E57", &vt_global);
	if (CHECK_STATUS(vt_set(u"Boot7E57", &vt_global, NBR, n, opt), EFI_SUCCESS))
		CHECK(vt_holds(u"Boot7E57", &vt_global, NBR, opt, n));
	/* The device path cut short. */
	CHECK_STATUS(vt_set(u"Boot7E58", &vt_global, NBR, n - 3, opt), EFI_INVALID_PARAMETER);
	/* FilePathListLength beyond the data. */
	opt[4] = 0xff;
	CHECK_STATUS(vt_set(u"Boot7E58", &vt_global, NBR, n, opt), EFI_INVALID_PARAMETER);
	/* No room for the description's terminator. */
	CHECK_STATUS(vt_set(u"Boot7E58", &vt_global, NBR, 8, opt), EFI_INVALID_PARAMETER);
	CHECK(!vt_exists(u"Boot7E58", &vt_global));
	vt_remove(u"Boot7E57", &vt_global);
}

APP_TEST(globals_platform_lang_validated)
{
	struct saved lang;

	save(u"PlatformLang", &lang);
	CHECK_STATUS_KNOWN(
	    vt_set(u"PlatformLang", &vt_global, NBR, 6, "xx-XX"), EFI_INVALID_PARAMETER, FW_EDK2,
	    "EDK II (2022.11) accepts a PlatformLang that PlatformLangCodes does not list");
	if (lang.existed)
		CHECK_STATUS(vt_set(u"PlatformLang", &vt_global, NBR, lang.size, lang.data),
			     EFI_SUCCESS);
	restore(u"PlatformLang", &lang);
}
