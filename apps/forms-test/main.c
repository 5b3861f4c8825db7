/* forms-test: a driver's part in HII forms, played by an application. It publishes the
 * form set of pure/form_package.c on a handle of its own (a vendor device path and a Config
 * Access protocol that keeps the settings in the variable FtData), opens it with the Form
 * Browser's SendForm, and once the user leaves prints the variable and how often its action
 * callback ran, for tests that drive the browser with keys. Its "Add entry" action updates
 * the package list while the form is shown, as drivers that fill labels do. Linked as a
 * boot service driver (build/apps/forms-driver.efi) it publishes the same and stays, a
 * device driver's form set for the setup screen to show. */
#include "../lib/app.h"
#include "pure/form_package.h"
#include <efi/protocol/device_path.h>
#include <efi/protocol/form_browser2.h>
#include <efi/protocol/hii_config_access.h>
#include <efi/protocol/hii_config_routing.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/hii_string.h>
#include <ember/lib/guids.h>

#define FT_ATTRIBUTES                                                                              \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define LIST_ROOM 4096

static const EFI_GUID ft_guid = FT_GUID_INIT;
static EFI_HII_CONFIG_ROUTING_PROTOCOL *routing;
static EFI_HII_DATABASE_PROTOCOL *db;
static EFI_HII_HANDLE hii;
static EFI_HII_STRING_PROTOCOL *strings;
static unsigned action_calls, added, reads;
static CHAR16 password[FT_PASSWORD_CHARS + 1];
static bool password_checked; /* the old password was given (or none is set) */

static const struct {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH_PROTOCOL end;
} ft_path = {
    {{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}}, FT_GUID_INIT},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};

/* The settings from the variable, or the form's defaults when it is missing. */
static void load(UINT8 *data)
{
	UINTN size = FT_DATA_SIZE;

	if (!EFI_ERROR(app_rt->GetVariable(u"FtData", (EFI_GUID *)&ft_guid, NULL, &size, data)) &&
	    size == FT_DATA_SIZE)
		return;
	mem_set(data, 0, FT_DATA_SIZE);
	data[FT_OFF_COUNT] = 10;
	for (UINT8 i = 0; i < FT_ORDER_COUNT; i++)
		data[FT_OFF_ORDER + i] = (UINT8)(i + 1);
	mem_copy(data + FT_OFF_DATE, &(EFI_HII_DATE){2026, 1, 15}, sizeof(EFI_HII_DATE));
	mem_copy(data + FT_OFF_TIME, &(EFI_HII_TIME){12, 30, 45}, sizeof(EFI_HII_TIME));
	data[FT_OFF_LEVEL] = 1;
}

static size_t build_list(UINT8 *list);

/* The driver's dynamic form (as drivers fill a label): one more text in the second form,
 * published while the browser shows it. */
static EFI_STATUS add_entry(void)
{
	static UINT8 list[LIST_ROOM];

	added++;
	if (!build_list(list))
		return EFI_OUT_OF_RESOURCES;
	return db->UpdatePackageList(db, hii, (EFI_HII_PACKAGE_LIST_HEADER *)list);
}

/* This driver answers requests for its varstore only, not whole-export (NULL) ones. */
static EFI_STATUS EFIAPI ft_extract(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
				    const EFI_STRING Request, EFI_STRING *Progress,
				    EFI_STRING *Results)
{
	UINT8 data[FT_DATA_SIZE];

	if (!Progress || !Results)
		return EFI_INVALID_PARAMETER;
	*Progress = Request;
	if (!Request)
		return EFI_NOT_FOUND;
	load(data);
	data[FT_OFF_READS] = (UINT8)++reads; /* a value that changes for REFRESH to show */
	return routing->BlockToConfig(routing, Request, data, sizeof(data), Results, Progress);
}

static EFI_STATUS EFIAPI ft_route(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
				  const EFI_STRING Configuration, EFI_STRING *Progress)
{
	UINT8 data[FT_DATA_SIZE];
	UINTN size = sizeof(data);
	EFI_STATUS status;

	if (!Configuration || !Progress)
		return EFI_INVALID_PARAMETER;
	load(data);
	status = routing->ConfigToBlock(routing, Configuration, data, &size, Progress);
	if (EFI_ERROR(status))
		return status;
	return app_rt->SetVariable(u"FtData", (EFI_GUID *)&ft_guid, FT_ATTRIBUTES, sizeof(data),
				   data);
}

/* The password handshake (35.5): string 0 asks whether an old password is needed; then
 * the old one (when set) and the new one come as strings of the list. */
