/* The text-mode forms browser (browser*.c): one session of SendForm, its form set read
 * from a package list, a copy of each varstore it edits, and where the user is. */
#ifndef CORE_HII_BROWSER_H
#define CORE_HII_BROWSER_H

#include "hii.h"
#include <ember/core/hii_ifr.h>
#include <efi/protocol/form_browser2.h>

#define BROWSER_FORM_DEPTH 8

struct browser {
	struct hii_list *list;
	struct ifr_formset fs;
	UINT8 **data;			       /* a buffer for each varstore */
	EFI_DEVICE_PATH_PROTOCOL *driver_path; /* of the list's driver, NULL for none */
	EFI_HII_CONFIG_ACCESS_PROTOCOL *access;
	bool dirty, leave;
	EFI_BROWSER_ACTION_REQUEST request; /* what the session ends with */
	EFI_FORM_ID stack[BROWSER_FORM_DEPTH];
	int depth;				    /* forms open: stack[depth - 1] is shown */
	UINT16 selected;			    /* index in the form's statements */
	UINT16 selected_before[BROWSER_FORM_DEPTH]; /* in each form under the shown one */
	UINTN cols, rows;
	const char *message; /* a line for the user at the bottom */
};

/* Reads the varstores' values into b->data: from the driver's Config Access (through the
 * routing protocol) or the UEFI variable; questions' defaults where none can be read
 * (browser_storage.c). */
EFI_STATUS browser_load(struct browser *b);

/* Writes every varstore back the same way. */
EFI_STATUS browser_save(struct browser *b);

/* A question's value in its varstore's copy (0 without storage), and its change. */
UINT64 browser_value(const struct browser *b, const struct ifr_statement *s);
void browser_set_value(struct browser *b, const struct ifr_statement *s, UINT64 value);

/* A string question's text (units CHAR16s, terminated) and its change. */
void browser_string(const struct browser *b, const struct ifr_statement *s, CHAR16 *out,
		    size_t units);
void browser_set_string(struct browser *b, const struct ifr_statement *s, const CHAR16 *text);

/* A string of the list (the first language), or an empty one. */
void browser_text(const struct browser *b, EFI_STRING_ID id, CHAR16 *out, size_t units);

/* Shows the forms until the user leaves (browser_ui.c). */
void browser_run(struct browser *b);

/* The <ConfigHdr> of a varstore (GUID, NAME, PATH of the driver), or NULL without memory. */
CHAR16 *browser_config_header(const struct browser *b, const struct ifr_varstore *v);

/* The <ConfigRequest> of a whole varstore (its header, &OFFSET=0&WIDTH=size). */
CHAR16 *browser_whole_request(const struct browser *b, const struct ifr_varstore *v);

/* The session SendForm is running, for BrowserCallback; NULL when none. */
extern struct browser *browser_current;

#endif
