/* The device settings page: a line for every form set other drivers published in the HII
 * database (a NIC's, a disk controller's, a test driver's), found when the forms are built.
 * Choosing one shows that form set with the Form Browser, saved through its driver's Config
 * Access; leaving it comes back to this page. */
#include "internal.h"
#include "pure/form_set_info.h"
#include <ember/lib/format.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define MAX_FORM_SETS 16
#define TITLE_UNITS 64

static struct {
	EFI_HII_HANDLE hii;
	EFI_GUID guid;
} found[MAX_FORM_SETS];
static UINTN found_count;

/* The form set's title in its package's English strings, or its GUID's first bytes. */
static void title_of(EFI_HII_HANDLE hii, const struct form_set_info *info, CHAR16 *out)
{
	UINTN size = TITLE_UNITS * sizeof(CHAR16);
	char text[TITLE_UNITS];
	size_t n;

	if (!EFI_ERROR(setup_strings->GetString(setup_strings, (CHAR8 *)"en-US", hii, info->title,
						out, &size, NULL)))
		return;
	n = format_sn(text, sizeof(text), "Form set %08x", (unsigned)info->guid.Data1);
	utf8_to_ucs2(out, TITLE_UNITS, text, n); /* terminated */
}

/* The first form set of a package list the database holds. */
static bool read_info(EFI_HII_DATABASE_PROTOCOL *db, EFI_HII_HANDLE hii, struct form_set_info *info)
{
	UINTN size = 0;
	EFI_HII_PACKAGE_LIST_HEADER *list;
	bool ok;

	if (db->ExportPackageLists(db, hii, &size, NULL) != EFI_BUFFER_TOO_SMALL ||
	    !(list = app_alloc(size)))
		return false;
	ok = !EFI_ERROR(db->ExportPackageLists(db, hii, &size, list)) &&
	     form_set_info((const UINT8 *)list, size, info);
	app_free(list);
	return ok;
}

/* The handles of the package lists with forms (app_alloc'd, *count of them); NULL if none. */
static EFI_HII_HANDLE *list_form_sets(UINTN *count)
{
	EFI_HII_DATABASE_PROTOCOL *db = setup_database;
	EFI_HII_HANDLE *handles;
	UINTN size = 0;

	*count = 0;
	if (db->ListPackageLists(db, EFI_HII_PACKAGE_FORMS, NULL, &size, NULL) !=
		EFI_BUFFER_TOO_SMALL ||
	    !(handles = app_alloc(size)))
		return NULL;
	if (EFI_ERROR(db->ListPackageLists(db, EFI_HII_PACKAGE_FORMS, NULL, &size, handles))) {
		app_free(handles);
		return NULL;
	}
	*count = size / sizeof(*handles);
	return handles;
}

/* An action for a form set, when it has one and room is left. */
static void add_form_set(struct setup_build *b, EFI_HII_HANDLE hii)
{
	struct form_set_info info;
	CHAR16 title[TITLE_UNITS];
	struct ifrb_question q;

	if (found_count == MAX_FORM_SETS || hii == setup_hii ||
	    !read_info(setup_database, hii, &info))
		return;
	title_of(hii, &info, title);
	found[found_count].hii = hii;
	found[found_count].guid = info.guid;
	found_count++;
	q = setup_q(strb_add16(&b->str, title), setup_str(b, ""),
		    SETUP_QID(SETUP_FORM_DEVICES, found_count), 0, 0, 0);
	ifrb_action(&b->ifr, &q);
}

static void devices_build(struct setup_build *b)
{
	UINTN n;
	EFI_HII_HANDLE *handles = list_form_sets(&n);

	found_count = 0;
	ifrb_form(&b->ifr, SETUP_FORM_DEVICES, setup_str(b, "Device settings"));
	ifrb_subtitle(&b->ifr, setup_str(b, "The settings drivers offer; Enter opens them"));
	for (UINTN i = 0; i < n; i++)
		add_form_set(b, handles[i]);
	if (!found_count)
		ifrb_text(&b->ifr, setup_str(b, "No driver offers settings"), setup_str(b, ""), 0);
	ifrb_end(&b->ifr);
	app_free(handles);
}

static EFI_STATUS devices_callback(EFI_BROWSER_ACTION action, EFI_QUESTION_ID id, UINT8 type,
				   EFI_IFR_TYPE_VALUE *value, EFI_BROWSER_ACTION_REQUEST *request)
{
	UINTN n = (UINTN)(id & 0xff);

	if (n < 1 || n > found_count)
		return EFI_UNSUPPORTED;
	if (action == EFI_BROWSER_ACTION_CHANGED)
		setup_show_form_set(found[n - 1].hii, &found[n - 1].guid, SETUP_FORM_DEVICES,
				    request);
	return EFI_SUCCESS;
}

SETUP_PAGE(devices, .form = SETUP_FORM_DEVICES, .rank = 800, .title = "Device settings",
	   .help = "Settings of the drivers that offer forms", .build = devices_build,
	   .callback = devices_callback);