static EFI_STATUS password_changing(EFI_STRING_ID id)
{
	CHAR16 text[FT_PASSWORD_CHARS + 1] = {0};
	UINTN size = sizeof(text);

	if (!id) {
		password_checked = !password[0];
		return password_checked ? EFI_SUCCESS : EFI_NOT_READY;
	}
	if (EFI_ERROR(strings->GetString(strings, "en-US", hii, id, text, &size, NULL)))
		return EFI_NOT_READY;
	if (!password_checked) {
		for (int i = 0; i <= FT_PASSWORD_CHARS; i++) {
			if (text[i] != password[i])
				return EFI_NOT_READY;
			if (!text[i])
				break;
		}
		password_checked = true;
		return EFI_SUCCESS;
	}
	mem_copy(password, text, sizeof(password));
	password_checked = false;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ft_callback(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
				     EFI_BROWSER_ACTION Action, EFI_QUESTION_ID QuestionId,
				     UINT8 Type, EFI_IFR_TYPE_VALUE *Value,
				     EFI_BROWSER_ACTION_REQUEST *ActionRequest)
{
	if (QuestionId == FT_QID_ADD && Action == EFI_BROWSER_ACTION_CHANGED)
		return add_entry();
	if (QuestionId == FT_QID_PASSWORD && Action == EFI_BROWSER_ACTION_CHANGING &&
	    Type == EFI_IFR_TYPE_STRING && Value)
		return password_changing(Value->string);
	if (QuestionId != FT_QID_ACTION)
		return EFI_UNSUPPORTED;
	if (Action == EFI_BROWSER_ACTION_CHANGED)
		action_calls++;
	return EFI_SUCCESS;
}

static EFI_HII_CONFIG_ACCESS_PROTOCOL ft_access = {ft_extract, ft_route, ft_callback};

/* The package list: header, forms, strings, END. */
static size_t build_list(UINT8 *list)
{
	EFI_HII_PACKAGE_LIST_HEADER hdr = {ft_guid, 0};
	size_t n = sizeof(hdr), forms, strings;
	UINT32 end = 4 | (UINT32)EFI_HII_PACKAGE_END << 24;

	forms = ft_forms_package(list + n, LIST_ROOM - n, added);
	n += forms;
	strings = ft_strings_package(list + n, LIST_ROOM - n);
	n += strings;
	if (!forms || !strings || n + 4 > LIST_ROOM)
		return 0;
	mem_copy(list + n, &end, 4);
	n += 4;
	hdr.PackageLength = (UINT32)n;
	mem_copy(list, &hdr, sizeof(hdr));
	return n;
}

static void report(EFI_STATUS status, EFI_BROWSER_ACTION_REQUEST request)
{
	UINT8 data[FT_DATA_SIZE];
	CHAR16 name[FT_NAME_CHARS + 1] = {0};
	EFI_HII_DATE date;
	EFI_HII_TIME time;
	UINT16 count;

	load(data);
	mem_copy(&date, data + FT_OFF_DATE, sizeof(date));
	mem_copy(&time, data + FT_OFF_TIME, sizeof(time));
	mem_copy(name, data + FT_OFF_NAME, 2 * FT_NAME_CHARS);
	mem_copy(&count, data + FT_OFF_COUNT, 2);
	app_print("forms-test: SendForm %r request %u\n", status, (unsigned)request);
	app_print("forms-test: enable=%u count=%u mode=%u name=%ls actions=%u\n",
		  data[FT_OFF_ENABLE], count, data[FT_OFF_MODE], name, action_calls);
	app_print("forms-test: order=%u,%u,%u date=%04u-%02u-%02u time=%02u:%02u:%02u level=%u "
		  "turbo=%u added=%u password=%ls\n",
		  data[FT_OFF_ORDER], data[FT_OFF_ORDER + 1], data[FT_OFF_ORDER + 2], date.Year,
		  date.Month, date.Day, time.Hour, time.Minute, time.Second, data[FT_OFF_LEVEL],
		  data[FT_OFF_TURBO], added, password);
}

/* Whether this image was loaded as a boot service driver (the forms-driver.efi build). */
static bool resident(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;

	return !EFI_ERROR(app_bs->HandleProtocol(image, (EFI_GUID *)&efi_loaded_image_protocol_guid,
						 (void **)&li)) &&
	       li->ImageCodeType == EfiBootServicesCode;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static UINT8 list[LIST_ROOM];
	EFI_FORM_BROWSER2_PROTOCOL *browser;
	EFI_BROWSER_ACTION_REQUEST request = 0;
	EFI_HANDLE driver = NULL;
	EFI_STATUS status;

	app_init(image, st);
	if (EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_hii_database_protocol_guid, NULL,
					     (void **)&db)) ||
	    EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_hii_config_routing_protocol_guid,
					     NULL, (void **)&routing)) ||
	    EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_hii_string_protocol_guid, NULL,
					     (void **)&strings)) ||
	    EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_form_browser2_protocol_guid, NULL,
					     (void **)&browser))) {
		app_print("forms-test: HII protocols missing\n");
		return EFI_UNSUPPORTED;
	}
	status = app_bs->InstallMultipleProtocolInterfaces(
	    &driver, &efi_device_path_protocol_guid, &ft_path, &efi_hii_config_access_protocol_guid,
	    &ft_access, NULL);
	if (EFI_ERROR(status) || !build_list(list) ||
	    EFI_ERROR(status = db->NewPackageList(db, (EFI_HII_PACKAGE_LIST_HEADER *)list, driver,
						  &hii))) {
		app_print("forms-test: publishing the forms: %r\n", status);
		return EFI_ABORTED;
	}
	/* Built as a boot service driver (forms-driver.efi), it stays with its form set, as a
	 * device's driver does, for the setup screen to show. */
	if (resident(image)) {
		app_print("forms-test: resident\n");
		return EFI_SUCCESS;
	}
	status = browser->SendForm(browser, &hii, 1, (EFI_GUID *)&ft_guid, 0, NULL, &request);
	report(status, request);
	db->RemovePackageList(db, hii);
	app_bs->UninstallMultipleProtocolInterfaces(driver, &efi_device_path_protocol_guid,
						    &ft_path, &efi_hii_config_access_protocol_guid,
						    &ft_access, NULL);
	return status;
}
