/* The setup screen ("Ember settings"): publishes the form set of its pages on a handle of
 * its own (a vendor device path and the Config Access of access.c) and shows it with the
 * Form Browser2 until the user leaves. A page that changes the shape of its forms (an
 * option added or deleted) asks for a rebuild: the browser saves and leaves, and the app
 * publishes the new form set and shows it again at that page. */
#include "internal.h"
#include <efi/protocol/device_path.h>
#include <ember/lib/guids.h>

#define SETUP_GUID_INIT                                                                            \
	{                                                                                          \
		0x5e1d6a3c, 0x2b47, 0x4f90,                                                        \
		{                                                                                  \
			0xa1, 0x6c, 0x3d, 0x8e, 0x72, 0x05, 0xb9, 0x14                             \
		}                                                                                  \
	}

const EFI_GUID setup_formset_guid = SETUP_GUID_INIT;
EFI_HII_CONFIG_ROUTING_PROTOCOL *setup_routing;
EFI_FORM_BROWSER2_PROTOCOL *setup_browser;
EFI_HII_STRING_PROTOCOL *setup_strings;
EFI_HII_HANDLE setup_hii;
EFI_FORM_ID setup_reopen;
EFI_HII_DATABASE_PROTOCOL *setup_database;
static EFI_HII_HANDLE other_hii; /* a driver's form set to show next */
static EFI_GUID other_form_set;

static const struct {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH_PROTOCOL end;
} setup_path = {
    {{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}}, SETUP_GUID_INIT},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};

/* Asks for a rebuild: the browser saves what the user changed and leaves. */
void setup_rebuild(EFI_FORM_ID reopen, EFI_BROWSER_ACTION_REQUEST *request)
{
	setup_reopen = reopen;
	if (request)
		*request = EFI_BROWSER_ACTION_REQUEST_FORM_SUBMIT_EXIT;
}

/* Asks for a driver's form set: the browser saves and leaves, run() shows it. */
void setup_show_form_set(EFI_HII_HANDLE hii, const EFI_GUID *form_set, EFI_FORM_ID reopen,
			 EFI_BROWSER_ACTION_REQUEST *request)
{
	other_hii = hii;
	other_form_set = *form_set;
	setup_rebuild(reopen, request);
}

/* Shows the driver's form set asked for; its driver's Config Access saves it. */
static EFI_STATUS show_other(EFI_BROWSER_ACTION_REQUEST *request)
{
	EFI_HII_HANDLE hii = other_hii;
	EFI_STATUS status;

	other_hii = NULL;
	status = setup_browser->SendForm(setup_browser, &hii, 1, &other_form_set, 0, NULL, request);
	if (EFI_ERROR(status))
		app_print("setup: showing the driver's forms: %r\n", status);
	return status;
}

/* Changes a string of the shown form set. */
EFI_STATUS setup_set_string(EFI_STRING_ID id, const CHAR16 *text)
{
	if (!setup_hii)
		return EFI_NOT_READY;
	return setup_strings->SetString(setup_strings, setup_hii, id, "en-US", (EFI_STRING)text,
					NULL);
}

static bool find_protocols(void)
{
	return !EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_hii_database_protocol_guid, NULL,
						 (void **)&setup_database)) &&
	       !EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_hii_string_protocol_guid, NULL,
						 (void **)&setup_strings)) &&
	       !EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_hii_config_routing_protocol_guid,
						 NULL, (void **)&setup_routing)) &&
	       !EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_form_browser2_protocol_guid, NULL,
						 (void **)&setup_browser));
}

/* Publishes the form set, shows it at form, takes it away. */
static EFI_STATUS show(EFI_HANDLE driver, EFI_FORM_ID form, EFI_BROWSER_ACTION_REQUEST *request)
{
	EFI_HII_PACKAGE_LIST_HEADER *list = setup_package_list();
	EFI_STATUS status;

	if (!list) {
		app_print("setup: the forms do not fit\n");
		return EFI_OUT_OF_RESOURCES;
	}
	status = setup_database->NewPackageList(setup_database, list, driver, &setup_hii);
	app_free(list);
	if (EFI_ERROR(status)) {
		app_print("setup: publishing the forms: %r\n", status);
		return status;
	}
	setup_reopen = 0;
	status = setup_browser->SendForm(setup_browser, &setup_hii, 1,
					 (EFI_GUID *)&setup_formset_guid, form, NULL, request);
	setup_database->RemovePackageList(setup_database, setup_hii);
	setup_hii = NULL;
	return status;
}

/* Shows the forms again after each rebuild, and the main form after a page opened alone. */
static EFI_STATUS run(EFI_HANDLE driver, EFI_BROWSER_ACTION_REQUEST *request)
{
	EFI_FORM_ID form = SETUP_FORM_MAIN;
	EFI_STATUS status;

	for (;;) {
		*request = EFI_BROWSER_ACTION_REQUEST_NONE;
		status = show(driver, form, request);
		if (!EFI_ERROR(status) && other_hii) {
			*request = EFI_BROWSER_ACTION_REQUEST_NONE;
			show_other(request); /* a failure is shown; the app goes on */
		}
		if (EFI_ERROR(status) || *request == EFI_BROWSER_ACTION_REQUEST_RESET)
			return status;
		if (setup_reopen)
			form = setup_reopen;
		else if (form != SETUP_FORM_MAIN)
			form = SETUP_FORM_MAIN;
		else
			return status;
	}
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_BROWSER_ACTION_REQUEST request = EFI_BROWSER_ACTION_REQUEST_NONE;
	EFI_HANDLE driver = NULL;
	EFI_STATUS status;

	app_init(image, st);
	if (!find_protocols()) {
		app_print("setup: the HII protocols are missing\n");
		return EFI_UNSUPPORTED;
	}
	status = app_bs->InstallMultipleProtocolInterfaces(
	    &driver, &efi_device_path_protocol_guid, &setup_path,
	    &efi_hii_config_access_protocol_guid, &setup_access, NULL);
	if (EFI_ERROR(status)) {
		app_print("setup: installing Config Access: %r\n", status);
		return status;
	}
	status = run(driver, &request);
	app_bs->UninstallMultipleProtocolInterfaces(
	    driver, &efi_device_path_protocol_guid, &setup_path,
	    &efi_hii_config_access_protocol_guid, &setup_access, NULL);
	if (request == EFI_BROWSER_ACTION_REQUEST_RESET)
		app_rt->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	app_print("setup: done (%r)\n", status);
	return status;
}
