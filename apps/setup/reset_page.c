/* The reset page: "Reset all variables to defaults" deletes every non-volatile variable the
 * rules let it delete (the Secure Boot keys, authenticated, stay: the Secure Boot page
 * resets them) and restarts the machine, whose boot manager then writes its defaults. */
#include "setup.h"

#define Q_RESET SETUP_QID(SETUP_FORM_RESET, 1)
#define NAME_UNITS 512

static void reset_build(struct setup_build *b)
{
	struct ifrb_question q = setup_q(
	    setup_str(b, "Reset all variables to defaults"),
	    setup_str(b, "Deletes the boot options and settings, then restarts"), Q_RESET, 0, 0, 0);

	ifrb_form(&b->ifr, SETUP_FORM_RESET, setup_str(b, "Reset to defaults"));
	ifrb_text(&b->ifr, setup_str(b, "Every setting returns to its default"), setup_str(b, ""),
		  0);
	ifrb_text(&b->ifr, setup_str(b, "Secure Boot keys stay (see the Secure Boot page)"),
		  setup_str(b, ""), 0);
	ifrb_action(&b->ifr, &q);
	ifrb_end(&b->ifr);
}

/* Whether a variable is non-volatile. */
static bool non_volatile(CHAR16 *name, EFI_GUID *guid)
{
	UINT32 attributes = 0;
	UINTN size = 0;
	void *data;
	bool nv;

	if (app_rt->GetVariable(name, guid, &attributes, &size, NULL) != EFI_BUFFER_TOO_SMALL ||
	    !(data = app_alloc(size ? size : 1)))
		return false;
	nv = !EFI_ERROR(app_rt->GetVariable(name, guid, &attributes, &size, data)) &&
	     (attributes & EFI_VARIABLE_NON_VOLATILE);
	app_free(data);
	return nv;
}

/* The next non-volatile variable after those already tried (tried: how many were kept, so
 * the walk starts again after a deletion, which the spec lets break GetNextVariableName). */
static bool next_deletable(CHAR16 *name, EFI_GUID *guid, UINTN skip)
{
	UINTN size;

	name[0] = 0;
	for (;;) {
		size = NAME_UNITS * sizeof(CHAR16);
		if (EFI_ERROR(app_rt->GetNextVariableName(&size, name, guid)))
			return false;
		if (non_volatile(name, guid) && skip-- == 0)
			return true;
	}
}

/* Deletes what can be deleted; returns how many were deleted. */
static UINTN delete_all(void)
{
	static CHAR16 name[NAME_UNITS];
	EFI_GUID guid;
	UINTN kept = 0, deleted = 0;

	while (next_deletable(name, &guid, kept)) {
		if (EFI_ERROR(app_rt->SetVariable(name, &guid, 0, 0, NULL)))
			kept++;
		else
			deleted++;
	}
	return deleted;
}

static EFI_STATUS reset_callback(EFI_BROWSER_ACTION action, EFI_QUESTION_ID id, UINT8 type,
				 EFI_IFR_TYPE_VALUE *value, EFI_BROWSER_ACTION_REQUEST *request)
{
	if (id != Q_RESET || action != EFI_BROWSER_ACTION_CHANGED)
		return id == Q_RESET && action == EFI_BROWSER_ACTION_CHANGING ? EFI_SUCCESS
									      : EFI_UNSUPPORTED;
	if (!setup_confirm("Delete every setting and restart?"))
		return EFI_SUCCESS;
	app_print("\r\nsetup: %u variables deleted\r\n", (unsigned)delete_all());
	*request = EFI_BROWSER_ACTION_REQUEST_RESET;
	return EFI_SUCCESS;
}

SETUP_PAGE(reset, .form = SETUP_FORM_RESET, .rank = 900, .title = "Reset to defaults",
	   .help = "Deletes every setting (with a confirmation)", .build = reset_build,
	   .callback = reset_callback);
