/* The forms-test driver's packages, opcode by opcode (UEFI 2.10, 33.3.8.3). */
#include "form_package.h"
#include <ember/lib/str.h>
#include <efi/hii_ifr.h>
#include <efi/protocol/hii_package_list.h>

#define SCOPE 0x80
#define CAP 2048

struct out {
	UINT8 *b;
	size_t n, room;
};

static void put(struct out *o, const void *data, size_t n)
{
	if (o->n + n <= o->room)
		mem_copy(o->b + o->n, data, n);
	o->n += n;
}

static void u8(struct out *o, UINT8 v)
{
	put(o, &v, 1);
}

static void u16(struct out *o, UINT16 v)
{
	put(o, &v, 2);
}

/* An opcode header: the length is that of the whole opcode. */
static void op(struct out *o, UINT8 code, UINT8 length, bool scope)
{
	u8(o, code);
	u8(o, (UINT8)(length | (scope ? SCOPE : 0)));
}

static void end(struct out *o)
{
	op(o, EFI_IFR_END_OP, 2, false);
}

/* The question header: statement (prompt, help), id, varstore, offset, flags. */
static void question(struct out *o, UINT16 prompt, UINT16 qid, UINT16 store, UINT16 offset,
		     UINT8 flags)
{
	u16(o, prompt), u16(o, 2), u16(o, qid), u16(o, store), u16(o, offset), u8(o, flags);
}

static void header_and_store(struct out *o)
{
	static const EFI_GUID guid = FT_GUID_INIT;

	op(o, EFI_IFR_FORM_SET_OP, 23, true);
	put(o, &guid, sizeof(guid)), u16(o, 1), u16(o, 2), u8(o, 0);
	op(o, EFI_IFR_VARSTORE_OP, 22 + 7, false);
	put(o, &guid, sizeof(guid)), u16(o, FT_VARSTORE_ID), u16(o, FT_DATA_SIZE);
	put(o, "FtData", 7);
}

static void one_of(struct out *o)
{
	op(o, EFI_IFR_ONE_OF_OP, 14 + 3, true);
	question(o, 10, FT_QID_MODE, FT_VARSTORE_ID, FT_OFF_MODE, 0);
	u8(o, EFI_IFR_NUMERIC_SIZE_1), u8(o, 0), u8(o, 2), u8(o, 0);
	for (UINT8 v = 0; v < 3; v++) {
		op(o, EFI_IFR_ONE_OF_OPTION_OP, 7, false);
		u16(o, (UINT16)(11 + v)), u8(o, v ? 0 : EFI_IFR_OPTION_DEFAULT);
		u8(o, EFI_IFR_TYPE_NUM_SIZE_8), u8(o, v);
	}
	end(o);
}

/* ideqval qid == value: the expression of the conditions below. */
static void eq_id_val(struct out *o, UINT16 qid, UINT16 value)
{
	op(o, EFI_IFR_EQ_ID_VAL_OP, 6, false), u16(o, qid), u16(o, value);
}

static void ordered_list(struct out *o)
{
	op(o, EFI_IFR_ORDERED_LIST_OP, 15, true);
	question(o, 19, FT_QID_ORDER, FT_VARSTORE_ID, FT_OFF_ORDER, 0);
	u8(o, FT_ORDER_COUNT), u8(o, 0);
	for (UINT8 v = 1; v <= FT_ORDER_COUNT; v++) {
		op(o, EFI_IFR_ONE_OF_OPTION_OP, 7, false);
		u16(o, (UINT16)(19 + v)), u8(o, 0), u8(o, EFI_IFR_TYPE_NUM_SIZE_8), u8(o, v);
	}
	end(o);
}

/* Level (numeric 0..9, 7 refused) shown while Enable is on; Turbo grayed out while Mode is
 * off. */
