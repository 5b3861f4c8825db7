/* The forms of an HII forms package (UEFI 2.10, 33.3.8) as outside data: the whole
 * package is checked (every opcode inside it and long enough for its fields, scopes
 * balanced, statements inside forms, options inside one-ofs, storage inside its varstore,
 * gotos to forms that exist) and one form set is read into arrays the caller gives, before
 * the browser uses any of it. Pure logic, bounded by the size given, for the unit tests and
 * the fuzzer. The expressions of conditions (suppressif, grayoutif, disableif,
 * inconsistentif, nosubmitif) are kept as ranges of the package and evaluated by
 * ifr_expr.c each time the browser needs them. */
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
	IFR_ORDERED_LIST,
	IFR_DATE,
	IFR_TIME,
	IFR_PASSWORD,
};

/* What a condition's expression, when true, does (33.3.8.3). */
enum ifr_cond_kind {
	IFR_COND_SUPPRESS,     /* the statements inside are not shown */
	IFR_COND_GRAY_OUT,     /* shown, not changeable */
	IFR_COND_DISABLE,      /* as suppress */
	IFR_COND_INCONSISTENT, /* the question's new value is refused with the error */
	IFR_COND_NO_SUBMIT,    /* the save is refused with the error */
};

/* A condition and its expression, a range of opcodes of the package. */
struct ifr_cond {
	enum ifr_cond_kind kind;
	UINT16 parent;	     /* the enclosing condition's index + 1, 0 for none */
	UINT16 stmt;	     /* inconsistent / no-submit: the question's statement index */
	EFI_STRING_ID error; /* inconsistent / no-submit: the error string */
	UINT32 expr_at, expr_len;
	bool known; /* every opcode one the evaluator knows; false: never true */
};

/* An option of a one-of. */
struct ifr_option {
	EFI_STRING_ID text;
	UINT8 flags, type;
	UINT64 value;
	UINT16 cond; /* the innermost enclosing condition's index + 1, 0 for none */
};

/* A statement or question of a form. */
struct ifr_statement {
	enum ifr_kind kind;
	EFI_STRING_ID prompt, help, text_two; /* text_two: TEXT's second column */
	EFI_QUESTION_ID question_id;	      /* 0 for a statement */
	EFI_VARSTORE_ID varstore_id;	      /* 0: no storage */
	UINT16 var_offset;		      /* in the varstore's buffer */
	UINT8 question_flags, flags;
	/* Bytes of storage: 1 checkbox, 1-8 one-of/numeric, 2*max string, 4 date, 3 time; of
	 * each entry for an ordered list (from its options' type). */
	UINT8 width;
	UINT8 containers;	/* ordered list: its MaxContainers entries */
	UINT16 cond;		/* the innermost enclosing condition's index + 1, 0 for none */
	UINT8 refresh;		/* REFRESH: seconds between re-reads of the value, 0 for none */
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
	struct ifr_cond *conds;
	UINT16 form_count, stmt_count, option_count, store_count, cond_count;
	const UINT8 *package; /* the package read, where the expressions are */
	size_t size;
};

/* An expression's view of the questions: a question's value, false when it has none that
 * an expression can use (no storage, a string, ...). */
struct ifr_expr_env {
	bool (*question)(void *ctx, EFI_QUESTION_ID id, UINT64 *value);
	void *ctx;
};

#define IFR_EXPR_STACK_MAX 16

/* Whether an opcode is one of expressions (known to the evaluator or not). */
bool ifr_expr_op(UINT8 op);

/* Checks an expression (its opcodes, len bytes): NULL when every opcode is one the
 * evaluator knows, long enough, and the stack ends with one value; *known false (and NULL)
 * when an opcode is an expression opcode the evaluator does not know. */
const char *ifr_expr_check(const UINT8 *expr, size_t len, bool *known);

/* Evaluates a checked expression: 1 true (non-zero), 0 false, -1 undefined (a question
 * without a value, a division by zero, ...). Bounded by len and the stack whatever the
 * bytes. */
int ifr_expr_eval(const UINT8 *expr, size_t len, const struct ifr_expr_env *env);

/* Whether a condition holds: its expression is known and true. */
bool ifr_cond_holds(const struct ifr_formset *fs, const struct ifr_cond *c,
		    const struct ifr_expr_env *env);

/* Whether a condition of a kind (DISABLE counts as SUPPRESS) holds among those around a
 * statement or option (its cond field). */
bool ifr_cond_around(const struct ifr_formset *fs, UINT16 cond, enum ifr_cond_kind kind,
		     const struct ifr_expr_env *env);

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
