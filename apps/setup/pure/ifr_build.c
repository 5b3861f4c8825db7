/* IFR opcodes appended to a bounded buffer, each laid out as UEFI 2.10 33.3.8.3 gives it. */
#include "ifr_build.h"
#include <ember/lib/str.h>

#define SCOPE 0x80
#define QUESTION_LEN 13 /* opcode header, statement header, question header */

static void put(struct ifrb *b, const void *data, size_t n)
{
	if (b->full || n > b->room - b->len) {
		b->full = true;
		return;
	}
	mem_copy(b->buf + b->len, data, n);
	b->len += n;
}

static void u8(struct ifrb *b, UINT8 v)
{
	put(b, &v, 1);
}

static void u16(struct ifrb *b, UINT16 v)
{
	put(b, &v, 2);
}

/* A number of width bytes (little-endian, as the IFR stores it). */
static void num(struct ifrb *b, UINT64 v, UINT8 width)
{
	put(b, &v, width);
}

/* An opcode header: the length is that of the whole opcode. */
static void op(struct ifrb *b, UINT8 code, size_t length, bool scope)
{
	u8(b, code);
	u8(b, (UINT8)(length | (scope ? SCOPE : 0)));
}

static void question(struct ifrb *b, const struct ifrb_question *q, UINT8 flags)
{
	u16(b, q->prompt), u16(b, q->help), u16(b, q->id), u16(b, q->store), u16(b, q->offset);
	u8(b, q->flags | flags);
}

static UINT8 size_flag(UINT8 width)
{
	return width == 8   ? EFI_IFR_NUMERIC_SIZE_8
	       : width == 4 ? EFI_IFR_NUMERIC_SIZE_4
	       : width == 2 ? EFI_IFR_NUMERIC_SIZE_2
			    : EFI_IFR_NUMERIC_SIZE_1;
}

/* Starts a forms package. */
void ifrb_init(struct ifrb *b, UINT8 *buf, size_t room)
{
	b->buf = buf, b->len = 0, b->room = room, b->full = room < 4;
	if (!b->full)
		b->len = 4;
}

/* Writes the package header: length and type. */
size_t ifrb_done(struct ifrb *b)
{
	UINT32 header;

	if (b->full || b->len > 0xffffff)
		return 0;
	header = (UINT32)b->len | (UINT32)EFI_HII_PACKAGE_FORMS << 24;
	mem_copy(b->buf, &header, 4);
	return b->len;
}

/* FORM_SET: GUID, title, help, no class GUIDs. */
void ifrb_form_set(struct ifrb *b, const EFI_GUID *guid, EFI_STRING_ID title, EFI_STRING_ID help)
{
	op(b, EFI_IFR_FORM_SET_OP, 23, true);
	put(b, guid, sizeof(*guid)), u16(b, title), u16(b, help), u8(b, 0);
}

/* VARSTORE: GUID, id, size, ASCII name. */
void ifrb_varstore(struct ifrb *b, const EFI_GUID *guid, EFI_VARSTORE_ID id, UINT16 size,
		   const char *name)
{
	size_t n = str8_len(name) + 1;

	if (22 + n > 0x7f) {
		b->full = true;
		return;
	}
	op(b, EFI_IFR_VARSTORE_OP, 22 + n, false);
	put(b, guid, sizeof(*guid)), u16(b, id), u16(b, size), put(b, name, n);
}

/* FORM: id and title. */
void ifrb_form(struct ifrb *b, EFI_FORM_ID id, EFI_STRING_ID title)
{
	op(b, EFI_IFR_FORM_OP, 6, true), u16(b, id), u16(b, title);
}

/* SUBTITLE. */
void ifrb_subtitle(struct ifrb *b, EFI_STRING_ID text)
{
	op(b, EFI_IFR_SUBTITLE_OP, 7, false), u16(b, text), u16(b, 0), u8(b, 0);
}

/* TEXT. */
void ifrb_text(struct ifrb *b, EFI_STRING_ID prompt, EFI_STRING_ID help, EFI_STRING_ID text)
{
	op(b, EFI_IFR_TEXT_OP, 8, false), u16(b, prompt), u16(b, help), u16(b, text);
}

/* CHECKBOX. */
void ifrb_checkbox(struct ifrb *b, const struct ifrb_question *q)
{
	op(b, EFI_IFR_CHECKBOX_OP, QUESTION_LEN + 1, false), question(b, q, 0), u8(b, 0);
}

/* NUMERIC, decimal. */
void ifrb_numeric(struct ifrb *b, const struct ifrb_question *q, UINT8 width, UINT64 min,
		  UINT64 max, UINT64 step)
{
	op(b, EFI_IFR_NUMERIC_OP, QUESTION_LEN + 1 + 3 * (size_t)width, false);
	question(b, q, 0), u8(b, size_flag(width) | EFI_IFR_DISPLAY_UINT_DEC);
	num(b, min, width), num(b, max, width), num(b, step, width);
}

/* ONE_OF: min, max and step of the value are left 0 (the options say it all). */
void ifrb_one_of(struct ifrb *b, const struct ifrb_question *q, UINT8 width)
{
	op(b, EFI_IFR_ONE_OF_OP, QUESTION_LEN + 1 + 3 * (size_t)width, true);
	question(b, q, 0), u8(b, size_flag(width));
	num(b, 0, width), num(b, 0, width), num(b, 0, width);
}

/* ONE_OF_OPTION: text, flags, type, value. */
void ifrb_option(struct ifrb *b, EFI_STRING_ID text, UINT8 width, UINT64 value, bool is_default)
{
	op(b, EFI_IFR_ONE_OF_OPTION_OP, 6 + (size_t)width, false), u16(b, text);
	u8(b, is_default ? EFI_IFR_OPTION_DEFAULT : 0), u8(b, size_flag(width)),
	    num(b, value, width);
}

/* STRING. */
void ifrb_string(struct ifrb *b, const struct ifrb_question *q, UINT8 min, UINT8 max)
{
	op(b, EFI_IFR_STRING_OP, QUESTION_LEN + 3, false), question(b, q, 0);
	u8(b, min), u8(b, max), u8(b, 0);
}

/* REF (goto). */
void ifrb_goto(struct ifrb *b, const struct ifrb_question *q, EFI_FORM_ID form)
{
	op(b, EFI_IFR_REF_OP, QUESTION_LEN + 2, false), question(b, q, 0), u16(b, form);
}

/* ACTION, with no configuration string. */
void ifrb_action(struct ifrb *b, const struct ifrb_question *q)
{
	op(b, EFI_IFR_ACTION_OP, QUESTION_LEN + 2, false);
	question(b, q, EFI_IFR_FLAG_CALLBACK), u16(b, 0);
}

/* END. */
void ifrb_end(struct ifrb *b)
{
	op(b, EFI_IFR_END_OP, 2, false);
}
