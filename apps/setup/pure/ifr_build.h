/* A small builder of HII packages for the setup screen: IFR opcodes (UEFI 2.10, 33.3.8)
 * appended to a bounded buffer, and a string package of UCS-2 strings. Pure (no UEFI
 * calls), so that the unit tests parse what it builds. Once a write does not fit, the
 * builder is marked full and writes nothing more: check ifrb_done()/strb_done() at the end. */
#ifndef APPS_SETUP_IFR_BUILD_H
#define APPS_SETUP_IFR_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>
#include <efi/hii_ifr.h>
#include <efi/protocol/hii_package_list.h>

/* An IFR forms package being built: its 4-byte header first, then the opcodes. */
struct ifrb {
	UINT8 *buf;
	size_t len, room;
	bool full;
};

/* A question's header: what every question opcode starts with. */
struct ifrb_question {
	EFI_STRING_ID prompt, help;
	EFI_QUESTION_ID id;
	EFI_VARSTORE_ID store; /* 0: no storage */
	UINT16 offset;	       /* in the store */
	UINT8 flags;	       /* EFI_IFR_FLAG_* */
};

/* Starts a forms package in buf[0..room). */
void ifrb_init(struct ifrb *b, UINT8 *buf, size_t room);
/* Closes the package (its header's length); returns its size, 0 when it did not fit. */
size_t ifrb_done(struct ifrb *b);

/* Opens a form set (closed by ifrb_end) with class GUID none. */
void ifrb_form_set(struct ifrb *b, const EFI_GUID *guid, EFI_STRING_ID title, EFI_STRING_ID help);
/* A buffer varstore of size bytes called name (ASCII). */
void ifrb_varstore(struct ifrb *b, const EFI_GUID *guid, EFI_VARSTORE_ID id, UINT16 size,
		   const char *name);
/* Opens a form (closed by ifrb_end). */
void ifrb_form(struct ifrb *b, EFI_FORM_ID id, EFI_STRING_ID title);
void ifrb_subtitle(struct ifrb *b, EFI_STRING_ID text);
/* A line of text: prompt, help, and a second text shown beside it (0: none). */
void ifrb_text(struct ifrb *b, EFI_STRING_ID prompt, EFI_STRING_ID help, EFI_STRING_ID text);
/* A checkbox of one byte at q->offset. */
void ifrb_checkbox(struct ifrb *b, const struct ifrb_question *q);
/* A decimal numeric of width bytes (1, 2, 4, 8) in [min, max] by step. */
void ifrb_numeric(struct ifrb *b, const struct ifrb_question *q, UINT8 width, UINT64 min,
		  UINT64 max, UINT64 step);
/* Opens a one-of of width bytes: options follow, then ifrb_end. */
void ifrb_one_of(struct ifrb *b, const struct ifrb_question *q, UINT8 width);
void ifrb_option(struct ifrb *b, EFI_STRING_ID text, UINT8 width, UINT64 value, bool is_default);
/* A string of min..max characters (CHAR16s) at q->offset. */
void ifrb_string(struct ifrb *b, const struct ifrb_question *q, UINT8 min, UINT8 max);
/* A link to another form of the set. */
void ifrb_goto(struct ifrb *b, const struct ifrb_question *q, EFI_FORM_ID form);
/* A button: the driver's Callback runs when it is chosen (q->flags gets CALLBACK). */
void ifrb_action(struct ifrb *b, const struct ifrb_question *q);
/* Closes the innermost open scope. */
void ifrb_end(struct ifrb *b);

/* An English (en-US) string package being built; string ids count from 1. */
struct strb {
	UINT8 *buf;
	size_t len, room;
	bool full;
	EFI_STRING_ID next; /* the id the next string gets */
};

void strb_init(struct strb *s, UINT8 *buf, size_t room);
/* Adds a string (ASCII or UCS-2) and returns its id, 0 once the package is full. */
EFI_STRING_ID strb_add(struct strb *s, const char *text);
EFI_STRING_ID strb_add16(struct strb *s, const CHAR16 *text);
/* Closes the package (END block, header); returns its size, 0 when it did not fit. */
size_t strb_done(struct strb *s);

#endif
