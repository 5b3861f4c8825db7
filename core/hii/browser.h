/* The text-mode forms browser (browser*.c): one session of SendForm, its form set read
 * from a package list, a copy of each varstore it edits, and where the user is. */
#ifndef CORE_HII_BROWSER_H
#define CORE_HII_BROWSER_H

#include "hii.h"
#include <ember/core/hii_ifr.h>
#include <efi/protocol/form_browser2.h>

#define BROWSER_FORM_DEPTH 8
#define BROWSER_LINE_MAX 256

#define BROWSER_ERROR_MAX 80

struct browser {
	struct hii_list *list;
	UINT32 generation; /* the list's, when the form set was read */
	UINT8 *package;	   /* a copy of the forms package read (fs points into it) */
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
	const char *message;		 /* a line for the user at the bottom */
	CHAR16 error[BROWSER_ERROR_MAX]; /* a driver's error string (inconsistentif, ...) */
};

/* Reads the varstores' values into b->data: from the driver's Config Access (through the
 * routing protocol) or the UEFI variable; questions' defaults where none can be read
 * (browser_storage.c). */
EFI_STATUS browser_load(struct browser *b);

/* Writes every varstore back the same way. */
EFI_STATUS browser_save(struct browser *b);

/* Where a question's value is in its varstore's copy (the reader checked the range), or
 * NULL without storage. */
UINT8 *browser_storage(const struct browser *b, const struct ifr_statement *s);

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

/* Reads a key, waiting for one: false when there is no input. */
bool browser_read_key(EFI_INPUT_KEY *key);

/* Writes a line at a row, cut at the screen's width and padded. */
void browser_put_line(const struct browser *b, UINTN row, const CHAR16 *text, UINTN attr);

#define BROWSER_DIGITS 1 /* browser_read_line: digits only */
#define BROWSER_MASKED 2 /* browser_read_line: shown as stars (passwords) */

/* Reads a line typed on the bottom row after a label (max characters, `how` the flags
 * above): false when Esc cancels it. */
bool browser_read_line(struct browser *b, const char *label, CHAR16 *text, size_t max,
		       unsigned how);

/* Calls the driver's Callback for a question with the CALLBACK flag (true without one):
 * false when it refused; its ActionRequest is honoured. */
bool browser_question_callback(struct browser *b, const struct ifr_statement *s,
			       EFI_BROWSER_ACTION action, UINT64 value);

/* REFRESH (browser_refresh.c): the shortest interval of the shown form's questions (0
 * for none); a key waited for at most that long (1 a key, 0 the time passed, -1 no
 * input); the refreshed questions read again from their drivers. */
UINT8 browser_refresh_interval(struct browser *b);
int browser_read_key_within(UINT8 seconds, EFI_INPUT_KEY *key);
void browser_refresh(struct browser *b);

/* Sets a password question's password (browser_password.c). */
void browser_password(struct browser *b, const struct ifr_statement *s);

/* Gives a question a new value through the driver's callback and its inconsistentif
 * conditions (refused: the old value stays and b->message or b->error says why). */
void browser_change(struct browser *b, const struct ifr_statement *s, UINT64 value);

/* The conditions (browser_cond.c): whether a statement is hidden (suppressif, disableif)
 * or grayed out, and whether an option is hidden, as the values are now. */
bool browser_hidden(struct browser *b, const struct ifr_statement *s);
bool browser_grayed(struct browser *b, const struct ifr_statement *s);
bool browser_option_hidden(struct browser *b, const struct ifr_option *o);

/* Whether one of a question's conditions of a kind (inconsistentif; nosubmitif, any
 * question when s is NULL) holds; its error string goes to b->error. */
bool browser_refused(struct browser *b, const struct ifr_statement *s, enum ifr_cond_kind kind);

/* Saves after the nosubmitif conditions: EFI_ACCESS_DENIED (b->error says why) when one
 * holds. */
EFI_STATUS browser_submit(struct browser *b);

/* Ordered lists, dates and times edited on the bottom row (browser_edit.c). */
void browser_edit_ordered(struct browser *b, const struct ifr_statement *s);
void browser_edit_date_time(struct browser *b, const struct ifr_statement *s);

/* The value column of an ordered list, a date or a time (browser_edit.c). */
void browser_edit_value_text(struct browser *b, const struct ifr_statement *s, CHAR16 *out,
			     size_t units);

/* Reads the form set again when the driver updated the list (browser.c): true when the
 * session now holds the new one. */
bool browser_reread(struct browser *b);

/* The <ConfigRequest> of a whole varstore (its header, &OFFSET=0&WIDTH=size). */
CHAR16 *browser_whole_request(const struct browser *b, const struct ifr_varstore *v);

/* The session SendForm is running, for BrowserCallback; NULL when none. */
extern struct browser *browser_current;

#endif