static void conditional(struct out *o)
{
	op(o, EFI_IFR_SUPPRESS_IF_OP, 2, true);
	eq_id_val(o, FT_QID_ENABLE, 0);
	op(o, EFI_IFR_NUMERIC_OP, 14 + 3, true);
	question(o, 25, FT_QID_LEVEL, FT_VARSTORE_ID, FT_OFF_LEVEL, 0);
	u8(o, EFI_IFR_NUMERIC_SIZE_1 | EFI_IFR_DISPLAY_UINT_DEC), u8(o, 0), u8(o, 9), u8(o, 1);
	op(o, EFI_IFR_INCONSISTENT_IF_OP, 4, true), u16(o, 27);
	eq_id_val(o, FT_QID_LEVEL, 7);
	end(o);
	end(o);
	end(o);
	op(o, EFI_IFR_GRAY_OUT_IF_OP, 2, true);
	eq_id_val(o, FT_QID_MODE, 0);
	op(o, EFI_IFR_CHECKBOX_OP, 14, false);
	question(o, 26, FT_QID_TURBO, FT_VARSTORE_ID, FT_OFF_TURBO, 0), u8(o, 0);
	end(o);
}

static void main_form(struct out *o)
{
	op(o, EFI_IFR_FORM_OP, 6, true), u16(o, FT_FORM_MAIN), u16(o, 3);
	op(o, EFI_IFR_SUBTITLE_OP, 7, false), u16(o, 4), u16(o, 0), u8(o, 0);
	op(o, EFI_IFR_TEXT_OP, 8, false), u16(o, 5), u16(o, 0), u16(o, 6);
	op(o, EFI_IFR_CHECKBOX_OP, 14, false);
	question(o, 7, FT_QID_ENABLE, FT_VARSTORE_ID, FT_OFF_ENABLE, 0), u8(o, 0);
	op(o, EFI_IFR_NUMERIC_OP, 14 + 6, true);
	question(o, 9, FT_QID_COUNT, FT_VARSTORE_ID, FT_OFF_COUNT, 0);
	u8(o, EFI_IFR_NUMERIC_SIZE_2 | EFI_IFR_DISPLAY_UINT_DEC), u16(o, 1), u16(o, 100), u16(o, 1);
	op(o, EFI_IFR_DEFAULT_OP, 7, false), u16(o, 0), u8(o, EFI_IFR_TYPE_NUM_SIZE_16), u16(o, 10);
	op(o, EFI_IFR_NO_SUBMIT_IF_OP, 4, true), u16(o, 28);
	eq_id_val(o, FT_QID_COUNT, FT_COUNT_NO_SUBMIT);
	end(o);
	end(o);
	one_of(o);
	op(o, EFI_IFR_STRING_OP, 16, false);
	question(o, 14, FT_QID_NAME, FT_VARSTORE_ID, FT_OFF_NAME, 0);
	u8(o, 0), u8(o, FT_NAME_CHARS), u8(o, 0);
	op(o, EFI_IFR_REF_OP, 15, false), question(o, 15, FT_QID_MORE, 0, 0, 0);
	u16(o, FT_FORM_MORE);
	op(o, EFI_IFR_ACTION_OP, 15, false);
	question(o, 16, FT_QID_ACTION, 0, 0, EFI_IFR_FLAG_CALLBACK), u16(o, 0);
	ordered_list(o);
	op(o, EFI_IFR_DATE_OP, 14, false);
	question(o, 23, FT_QID_DATE, FT_VARSTORE_ID, FT_OFF_DATE, 0), u8(o, QF_DATE_STORAGE_NORMAL);
	op(o, EFI_IFR_TIME_OP, 14, false);
	question(o, 24, FT_QID_TIME, FT_VARSTORE_ID, FT_OFF_TIME, 0), u8(o, QF_TIME_STORAGE_NORMAL);
	conditional(o);
	end(o);
}

/* The second form: a text, the action that adds texts, a password, the clock and a
 * refreshed number, the texts added. */
