/* The setup screen ("Ember settings"): an EFI application that publishes one HII form set
 * (strings and forms built at run time, apps/setup/pure/ifr_build.h) with a Config Access
 * protocol on a handle of its own, and shows it with the Form Browser2. The form set is
 * made of pages: each page is one form (and the sub-forms it adds), linked from the main
 * form, with its own buffer varstore that the browser edits and saves through the app's
 * Config Access. Pages register with SETUP_PAGE (a linker-section table, like the shell's
 * commands): adding a page never means editing a central list. */
#ifndef APPS_SETUP_SETUP_H
#define APPS_SETUP_SETUP_H

#include "../lib/app.h"
#include "pure/ifr_build.h"
#include <efi/protocol/form_browser2.h>
#include <efi/protocol/hii_config_access.h>

/* Form ids of the pages (a page's varstore id is its form id; its sub-forms are
 * SETUP_SUBFORM(form, k), k = 1..255). 1-15 belong to the core pages (main.c, boot_*.c, reset.c);
 * 16-31 to the settings pages (sb_*.c, settings_*.c). */
#define SETUP_FORM_MAIN 1
#define SETUP_FORM_BOOT 2
#define SETUP_FORM_RESET 3
#define SETUP_FORM_DEVICES 4
#define SETUP_FORM_SECURE_BOOT 16
#define SETUP_FORM_RESOLUTION 17
#define SETUP_FORM_SERIAL 18
#define SETUP_FORM_DATE_TIME 19
#define SETUP_FORM_SYSTEM_INFO 20
#define SETUP_SUBFORM(form, k) ((EFI_FORM_ID)((form) | (k) << 8))

/* A page's question ids: SETUP_QID(page's form, n), n = 1..255; the app hands a callback
 * to the page whose form is the id's high byte. */
#define SETUP_QID(form, n) ((EFI_QUESTION_ID)(((form)&0xff) << 8 | (n)))

/* What a page's build writes into: the forms package and the string package. */
struct setup_build {
	struct ifrb ifr;
	struct strb str;
};

/* An ASCII string of the package (its id, 0 when the package is full). */
EFI_STRING_ID setup_str(struct setup_build *b, const char *text);

/* A question header with the page's varstore (store = page's form). */
struct ifrb_question setup_q(EFI_STRING_ID prompt, EFI_STRING_ID help, EFI_QUESTION_ID id,
			     EFI_VARSTORE_ID store, UINT16 offset, UINT8 flags);

struct setup_page {
	EFI_FORM_ID form;  /* SETUP_FORM_*: also its varstore id */
	UINT16 rank;	   /* place of its link on the main form, smaller first */
	const char *title; /* the link's text and the form's title */
	const char *help;  /* the link's help line */
	const char *store; /* its varstore's name (ASCII, < 32 chars); NULL: none */
	UINT16 store_size; /* bytes of the varstore */
	/* Appends the page's form(s): ifrb_form(form, ...) ... ifrb_end. Questions on the
	 * varstore use store id = form. Called at every (re)build of the form set. */
	void (*build)(struct setup_build *b);
	/* Fills data[0..store_size) with the current settings (the browser's starting copy). */
	EFI_STATUS (*load)(UINT8 *data);
	/* Applies data[0..store_size) as the browser saves it (F10, or Y on leaving). */
	EFI_STATUS (*save)(const UINT8 *data);
	/* Config Access Callback for the page's questions with EFI_IFR_FLAG_CALLBACK (UEFI
	 * 2.10, 35.5.3); NULL: EFI_UNSUPPORTED. */
	EFI_STATUS (*callback)(EFI_BROWSER_ACTION action, EFI_QUESTION_ID id, UINT8 type,
			       EFI_IFR_TYPE_VALUE *value, EFI_BROWSER_ACTION_REQUEST *request);
};

/* Registers a page: entries live in the PE section .setpg$m, which lld sorts between the
 * markers of pages.c. ident must be unique. */
#define SETUP_PAGE(ident, ...)                                                                     \
	__attribute__((used, section(".setpg$m"),                                                  \
		       aligned(8))) static const struct setup_page setup_page_##ident = {          \
	    __VA_ARGS__}

/* Every registered page, sorted by rank: fills out[] (up to max), returns how many. */
UINTN setup_pages(const struct setup_page **out, UINTN max);
/* The page of a form id (or of a question id's high byte), NULL for none. */
const struct setup_page *setup_page_of(EFI_FORM_ID form);

/* ---- Services for pages' callbacks ---- */

/* Asks for the form set to be built again (a page's questions changed: an option added or
 * deleted) and shown at form reopen: sets *request so that the browser saves and leaves,
 * and the app then publishes and shows the new form set. */
void setup_rebuild(EFI_FORM_ID reopen, EFI_BROWSER_ACTION_REQUEST *request);

/* Asks for another driver's form set to be shown: the browser saves what the user changed
 * and leaves, the app shows that form set with SendForm, then its own again at reopen. */
void setup_show_form_set(EFI_HII_HANDLE hii, const EFI_GUID *form_set, EFI_FORM_ID reopen,
			 EFI_BROWSER_ACTION_REQUEST *request);

/* Changes a string of the published form set (shown at the browser's next redraw). */
EFI_STATUS setup_set_string(EFI_STRING_ID id, const CHAR16 *text);

/* The browser's copy of a page's varstore, read (data[0..store_size)) or replaced. */
EFI_STATUS setup_browser_get(const struct setup_page *p, UINT8 *data);
EFI_STATUS setup_browser_set(const struct setup_page *p, const UINT8 *data);

/* Asks a yes/no question on the screen (drawn by the app during a callback). */
bool setup_confirm(const char *question);

/* Lets the user choose a file on any file system (a picker drawn by the app): its volume's
 * handle and its path from the root (units CHAR16s). EFI_ABORTED when the user leaves. */
EFI_STATUS setup_pick_file(const char *title, EFI_HANDLE *volume, CHAR16 *path, size_t units);

#endif
