/* EFI_FORM_BROWSER2_PROTOCOL's checks before anything is shown (core/hii/browser.c):
 * bad arguments, lists without the form set, and a forms package the IFR reader refuses
 * (the browser uses no part of a package it has not checked whole). The keys and screens
 * are tested on ember-run and QEMU (tests/integration/test_forms_browser.py). */
#include <string.h>
#include "support/test.h"
#include "hii_builder.h"
#include "../../apps/forms-test/pure/form_package.h"
#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/lib/guids.h>
#include <efi/protocol/form_browser2.h>
#include <efi/protocol/hii_database.h>

static const EFI_GUID ft_guid = FT_GUID_INIT;

static EFI_FORM_BROWSER2_PROTOCOL *browser(void)
{
	EFI_FORM_BROWSER2_PROTOCOL *p = NULL;

	hii_publish();
	protocol_locate(&efi_form_browser2_protocol_guid, (void **)&p);
	return p;
}

static EFI_HII_DATABASE_PROTOCOL *db(void)
{
	EFI_HII_DATABASE_PROTOCOL *p = NULL;

	hii_publish();
	protocol_locate(&efi_hii_database_protocol_guid, (void **)&p);
	return p;
}

/* A list of the forms-test packages, its forms changed by edit (may be NULL). */
static EFI_HII_HANDLE add_list(void (*edit)(UINT8 *forms, size_t size), bool with_forms)
{
	static struct hii_builder b;
	UINT8 forms[2048], strings[2048];
	size_t nf = ft_forms_package(forms, sizeof(forms), 0);
	size_t ns = ft_strings_package(strings, sizeof(strings));
	EFI_HII_HANDLE h = NULL;

	if (edit)
		edit(forms, nf);
	hb_begin(&b, &ft_guid);
	if (with_forms)
		hb_package(&b, EFI_HII_PACKAGE_FORMS, forms + 4, (UINT32)nf - 4);
	hb_package(&b, EFI_HII_PACKAGE_STRINGS, strings + 4, (UINT32)ns - 4);
	hb_end(&b);
	db()->NewPackageList(db(), (EFI_HII_PACKAGE_LIST_HEADER *)b.buf, NULL, &h);
	return h;
}

/* The goto's target made a form the set lacks. */
static void bad_goto(UINT8 *forms, size_t size)
{
	for (size_t at = 4; at < size; at += forms[at + 1] & 0x7f) {
		if (forms[at] == EFI_IFR_REF_OP)
			forms[at + 13] = 9;
	}
}

TEST(hii_browser_send_form_refused)
{
	EFI_FORM_BROWSER2_PROTOCOL *fb = browser();
	EFI_BROWSER_ACTION_REQUEST request = 7;
	EFI_HII_HANDLE h;
	EFI_GUID other = {1};

	ASSERT(fb);
	EXPECT_STATUS(fb->SendForm(fb, NULL, 1, NULL, 0, NULL, &request), EFI_INVALID_PARAMETER);
	h = add_list(NULL, false);
	ASSERT(h);
	EXPECT_STATUS(fb->SendForm(fb, &h, 0, NULL, 0, NULL, &request), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb->SendForm(fb, &h, 1, NULL, 0, NULL, &request), EFI_NOT_FOUND);
	EXPECT_EQ(request, EFI_BROWSER_ACTION_REQUEST_NONE);
	db()->RemovePackageList(db(), h);
	h = add_list(bad_goto, true);
	ASSERT(h);
	EXPECT_STATUS(fb->SendForm(fb, &h, 1, NULL, 0, NULL, &request), EFI_NOT_FOUND);
	db()->RemovePackageList(db(), h);
	h = add_list(NULL, true);
	EXPECT_STATUS(fb->SendForm(fb, &h, 1, &other, 0, NULL, &request), EFI_NOT_FOUND);
	EXPECT_STATUS(fb->SendForm(fb, &h, 1, NULL, 77, NULL, &request), EFI_NOT_FOUND);
	db()->RemovePackageList(db(), h);
}

TEST(hii_browser_callback_outside_send_form)
{
	EFI_FORM_BROWSER2_PROTOCOL *fb = browser();
	CHAR16 out[64];
	UINTN size = sizeof(out);

	ASSERT(fb);
	EXPECT_STATUS(fb->BrowserCallback(fb, NULL, out, TRUE, NULL, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(fb->BrowserCallback(fb, &size, out, TRUE, NULL, NULL), EFI_NOT_FOUND);
}