static void more_form(struct out *o, unsigned added)
{
	op(o, EFI_IFR_FORM_OP, 6, true), u16(o, FT_FORM_MORE), u16(o, 17);
	op(o, EFI_IFR_TEXT_OP, 8, false), u16(o, 18), u16(o, 0), u16(o, 0);
	op(o, EFI_IFR_ACTION_OP, 15, false);
	question(o, 29, FT_QID_ADD, 0, 0, EFI_IFR_FLAG_CALLBACK), u16(o, 0);
	op(o, EFI_IFR_PASSWORD_OP, 17, false);
	question(o, 31, FT_QID_PASSWORD, 0, 0, EFI_IFR_FLAG_CALLBACK);
	u16(o, 2), u16(o, FT_PASSWORD_CHARS);
	op(o, EFI_IFR_TIME_OP, 14, true);
	question(o, 32, FT_QID_CLOCK, 0, 0, 0), u8(o, QF_TIME_STORAGE_TIME);
	op(o, EFI_IFR_REFRESH_OP, 3, false), u8(o, 1);
	end(o);
	op(o, EFI_IFR_NUMERIC_OP, 14 + 3, true);
	question(o, 33, FT_QID_READS, FT_VARSTORE_ID, FT_OFF_READS, EFI_IFR_FLAG_READ_ONLY);
	u8(o, EFI_IFR_NUMERIC_SIZE_1 | EFI_IFR_DISPLAY_UINT_DEC), u8(o, 0), u8(o, 255), u8(o, 1);
	op(o, EFI_IFR_REFRESH_OP, 3, false), u8(o, 1);
	end(o);
	for (unsigned i = 0; i < added && o->n < CAP; i++)
		op(o, EFI_IFR_TEXT_OP, 8, false), u16(o, 30), u16(o, 0), u16(o, 0);
	end(o);
}

/* Writes the forms package. */
size_t ft_forms_package(UINT8 *out, size_t room, unsigned added)
{
	struct out o = {out, 4, room};
	UINT32 header;

	header_and_store(&o);
	main_form(&o);
	more_form(&o, added);
	end(&o);
	if (o.n > room || o.n > CAP)
		return 0;
	header = (UINT32)o.n | (UINT32)EFI_HII_PACKAGE_FORMS << 24;
	mem_copy(out, &header, 4);
	return o.n;
}

static const char *const strings[] = {
    "Forms test",
    "Ember's forms browser test",
    "Forms test settings",
    "Settings",
    "Version",
    "1.0",
    "Enable feature",
    "Help text",
    "Count",
    "Mode",
    "Off",
    "Fast",
    "Slow",
    "Name",
    "More settings",
    "Reset counter",
    "Second page",
    "Nothing to change here",
    "Boot order",
    "Disk",
    "Network",
    "Shell",
    "Date",
    "Time",
    "Level",
    "Turbo",
    "Seven is not allowed",
    "Count 13 cannot be saved",
    "Add entry",
    "Added entry",
    "Password",
    "Clock",
    "Reads",
};

/* Writes the English string package: strings[i] is StringId i + 1. */
size_t ft_strings_package(UINT8 *out, size_t room)
{
	struct out o = {out, 0, room};
	UINT32 header = 0, hdr_size = 46 + 6, info = hdr_size; /* fixed part, "en-US" */

	put(&o, &header, 4), put(&o, &hdr_size, 4), put(&o, &info, 4);
	for (int i = 0; i < 16; i++)
		u16(&o, 0); /* LanguageWindow */
	u16(&o, 1);	    /* LanguageName: string 1 */
	put(&o, "en-US", 6);
	for (size_t i = 0; i < sizeof(strings) / sizeof(*strings); i++) {
		u8(&o, EFI_HII_SIBT_STRING_UCS2);
		for (const char *c = strings[i]; *c; c++)
			u16(&o, (UINT8)*c);
		u16(&o, 0);
	}
	u8(&o, EFI_HII_SIBT_END);
	if (o.n > room)
		return 0;
	header = (UINT32)o.n | (UINT32)EFI_HII_PACKAGE_STRINGS << 24;
	mem_copy(out, &header, 4);
	return o.n;
}
