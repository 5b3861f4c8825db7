/* EFI_HII_DATABASE_PROTOCOL and EFI_HII_STRING_PROTOCOL (core/hii): package lists in and
 * out, notifications, keyboard layouts, strings read, changed and added, and the status of
 * each bad argument. Each test removes the lists it added. */
#include <string.h>
#include "support/test.h"
#include "hii_builder.h"
#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/lib/guids.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/hii_string.h>

static EFI_HII_DATABASE_PROTOCOL *db(void)
{
	EFI_HII_DATABASE_PROTOCOL *p = NULL;

	hii_publish();
	protocol_locate(&efi_hii_database_protocol_guid, (void **)&p);
	return p;
}

static EFI_HII_STRING_PROTOCOL *strings(void)
{
	EFI_HII_STRING_PROTOCOL *p = NULL;

	hii_publish();
	protocol_locate(&efi_hii_string_protocol_guid, (void **)&p);
	return p;
}

static const EFI_GUID guid_a = {0xa0a0a0a0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
static const EFI_GUID guid_b = {0xb0b0b0b0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
static const EFI_GUID kbd_guid = {0xc0c0c0c0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};

/* A list with English and French strings 1 "hello"/"bonjour", 2 "world"/"monde", a GUID
 * package and a keyboard layout. */
static void sample_list(struct hii_builder *b, const EFI_GUID *guid)
{
	UINT8 blocks[64], keyboard[2 + 23] = {1, 0, 23, 0};
	UINT32 n;

	memcpy(keyboard + 4, &kbd_guid, sizeof(kbd_guid));
	hb_begin(b, guid);
	n = hb_ucs2_block(blocks, "hello");
	n += hb_ucs2_block(blocks + n, "world");
	blocks[n++] = EFI_HII_SIBT_END;
	hb_strings(b, "en-US;x-alt", blocks, n);
	n = hb_ucs2_block(blocks, "bonjour");
	n += hb_ucs2_block(blocks + n, "monde");
	blocks[n++] = EFI_HII_SIBT_END;
	hb_strings(b, "fr-FR", blocks, n);
	hb_package(b, EFI_HII_PACKAGE_TYPE_GUID, guid, sizeof(*guid));
	hb_package(b, EFI_HII_PACKAGE_KEYBOARD_LAYOUT, keyboard, sizeof(keyboard));
	hb_end(b);
}

static bool string_is(EFI_HII_HANDLE h, const char *lang, EFI_STRING_ID id, const char *want)
{
	CHAR16 out[32];
	UINTN size = sizeof(out);

	if (EFI_ERROR(strings()->GetString(strings(), lang, h, id, out, &size, NULL)))
		return false;
	for (size_t i = 0;; i++) {
		if (out[i] != (CHAR16)want[i])
			return false;
		if (!want[i])
			return size == 2 * (i + 1);
	}
}

TEST(hii_database_add_list_remove)
{
	static struct hii_builder b;
	EFI_HII_HANDLE h, h2, found[4];
	EFI_HANDLE driver = (EFI_HANDLE)0x1234;
	UINTN size = sizeof(found);

	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, driver, &h), EFI_SUCCESS);
	/* The same GUID twice, NULL arguments, a malformed list. */
	EXPECT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h2), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->NewPackageList(db(), NULL, NULL, &h2), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, NULL), EFI_INVALID_PARAMETER);
	sample_list(&b, &guid_b);
	b.buf[16] -= 1; /* PackageLength one short: the END package is cut */
	EXPECT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h2), EFI_INVALID_PARAMETER);

	EXPECT_STATUS(
	    db()->ListPackageLists(db(), EFI_HII_PACKAGE_TYPE_GUID, &guid_a, &size, found),
	    EFI_SUCCESS);
	EXPECT_EQ(size, sizeof(EFI_HII_HANDLE));
	EXPECT(found[0] == h);
	size = 0;
	EXPECT_STATUS(db()->ListPackageLists(db(), EFI_HII_PACKAGE_STRINGS, NULL, &size, NULL),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT(size >= sizeof(EFI_HII_HANDLE));
	EXPECT_STATUS(
	    db()->ListPackageLists(db(), EFI_HII_PACKAGE_TYPE_GUID, &guid_b, &size, found),
	    EFI_NOT_FOUND);
	EXPECT_STATUS(db()->ListPackageLists(db(), EFI_HII_PACKAGE_TYPE_GUID, NULL, &size, found),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->ListPackageLists(db(), EFI_HII_PACKAGE_FORMS, &guid_a, &size, found),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->ListPackageLists(db(), EFI_HII_PACKAGE_FORMS, NULL, &size, found),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(db()->ListPackageLists(db(), 0, NULL, NULL, found), EFI_INVALID_PARAMETER);

	EXPECT_STATUS(db()->GetPackageListHandle(db(), h, &driver), EFI_SUCCESS);
	EXPECT(driver == (EFI_HANDLE)0x1234);
	EXPECT_STATUS(db()->GetPackageListHandle(db(), h, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->RemovePackageList(db(), h), EFI_SUCCESS);
	EXPECT_STATUS(db()->RemovePackageList(db(), h), EFI_NOT_FOUND);
	EXPECT_STATUS(db()->GetPackageListHandle(db(), h, &driver), EFI_NOT_FOUND);
}

TEST(hii_database_export)
{
	static struct hii_builder b;
	static UINT8 out[4096];
	EFI_HII_HANDLE h;
	UINTN size = 0;

	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	EXPECT_STATUS(db()->ExportPackageLists(db(), h, &size, NULL), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, b.len);
	size = b.len - 1;
	EXPECT_STATUS(db()->ExportPackageLists(db(), h, &size, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->ExportPackageLists(db(), h, &size, (void *)out), EFI_BUFFER_TOO_SMALL);
	size = sizeof(out);
	EXPECT_STATUS(db()->ExportPackageLists(db(), h, &size, (void *)out), EFI_SUCCESS);
	/* What went in comes out, byte for byte. */
	EXPECT_EQ(size, b.len);
	EXPECT(memcmp(out, b.buf, b.len) == 0);
	EXPECT_STATUS(db()->ExportPackageLists(db(), (EFI_HII_HANDLE)out, &size, (void *)out),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(db()->ExportPackageLists(db(), h, NULL, (void *)out), EFI_INVALID_PARAMETER);
	db()->RemovePackageList(db(), h);
}

static int notified[16];

static EFI_STATUS EFIAPI count_notify(UINT8 type, const EFI_GUID *guid,
				      const EFI_HII_PACKAGE_HEADER *package, EFI_HII_HANDLE h,
				      EFI_HII_DATABASE_NOTIFY_TYPE what)
{
	notified[what]++;
	return EFI_SUCCESS;
}

TEST(hii_database_notify_and_update)
{
	static struct hii_builder b, update;
	EFI_HII_HANDLE h;
	EFI_HANDLE reg, reg_guid;
	UINT8 blocks[32];
	UINT32 n = hb_ucs2_block(blocks, "hi");

	memset(notified, 0, sizeof(notified));
	ASSERT_STATUS(db()->RegisterPackageNotify(db(), EFI_HII_PACKAGE_STRINGS, NULL, count_notify,
						  EFI_HII_DATABASE_NOTIFY_NEW_PACK |
						      EFI_HII_DATABASE_NOTIFY_REMOVE_PACK |
						      EFI_HII_DATABASE_NOTIFY_ADD_PACK,
						  &reg),
		      EFI_SUCCESS);
	ASSERT_STATUS(db()->RegisterPackageNotify(db(), EFI_HII_PACKAGE_TYPE_GUID, &guid_b,
						  count_notify, EFI_HII_DATABASE_NOTIFY_NEW_PACK,
						  &reg_guid),
		      EFI_SUCCESS);
	EXPECT_STATUS(db()->RegisterPackageNotify(db(), EFI_HII_PACKAGE_STRINGS, &guid_a,
						  count_notify, 1, &reg),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->RegisterPackageNotify(db(), 1, NULL, count_notify, 1, &reg),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->RegisterPackageNotify(db(), 4, NULL, NULL, 1, &reg),
		      EFI_INVALID_PARAMETER);
	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	/* Two string packages; the GUID package is guid_a's, not the one asked for. */
	EXPECT_EQ(notified[EFI_HII_DATABASE_NOTIFY_NEW_PACK], 2);
	/* An update with one string package replaces both. */
	blocks[n++] = EFI_HII_SIBT_END;
	hb_begin(&update, &guid_a);
	hb_strings(&update, "de-DE", blocks, n);
	hb_end(&update);
	EXPECT_STATUS(db()->UpdatePackageList(db(), h, (void *)update.buf), EFI_SUCCESS);
	EXPECT_EQ(notified[EFI_HII_DATABASE_NOTIFY_REMOVE_PACK], 2);
	EXPECT_EQ(notified[EFI_HII_DATABASE_NOTIFY_ADD_PACK], 1);
	EXPECT(string_is(h, "de-DE", 1, "hi"));
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 1, NULL, &(UINTN){0}, NULL),
		      EFI_INVALID_LANGUAGE);
	EXPECT_STATUS(db()->UpdatePackageList(db(), h, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(db()->UpdatePackageList(db(), (EFI_HII_HANDLE)blocks, (void *)update.buf),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(db()->UnregisterPackageNotify(db(), reg), EFI_SUCCESS);
	EXPECT_STATUS(db()->UnregisterPackageNotify(db(), reg), EFI_NOT_FOUND);
	EXPECT_STATUS(db()->UnregisterPackageNotify(db(), reg_guid), EFI_SUCCESS);
	db()->RemovePackageList(db(), h);
	EXPECT_EQ(notified[EFI_HII_DATABASE_NOTIFY_REMOVE_PACK], 2);
}

TEST(hii_database_keyboard_layouts)
{
	static struct hii_builder b;
	EFI_HII_HANDLE h;
	EFI_GUID guids[2];
	UINT16 size = 0;
	UINT8 layout[64];

	EXPECT_STATUS(db()->SetKeyboardLayout(db(), &kbd_guid), EFI_NOT_FOUND);
	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	EXPECT_STATUS(db()->FindKeyboardLayouts(db(), &size, NULL), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof(EFI_GUID));
	size = sizeof(guids);
	EXPECT_STATUS(db()->FindKeyboardLayouts(db(), &size, guids), EFI_SUCCESS);
	EXPECT(memcmp(&guids[0], &kbd_guid, sizeof(kbd_guid)) == 0);
	EXPECT_STATUS(db()->FindKeyboardLayouts(db(), NULL, guids), EFI_INVALID_PARAMETER);
	size = 0;
	EXPECT_STATUS(db()->GetKeyboardLayout(db(), &kbd_guid, &size, NULL), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 23);
	size = sizeof(layout);
	EXPECT_STATUS(db()->GetKeyboardLayout(db(), &kbd_guid, &size, (void *)layout), EFI_SUCCESS);
	EXPECT(memcmp(layout + 2, &kbd_guid, sizeof(kbd_guid)) == 0);
	EXPECT_STATUS(db()->GetKeyboardLayout(db(), &guid_a, &size, (void *)layout), EFI_NOT_FOUND);
	EXPECT_STATUS(db()->SetKeyboardLayout(db(), &kbd_guid), EFI_SUCCESS);
	EXPECT_STATUS(db()->GetKeyboardLayout(db(), NULL, &size, (void *)layout), EFI_SUCCESS);
	EXPECT_STATUS(db()->SetKeyboardLayout(db(), NULL), EFI_INVALID_PARAMETER);
	db()->RemovePackageList(db(), h);
	EXPECT_STATUS(db()->GetKeyboardLayout(db(), NULL, &size, (void *)layout), EFI_NOT_FOUND);
}

TEST(hii_string_get)
{
	static struct hii_builder b;
	EFI_HII_HANDLE h;
	CHAR16 out[32];
	UINTN size = 4;
	EFI_FONT_INFO *font = (void *)1;

	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	EXPECT(string_is(h, "en-US", 1, "hello"));
	EXPECT(string_is(h, "EN-us", 2, "world"));
	EXPECT(string_is(h, "fr-FR", 2, "monde"));
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 1, out, &size, &font),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 12);
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 1, out, &size, &font),
		      EFI_SUCCESS);
	EXPECT(font == NULL);
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 3, out, &size, NULL),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(strings()->GetString(strings(), "de-DE", h, 1, out, &size, NULL),
		      EFI_INVALID_LANGUAGE);
	EXPECT_STATUS(strings()->GetString(strings(), NULL, h, 1, out, &size, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 1, out, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 1, NULL, &size, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    strings()->GetString(strings(), "en-US", (EFI_HII_HANDLE)out, 1, out, &size, NULL),
	    EFI_NOT_FOUND);
	db()->RemovePackageList(db(), h);
}

TEST(hii_string_languages)
{
	static struct hii_builder b;
	EFI_HII_HANDLE h;
	char out[32];
	UINTN size = 0;

	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	EXPECT_STATUS(strings()->GetLanguages(strings(), h, NULL, &size), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof("en-US;fr-FR"));
	EXPECT_STATUS(strings()->GetLanguages(strings(), h, out, &size), EFI_SUCCESS);
	EXPECT(!strcmp(out, "en-US;fr-FR"));
	EXPECT_STATUS(strings()->GetLanguages(strings(), NULL, out, &size), EFI_INVALID_PARAMETER);
	size = sizeof(out);
	EXPECT_STATUS(strings()->GetSecondaryLanguages(strings(), h, "en-US", out, &size),
		      EFI_SUCCESS);
	EXPECT(!strcmp(out, "x-alt"));
	EXPECT_STATUS(strings()->GetSecondaryLanguages(strings(), h, "it-IT", out, &size),
		      EFI_INVALID_LANGUAGE);
	size = 1;
	EXPECT_STATUS(strings()->GetSecondaryLanguages(strings(), h, "en-US", out, &size),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof("x-alt"));
	db()->RemovePackageList(db(), h);
}

TEST(hii_string_new_and_set)
{
	static struct hii_builder b;
	static struct hii_builder out_list;
	EFI_HII_HANDLE h;
	EFI_STRING_ID id = 0;
	CHAR16 text[] = {'n', 'e', 'w', 0}, other[] = {'a', 'u', 't', 'r', 'e', 0};
	UINTN size = sizeof(out_list.buf);

	sample_list(&b, &guid_a);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	EXPECT_STATUS(strings()->NewString(strings(), h, &id, "en-US", NULL, text, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(id, 3);
	/* The new id names the string in every language of the list. */
	EXPECT(string_is(h, "en-US", 3, "new"));
	EXPECT(string_is(h, "fr-FR", 3, "new"));
	EXPECT(string_is(h, "en-US", 1, "hello"));
	EXPECT_STATUS(strings()->SetString(strings(), h, 3, "fr-FR", other, NULL), EFI_SUCCESS);
	EXPECT(string_is(h, "fr-FR", 3, "autre"));
	EXPECT(string_is(h, "en-US", 3, "new"));
	EXPECT(string_is(h, "fr-FR", 2, "monde"));
	/* A language the list lacks gets a package of its own, at the same id. */
	EXPECT_STATUS(strings()->NewString(strings(), h, &id, "de-DE", NULL, text, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(id, 4);
	EXPECT(string_is(h, "de-DE", 4, "new"));
	/* Id 1 is in the list, but not in German; id 9 nowhere. */
	EXPECT_STATUS(strings()->GetString(strings(), "de-DE", h, 1, NULL, &(UINTN){0}, NULL),
		      EFI_INVALID_LANGUAGE);
	EXPECT_STATUS(strings()->GetString(strings(), "de-DE", h, 9, NULL, &(UINTN){0}, NULL),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(strings()->SetString(strings(), h, 9, "fr-FR", other, NULL), EFI_NOT_FOUND);
	EXPECT_STATUS(strings()->SetString(strings(), h, 1, "it-IT", other, NULL), EFI_NOT_FOUND);
	EXPECT_STATUS(strings()->SetString(strings(), h, 1, NULL, other, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(strings()->NewString(strings(), h, NULL, "en-US", NULL, text, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    strings()->NewString(strings(), (EFI_HII_HANDLE)text, &id, "en-US", NULL, text, NULL),
	    EFI_NOT_FOUND);
	/* The edited list still passes the checks of a list given by a driver. */
	EXPECT_STATUS(db()->ExportPackageLists(db(), h, &size, (void *)out_list.buf), EFI_SUCCESS);
	EXPECT_STATUS(db()->RemovePackageList(db(), h), EFI_SUCCESS);
	EXPECT_STATUS(db()->NewPackageList(db(), (void *)out_list.buf, NULL, &h), EFI_SUCCESS);
	EXPECT(string_is(h, "fr-FR", 3, "autre"));
	db()->RemovePackageList(db(), h);
}

TEST(hii_string_font_info)
{
	static const UINT8 blocks[] = {EFI_HII_SIBT_EXT2,
				       EFI_HII_SIBT_FONT,
				       15,
				       0,
				       3,
				       16,
				       0,
				       1,
				       0,
				       0,
				       0,
				       'F',
				       0,
				       0,
				       0,
				       EFI_HII_SIBT_STRING_UCS2_FONT,
				       3,
				       'o',
				       0,
				       'k',
				       0,
				       0,
				       0,
				       EFI_HII_SIBT_STRING_UCS2_FONT,
				       4,
				       'n',
				       0,
				       0,
				       0,
				       EFI_HII_SIBT_END};
	static struct hii_builder b;
	EFI_FONT_INFO *font = NULL;
	EFI_HII_HANDLE h;
	CHAR16 out[8];
	UINTN size = sizeof(out);

	hb_begin(&b, &guid_b);
	hb_strings(&b, "en-US", blocks, sizeof(blocks));
	hb_end(&b);
	ASSERT_STATUS(db()->NewPackageList(db(), (void *)b.buf, NULL, &h), EFI_SUCCESS);
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 1, out, &size, &font),
		      EFI_SUCCESS);
	ASSERT(font != NULL);
	EXPECT_EQ(font->FontSize, 16);
	EXPECT_EQ(font->FontStyle, 1);
	EXPECT(font->FontName[0] == 'F' && font->FontName[1] == 0);
	pool_free(font);
	/* A font the package does not define: no font information. */
	size = sizeof(out);
	font = (void *)1;
	EXPECT_STATUS(strings()->GetString(strings(), "en-US", h, 2, out, &size, &font),
		      EFI_SUCCESS);
	EXPECT(font == NULL);
	db()->RemovePackageList(db(), h);
}
