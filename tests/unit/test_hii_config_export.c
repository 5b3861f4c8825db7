/* ExportConfig built from the forms (core/hii/config_export.c): a driver that answers only
 * explicit requests (NULL gives EFI_NOT_FOUND, as the forms-test driver does) is asked for
 * each buffer varstore of the form set its package list publishes. */
#include <string.h>
#include "support/test.h"
#include "hii_builder.h"
#include "../../apps/forms-test/pure/form_package.h"
#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/lib/guids.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/hii_config_access.h>
#include <efi/protocol/hii_config_routing.h>
#include <efi/protocol/hii_database.h>

static const EFI_GUID ft_guid = FT_GUID_INIT;
static UINT8 store[FT_DATA_SIZE];
static unsigned null_requests, requests;

static const struct {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH_PROTOCOL end;
} path = {
    {{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}}, FT_GUID_INIT},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};

static void *locate(const EFI_GUID *guid)
{
	void *p = NULL;

	hii_publish();
	protocol_locate(guid, &p);
	return p;
}

static EFI_STATUS EFIAPI explicit_extract(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
					  const EFI_STRING Request, EFI_STRING *Progress,
					  EFI_STRING *Results)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = locate(&efi_hii_config_routing_protocol_guid);

	*Progress = Request;
	if (!Request) {
		null_requests++;
		return EFI_NOT_FOUND;
	}
	requests++;
	return r->BlockToConfig(r, Request, store, sizeof(store), Results, Progress);
}

static EFI_HII_CONFIG_ACCESS_PROTOCOL access = {explicit_extract, NULL, NULL};

/* "NAME=" as the <ConfigHdr> spells FtData: each UCS-2 unit as four hex digits. */
#define FT_NAME_HEX "NAME=004600740044006100740061&"

TEST(hii_config_export_from_forms)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *r = locate(&efi_hii_config_routing_protocol_guid);
	EFI_HII_DATABASE_PROTOCOL *db = locate(&efi_hii_database_protocol_guid);
	static struct hii_builder b;
	UINT8 forms[2048], strings[2048];
	size_t nf = ft_forms_package(forms, sizeof(forms), 0);
	size_t ns = ft_strings_package(strings, sizeof(strings));
	EFI_HANDLE driver = NULL;
	EFI_HII_HANDLE h = NULL;
	EFI_STRING results = NULL;
	char text[4096];
	size_t n = 0;

	ASSERT(r && db && nf && ns);
	memset(store, 0, sizeof(store));
	store[FT_OFF_COUNT] = 0x5a;
	ASSERT_STATUS(protocol_install_multiple(&driver, &efi_device_path_protocol_guid,
						(void *)&path, &efi_hii_config_access_protocol_guid,
						&access, NULL),
		      EFI_SUCCESS);
	hb_begin(&b, &ft_guid);
	hb_package(&b, EFI_HII_PACKAGE_FORMS, forms + 4, (UINT32)nf - 4);
	hb_package(&b, EFI_HII_PACKAGE_STRINGS, strings + 4, (UINT32)ns - 4);
	hb_end(&b);
	ASSERT_STATUS(db->NewPackageList(db, (EFI_HII_PACKAGE_LIST_HEADER *)b.buf, driver, &h),
		      EFI_SUCCESS);
	null_requests = requests = 0;
	ASSERT_STATUS(r->ExportConfig(r, &results), EFI_SUCCESS);
	EXPECT_EQ(requests, 1);
	EXPECT_EQ(null_requests, 0);
	for (; results && results[n] && n + 1 < sizeof(text); n++)
		text[n] = (char)results[n];
	text[n] = 0;
	EXPECT(strstr(text, FT_NAME_HEX) != NULL);
	/* 40 bytes, VALUE as a little-endian number: Count's 0x5a at offset 2. */
	EXPECT(strstr(text, "&OFFSET=0&WIDTH=28&VALUE=") != NULL);
	EXPECT(strstr(text, "5a0000&") != NULL || strstr(text, "5a0000") != NULL);
	pool_free(results);
	db->RemovePackageList(db, h);
	protocol_uninstall_multiple(driver, &efi_device_path_protocol_guid, (void *)&path,
				    &efi_hii_config_access_protocol_guid, &access, NULL);
}
