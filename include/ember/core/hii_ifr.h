/* The forms of an HII forms package (UEFI 2.10, 33.3.8) as outside data: the whole
 * package is checked (every opcode inside it and long enough for its fields, scopes
 * balanced, statements inside forms, options inside one-ofs, storage inside its varstore,
 * gotos to forms that exist) and one form set is read into arrays the caller gives, before
 * the browser uses any of it. Pure logic, bounded by the size given, for the unit tests and
 * the fuzzer. Expressions (suppressif, grayoutif, ...) are stepped over, not evaluated. */
#ifndef EMBER_CORE_HII_IFR_H
#define EMBER_CORE_HII_IFR_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/hii_ifr.h>

#define IFR_SCOPE_DEPTH_MAX 32
#define IFR_VARSTORE_NAME_MAX 64

enum ifr_kind {
	IFR_SUBTITLE,
	IFR_TEXT,
	IFR_ONE_OF,
	IFR_CHECKBOX,
	IFR_NUMERIC,
	IFR_STRING,
	IFR_GOTO,
	IFR_ACTION,
};

/* An option of a one-of. */
struct ifr_option {
	EFI_STRING_ID text;
	UINT8 flags, type;
	UINT64 value;
};

/* A statement or question of a form. */
struct ifr_statement {
	enum ifr_kind kind;
	EFI_STRING_ID prompt, help, text_two; /* text_two: TEXT's second column */
	EFI_QUESTION_ID question_id;	      /* 0 for a statement */
	EFI_VARSTORE_ID varstore_id;	      /* 0: no storage */
	UINT16 var_offset;		      /* in the varstore's buffer */
	UINT8 question_flags, flags;
	UINT8 width;		/* bytes of storage: 1 checkbox, 1-8 one-of/numeric, 2*max string */
	UINT8 min_len, max_len; /* string, in characters */
	UINT64 min, max, step;	/* numeric (one-of: from its flags' width) */
	UINT16 first_option, option_count;
	EFI_FORM_ID form_id;  /* goto's target */
	EFI_STRING_ID config; /* action's QuestionConfig, 0 for none */
	bool has_default;
	UINT64 default_value; /* standard default (DEFAULT opcode, checkbox or option flag) */
};

/* A form: its statements are stmts[first .. first + count). */
struct ifr_form {
	EFI_FORM_ID id;
	EFI_STRING_ID title;
	UINT16 first, count;
};

/* A buffer varstore (VARSTORE, VARSTORE_EFI). */
struct ifr_varstore {
	EFI_VARSTORE_ID id;
	EFI_GUID guid;
	UINT16 size;
	bool efi; /* VARSTORE_EFI: a UEFI variable of that name and GUID */
	UINT32 attributes;
	CHAR16 name[IFR_VARSTORE_NAME_MAX]; /* terminated */
};

/* One form set, read into arrays of `cap` entries each (ifr_opcode_count is enough). */
struct ifr_formset {
	EFI_GUID guid;
	EFI_STRING_ID title, help;
	size_t cap;
	struct ifr_form *forms;
	struct ifr_statement *stmts;
	struct ifr_option *options;
	struct ifr_varstore *stores;
	UINT16 form_count, stmt_count, option_count, store_count;
};

/* The number of opcodes of a forms package (header included in size), 0 when they do not
 * fill it exactly. */
size_t ifr_opcode_count(const UINT8 *package, size_t size);

/* Checks the whole forms package and reads the form set of guid (the first one when guid
 * is NULL) into *fs: NULL, or what is wrong ("no such form set" when the package is well
 * formed but lacks it). */
const char *ifr_parse(const UINT8 *package, size_t size, const EFI_GUID *guid,
		      struct ifr_formset *fs);

/* The form of an id, or NULL. */
const struct ifr_form *ifr_form_find(const struct ifr_formset *fs, EFI_FORM_ID id);

/* The varstore of an id, or NULL. */
const struct ifr_varstore *ifr_varstore_find(const struct ifr_formset *fs, EFI_VARSTORE_ID id);

#endif
