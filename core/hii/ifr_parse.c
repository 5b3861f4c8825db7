/* The reading of IFR forms packages (UEFI 2.10, 33.3.8): one walk over the opcodes
 * checks them all and records the wanted form set; the references between its parts
 * (storage, goto targets) are checked once the walk is done. A condition's expression is
 * the run of expression opcodes right after it, checked (ifr_expr.c) and kept as a range.
 * Opcodes this reader does not show (images, passwords, ...) are checked for length and
 * scope only. */
#include <ember/core/hii_ifr.h>
#include <ember/lib/str.h>
#include "unaligned.h"

#define PACKAGE_HEADER_SIZE 4
#define FORM_SET_SIZE 23
#define FORM_SIZE 6
#define SUBTITLE_SIZE 7
#define TEXT_SIZE 8
#define CHECKBOX_SIZE 14
#define STRING_SIZE 16
#define REF_SIZE 15
#define REF3_SIZE 33 /* from REF3 on, the target may be another form set */
#define ACTION_SIZE 13
#define ACTION_CONFIG_SIZE 15
#define OPTION_SIZE 6
#define DEFAULT_SIZE 5
#define VARSTORE_SIZE 22
#define VARSTORE_EFI_SIZE 26
#define ORDERED_LIST_SIZE 15
#define DATE_TIME_SIZE 14
#define PASSWORD_SIZE 17
#define REFRESH_SIZE 3
#define PASSWORD_MAX 127       /* characters: 2 * 127 bytes of storage fit the width */
#define CONDITION_ERROR_SIZE 4 /* INCONSISTENT_IF, NO_SUBMIT_IF: the error string */

struct scope {
	UINT8 op;
	int stmt;    /* the question the scope belongs to, or -1 */
	UINT16 cond; /* the innermost condition around it, index + 1, 0 for none */
};

struct parser {
	const UINT8 *p;
	size_t size, at;
	UINT8 op, len;
	const EFI_GUID *want;
	struct ifr_formset *fs;
	bool record, found;
	int form; /* the form being read, -1 outside */
	struct scope scope[IFR_SCOPE_DEPTH_MAX];
	int depth;
	int expr_cond;	 /* the condition whose expression is being read, or -1 */
	int expr_depth;	 /* the scope depth of that condition (inside its scope) */
	size_t expr_at;	 /* where its expression starts */
	bool collecting; /* an expression is being read */
};

static UINT64 read_n(const UINT8 *p, size_t n)
{
	UINT64 v = 0;

	mem_copy(&v, p, n); /* little-endian hosts and targets only */
	return v;
}

/* The opcodes of a package, or 0 when they do not fill it exactly. */
size_t ifr_opcode_count(const UINT8 *package, size_t size)
{
	size_t count = 0;

	for (size_t at = PACKAGE_HEADER_SIZE; at < size; count++) {
		UINT8 len;

		if (size - at < EFI_IFR_OP_HEADER_SIZE)
			return 0;
		len = package[at + 1] & EFI_IFR_LENGTH_MASK;
		if (len < EFI_IFR_OP_HEADER_SIZE || len > size - at)
			return 0;
		at += len;
	}
	return count;
}

static const UINT8 *op_bytes(const struct parser *ps)
{
	return ps->p + ps->at;
}

static UINT8 top_op(const struct parser *ps)
{
	return ps->depth ? ps->scope[ps->depth - 1].op : 0;
}

static int top_stmt(const struct parser *ps)
{
	return ps->depth ? ps->scope[ps->depth - 1].stmt : -1;
}

static UINT16 top_cond(const struct parser *ps)
{
	return ps->depth ? ps->scope[ps->depth - 1].cond : 0;
}

static bool is_condition(UINT8 op)
{
	return op == EFI_IFR_SUPPRESS_IF_OP || op == EFI_IFR_GRAY_OUT_IF_OP ||
	       op == EFI_IFR_DISABLE_IF_OP;
}

/* The innermost scope that is not a suppressif, grayoutif or disableif. */
static UINT8 owner_op(const struct parser *ps)
{
	for (int i = ps->depth - 1; i >= 0; i--) {
		if (!is_condition(ps->scope[i].op))
			return ps->scope[i].op;
	}
	return 0;
}

static const char *form_set(struct parser *ps)
{
	const UINT8 *b = op_bytes(ps);
	EFI_GUID guid;

	if (ps->len < FORM_SET_SIZE)
		return "FORM_SET too short";
	if (ps->depth)
		return "FORM_SET inside another scope";
	mem_copy(&guid, b + 2, sizeof(guid));
	ps->record = !ps->found && (!ps->want || guid_eq(ps->want, &guid));
	if (!ps->record)
		return NULL;
	ps->found = true;
	ps->fs->guid = guid;
	ps->fs->title = read16(b + 18);
	ps->fs->help = read16(b + 20);
	return NULL;
}

static const char *form(struct parser *ps)
{
	const UINT8 *b = op_bytes(ps);
	struct ifr_form *f;

	if (ps->len < FORM_SIZE)
		return "FORM too short";
	if (top_op(ps) != EFI_IFR_FORM_SET_OP || ps->form >= 0)
		return "FORM outside a form set";
	if (!ps->record) {
		ps->form = 0; /* statements inside are checked, not kept */
		return NULL;
	}
	if (!read16(b + 2) || ifr_form_find(ps->fs, read16(b + 2)))
		return "FORM id null or used twice";
	if (ps->fs->form_count >= ps->fs->cap)
		return "too many forms";
	ps->form = ps->fs->form_count;
	f = &ps->fs->forms[ps->fs->form_count++];
	f->id = read16(b + 2);
	f->title = read16(b + 4);
	f->first = ps->fs->stmt_count;
	f->count = 0;
	return NULL;
}

static const char *varstore(struct parser *ps, bool efi)
{
	const UINT8 *b = op_bytes(ps);
	size_t name_at = efi ? VARSTORE_EFI_SIZE : VARSTORE_SIZE, n = 0;
	struct ifr_varstore *v;

	if (ps->len <= name_at)
		return "VARSTORE too short";
	if (top_op(ps) != EFI_IFR_FORM_SET_OP)
		return "VARSTORE outside a form set";
	while (name_at + n < ps->len && b[name_at + n])
		n++;
	if (name_at + n == ps->len || n >= IFR_VARSTORE_NAME_MAX)
		return "VARSTORE name not terminated";
	if (!ps->record)
		return NULL;
	if (ps->fs->store_count >= ps->fs->cap)
		return "too many varstores";
	v = &ps->fs->stores[ps->fs->store_count];
	v->efi = efi;
	v->id = read16(b + (efi ? 2 : 18));
	mem_copy(&v->guid, b + (efi ? 4 : 2), sizeof(EFI_GUID));
	v->attributes = efi ? (UINT32)read_n(b + 20, 4) : 0;
	v->size = read16(b + (efi ? 24 : 20));
	for (size_t i = 0; i <= n; i++)
		v->name[i] = b[name_at + i];
	if (!v->id || ifr_varstore_find(ps->fs, v->id))
		return "VARSTORE id null or used twice";
	ps->fs->store_count++;
	return NULL;
}

static size_t value_size(UINT8 type)
{
	static const UINT8 sizes[] = {1, 2, 4, 8, 1, 3, 4, 2};

	return type < sizeof(sizes) ? sizes[type] : 0;
}

/* An ordered list's entries are as wide as its options' values, all of one size. */
static const char *ordered_option(struct ifr_statement *s, const struct ifr_option *o)
{
	if (o->type > EFI_IFR_TYPE_NUM_SIZE_64)
		return "ORDERED_LIST option not a number";
	if (s->width && s->width != value_size(o->type))
		return "ORDERED_LIST options of different sizes";
	s->width = (UINT8)value_size(o->type);
	return NULL;
}

static const char *option(struct parser *ps)
{
	const UINT8 *b = op_bytes(ps);
	int q = top_stmt(ps);
	struct ifr_statement *s;
	struct ifr_option *o;

	if (ps->len < OPTION_SIZE || ps->len < OPTION_SIZE + value_size(b[5]))
		return "ONE_OF_OPTION too short";
	if (owner_op(ps) != EFI_IFR_ONE_OF_OP && owner_op(ps) != EFI_IFR_ORDERED_LIST_OP)
		return "ONE_OF_OPTION outside a one-of";
	if (!ps->record || q < 0)
		return NULL;
	if (ps->fs->option_count >= ps->fs->cap)
		return "too many options";
	s = &ps->fs->stmts[q];
	o = &ps->fs->options[ps->fs->option_count++];
	o->text = read16(b + 2);
	o->flags = b[4];
	o->type = b[5];
	o->value = b[5] <= EFI_IFR_TYPE_BOOLEAN ? read_n(b + 6, value_size(b[5])) : 0;
	o->cond = top_cond(ps);
	s->option_count++;
	if (s->kind == IFR_ORDERED_LIST)
		return ordered_option(s, o);
	if ((o->flags & EFI_IFR_OPTION_DEFAULT) && !s->has_default) {
		s->has_default = true;
		s->default_value = o->value;
	}
	return NULL;
}

static const char *default_value(struct parser *ps)
{
	const UINT8 *b = op_bytes(ps);
	int q = top_stmt(ps);

	if (ps->len < DEFAULT_SIZE)
		return "DEFAULT too short";
	if (q < 0 && ps->record)
		return "DEFAULT outside a question";
	/* A value given inline (not as an expression in the DEFAULT's scope). */
	if (!ps->record || read16(b + 2) != EFI_HII_DEFAULT_CLASS_STANDARD ||
	    b[4] > EFI_IFR_TYPE_BOOLEAN || ps->len < DEFAULT_SIZE + value_size(b[4]))
		return NULL;
	ps->fs->stmts[q].has_default = true;
	ps->fs->stmts[q].default_value = read_n(b + 5, value_size(b[4]));
	return NULL;
}

/* The question header's fields (33.3.8.2.2). */
static void question_header(const UINT8 *b, struct ifr_statement *s)
{
	s->question_id = read16(b + EFI_IFR_QUESTION_ID_OFFSET);
	s->varstore_id = read16(b + EFI_IFR_VARSTORE_ID_OFFSET);
	s->var_offset = read16(b + EFI_IFR_VARSTORE_INFO_OFFSET);
	s->question_flags = b[EFI_IFR_QUESTION_FLAGS_OFFSET];
}

/* ONE_OF and NUMERIC: flags, then MinValue, MaxValue, Step of the flags' width. */
static const char *numeric_fields(struct parser *ps, struct ifr_statement *s)
{
	const UINT8 *b = op_bytes(ps);
	size_t w;

	/* The flags that give the width come first (fuzz_hii_ifr read them past a short one). */
	if (ps->len <= EFI_IFR_QUESTION_END)
		return "ONE_OF or NUMERIC without its flags";
	w = (size_t)1 << (b[EFI_IFR_QUESTION_END] & EFI_IFR_NUMERIC_SIZE);
	if (ps->len < EFI_IFR_QUESTION_END + 1 + 3 * w)
		return "ONE_OF or NUMERIC too short for its width";
	s->flags = b[EFI_IFR_QUESTION_END];
	s->width = (UINT8)w;
	s->min = read_n(b + EFI_IFR_QUESTION_END + 1, w);
	s->max = read_n(b + EFI_IFR_QUESTION_END + 1 + w, w);
	s->step = read_n(b + EFI_IFR_QUESTION_END + 1 + 2 * w, w);
	return NULL;
}

/* DATE and TIME: the flags say which fields show and whether the value is the RTC's. */
static const char *date_time(struct parser *ps, struct ifr_statement *s)
{
	bool date = ps->op == EFI_IFR_DATE_OP;

	if (ps->len < DATE_TIME_SIZE)
		return "DATE or TIME too short";
	s->kind = date ? IFR_DATE : IFR_TIME;
	s->flags = op_bytes(ps)[13];
	s->width = date ? sizeof(EFI_HII_DATE) : sizeof(EFI_HII_TIME);
	/* Kept in the real-time clock (or its wake-up alarm), not in a varstore. */
	if (s->flags & EFI_QF_DATE_STORAGE)
		s->varstore_id = 0;
	return NULL;
}

static const char *question_fields(struct parser *ps, struct ifr_statement *s)
{
	const UINT8 *b = op_bytes(ps);

	question_header(b, s);
	if (!s->question_id)
		return "question with a null QuestionId";
	switch (ps->op) {
	case EFI_IFR_ONE_OF_OP:
	case EFI_IFR_NUMERIC_OP:
		s->kind = ps->op == EFI_IFR_ONE_OF_OP ? IFR_ONE_OF : IFR_NUMERIC;
		s->first_option = ps->fs->option_count;
		return numeric_fields(ps, s);
	case EFI_IFR_CHECKBOX_OP:
		s->kind = IFR_CHECKBOX;
		if (ps->len < CHECKBOX_SIZE)
			return "CHECKBOX too short";
		s->flags = b[EFI_IFR_QUESTION_END];
		s->width = 1;
		s->has_default = true;
		s->default_value = s->flags & EFI_IFR_CHECKBOX_DEFAULT;
		return NULL;
	case EFI_IFR_STRING_OP:
		s->kind = IFR_STRING;
		if (ps->len < STRING_SIZE)
			return "STRING too short";
		s->min_len = b[13];
		s->max_len = b[14];
		s->flags = b[15];
		s->width = (UINT8)(2 * s->max_len > 0xff ? 0 : 2 * s->max_len);
		return !s->max_len || s->min_len > s->max_len || !s->width ? "STRING of bad sizes"
									   : NULL;
	case EFI_IFR_ORDERED_LIST_OP:
		s->kind = IFR_ORDERED_LIST;
		if (ps->len < ORDERED_LIST_SIZE)
			return "ORDERED_LIST too short";
		s->containers = b[13];
		s->flags = b[14];
		s->first_option = ps->fs->option_count;
		return NULL;
	case EFI_IFR_DATE_OP:
	case EFI_IFR_TIME_OP:
		return date_time(ps, s);
	case EFI_IFR_PASSWORD_OP:
		s->kind = IFR_PASSWORD;
		if (ps->len < PASSWORD_SIZE)
			return "PASSWORD too short";
		if (!read16(b + 15) || read16(b + 15) > PASSWORD_MAX ||
		    read16(b + 13) > read16(b + 15))
			return "PASSWORD of bad sizes";
		s->min_len = (UINT8)read16(b + 13);
		s->max_len = (UINT8)read16(b + 15);
		s->width = (UINT8)(2 * s->max_len);
		return NULL;
	case EFI_IFR_REF_OP:
		s->kind = IFR_GOTO;
		if (ps->len < REF_SIZE)
			return "REF too short";
		s->form_id = read16(b + 13);
		/* REF3 and later may name another form set: only gotos inside this one. */
		s->flags = ps->len >= REF3_SIZE;
		return NULL;
	default:
		s->kind = IFR_ACTION;
		if (ps->len < ACTION_SIZE)
			return "ACTION too short";
		s->config = ps->len >= ACTION_CONFIG_SIZE ? read16(b + 13) : 0;
		return NULL;
	}
}

static bool is_question(UINT8 op)
{
	return op == EFI_IFR_ONE_OF_OP || op == EFI_IFR_NUMERIC_OP || op == EFI_IFR_CHECKBOX_OP ||
	       op == EFI_IFR_STRING_OP || op == EFI_IFR_REF_OP || op == EFI_IFR_ACTION_OP ||
	       op == EFI_IFR_ORDERED_LIST_OP || op == EFI_IFR_DATE_OP || op == EFI_IFR_TIME_OP ||
	       op == EFI_IFR_PASSWORD_OP;
}

/* A statement or question inside a form: recorded when its form set is. */
static const char *statement(struct parser *ps, int *index)
{
	const UINT8 *b = op_bytes(ps);
	struct ifr_statement *s;
	size_t min = ps->op == EFI_IFR_SUBTITLE_OP ? SUBTITLE_SIZE
		     : ps->op == EFI_IFR_TEXT_OP   ? TEXT_SIZE
						   : EFI_IFR_QUESTION_END;

	if (ps->len < min)
		return "statement too short";
	if (ps->form < 0)
		return "statement outside a form";
	if (!ps->record)
		return NULL;
	if (ps->fs->stmt_count >= ps->fs->cap)
		return "too many statements";
	*index = ps->fs->stmt_count;
	s = &ps->fs->stmts[ps->fs->stmt_count++];
	*s = (struct ifr_statement){0};
	s->prompt = read16(b + EFI_IFR_PROMPT_OFFSET);
	s->help = read16(b + EFI_IFR_HELP_OFFSET);
	s->cond = top_cond(ps);
	if (ps->op == EFI_IFR_SUBTITLE_OP) {
		s->kind = IFR_SUBTITLE;
		s->flags = b[6];
		return NULL;
	}
	if (ps->op == EFI_IFR_TEXT_OP) {
		s->kind = IFR_TEXT;
		s->text_two = read16(b + 6);
		return NULL;
	}
	return question_fields(ps, s);
}

static enum ifr_cond_kind cond_kind(UINT8 op)
{
	switch (op) {
	case EFI_IFR_SUPPRESS_IF_OP:
		return IFR_COND_SUPPRESS;
	case EFI_IFR_GRAY_OUT_IF_OP:
		return IFR_COND_GRAY_OUT;
	case EFI_IFR_DISABLE_IF_OP:
		return IFR_COND_DISABLE;
	case EFI_IFR_INCONSISTENT_IF_OP:
		return IFR_COND_INCONSISTENT;
	default:
		return IFR_COND_NO_SUBMIT;
	}
}

/* A condition opens a scope and its expression follows it; inconsistentif and nosubmitif
 * belong to the question whose scope holds them. */
static const char *condition(struct parser *ps, int *index)
{
	enum ifr_cond_kind kind = cond_kind(ps->op);
	bool checks = kind == IFR_COND_INCONSISTENT || kind == IFR_COND_NO_SUBMIT;
	struct ifr_cond *c;

	if (!(ps->p[ps->at + 1] & EFI_IFR_SCOPE))
		return "condition without a scope";
	if (ps->len < (checks ? CONDITION_ERROR_SIZE : EFI_IFR_OP_HEADER_SIZE))
		return "condition too short";
	if (checks && !is_question(owner_op(ps)))
		return "INCONSISTENT_IF or NO_SUBMIT_IF outside a question";
	ps->collecting = true;
	ps->expr_at = ps->at + ps->len;
	ps->expr_depth = ps->depth + 1; /* inside its scope, once step() opened it */
	ps->expr_cond = -1;
	if (!ps->record)
		return NULL;
	if (ps->fs->cond_count >= ps->fs->cap)
		return "too many conditions";
	*index = ps->expr_cond = ps->fs->cond_count++;
	c = &ps->fs->conds[*index];
	*c = (struct ifr_cond){.kind = kind, .parent = top_cond(ps)};
	c->stmt = top_stmt(ps) >= 0 ? (UINT16)top_stmt(ps) : 0;
	c->error = checks ? read16(op_bytes(ps) + 2) : 0;
	return NULL;
}

/* The expression after a condition ends at the first opcode that is not part of it. */
static const char *expression_end(struct parser *ps)
{
	size_t len = ps->at - ps->expr_at;
	const char *problem;
	bool known;

	ps->collecting = false;
	if (!len)
		return "condition without an expression";
	problem = ifr_expr_check(ps->p + ps->expr_at, len, &known);
	if (problem || ps->expr_cond < 0)
		return problem;
	ps->fs->conds[ps->expr_cond].expr_at = (UINT32)ps->expr_at;
	ps->fs->conds[ps->expr_cond].expr_len = (UINT32)len;
	ps->fs->conds[ps->expr_cond].known = known;
	return NULL;
}

static bool in_expression(const struct parser *ps)
{
	if (ps->op == EFI_IFR_END_OP)
		return ps->depth > ps->expr_depth; /* closes a scope opened inside it */
	return ifr_expr_op(ps->op) || ps->depth > ps->expr_depth;
}

/* REFRESH: the question whose scope holds it is read again every RefreshInterval seconds. */
static const char *refresh(struct parser *ps)
{
	if (ps->len < REFRESH_SIZE)
		return "REFRESH too short";
	if (!is_question(owner_op(ps)))
		return "REFRESH outside a question";
	if (ps->record && top_stmt(ps) >= 0)
		ps->fs->stmts[top_stmt(ps)].refresh = op_bytes(ps)[2];
	return NULL;
}

static const char *end_scope(struct parser *ps)
{
	if (!ps->depth)
		return "END without a scope";
	ps->depth--;
	if (ps->scope[ps->depth].op == EFI_IFR_FORM_OP) {
		if (ps->record)
			ps->fs->forms[ps->form].count =
			    (UINT16)(ps->fs->stmt_count - ps->fs->forms[ps->form].first);
		ps->form = -1;
	}
	if (ps->scope[ps->depth].op == EFI_IFR_FORM_SET_OP)
		ps->record = false;
	return NULL;
}

static const char *one_opcode(struct parser *ps, int *stmt, int *cond)
{
	switch (ps->op) {
	case EFI_IFR_FORM_SET_OP:
		return form_set(ps);
	case EFI_IFR_FORM_OP:
		return form(ps);
	case EFI_IFR_VARSTORE_OP:
	case EFI_IFR_VARSTORE_EFI_OP:
		return varstore(ps, ps->op == EFI_IFR_VARSTORE_EFI_OP);
	case EFI_IFR_ONE_OF_OPTION_OP:
		return option(ps);
	case EFI_IFR_DEFAULT_OP:
		return default_value(ps);
	case EFI_IFR_END_OP:
		return end_scope(ps);
	case EFI_IFR_SUPPRESS_IF_OP:
	case EFI_IFR_GRAY_OUT_IF_OP:
	case EFI_IFR_DISABLE_IF_OP:
	case EFI_IFR_INCONSISTENT_IF_OP:
	case EFI_IFR_NO_SUBMIT_IF_OP:
		return condition(ps, cond);
	case EFI_IFR_REFRESH_OP:
		return refresh(ps);
	case EFI_IFR_SUBTITLE_OP:
	case EFI_IFR_TEXT_OP:
		return statement(ps, stmt);
	default:
		if (is_question(ps->op))
			return statement(ps, stmt);
		return ps->depth ? NULL : "opcode outside a form set";
	}
}

static const char *step(struct parser *ps)
{
	bool opens;
	int stmt = -1, cond = -1;
	const char *problem;
	struct scope *sc;

	ps->op = ps->p[ps->at];
	ps->len = ps->p[ps->at + 1] & EFI_IFR_LENGTH_MASK;
	opens = ps->p[ps->at + 1] & EFI_IFR_SCOPE;
	if (ps->op == EFI_IFR_FORM_SET_OP && !opens)
		return "FORM_SET without a scope";
	if (ps->collecting && !in_expression(ps) && (problem = expression_end(ps)))
		return problem;
	problem = one_opcode(ps, &stmt, &cond);
	if (problem || !opens)
		return problem;
	if (ps->depth == IFR_SCOPE_DEPTH_MAX)
		return "scopes nested too deep";
	sc = &ps->scope[ps->depth];
	sc->op = ps->op;
	/* Options and defaults belong to the question whose scope holds them, through the
	 * conditions around them; statements inside a condition are under it. */
	sc->stmt = stmt >= 0 ? stmt : is_condition(ps->op) ? top_stmt(ps) : -1;
	sc->cond = is_condition(ps->op) && cond >= 0 ? (UINT16)(cond + 1) : top_cond(ps);
	ps->depth++;
	return NULL;
}

static UINT32 storage_size(const struct ifr_statement *s)
{
	return s->kind == IFR_ORDERED_LIST ? (UINT32)s->width * s->containers : s->width;
}

/* Storage inside its varstore, gotos to forms of the set. */
static const char *cross_check(const struct ifr_formset *fs)
{
	for (UINT16 i = 0; i < fs->stmt_count; i++) {
		const struct ifr_statement *s = &fs->stmts[i];
		const struct ifr_varstore *v;

		if (s->kind == IFR_GOTO && !s->flags && !ifr_form_find(fs, s->form_id))
			return "goto to a form the set lacks";
		if (s->kind == IFR_GOTO || s->kind == IFR_ACTION || !s->question_id ||
		    !s->varstore_id)
			continue;
		v = ifr_varstore_find(fs, s->varstore_id);
		if (!v)
			return "question of a varstore the set lacks";
		if ((UINT32)s->var_offset + storage_size(s) > v->size)
			return "question outside its varstore";
	}
	return NULL;
}

/* Checks a forms package and reads one form set. */
const char *ifr_parse(const UINT8 *package, size_t size, const EFI_GUID *guid,
		      struct ifr_formset *fs)
{
	struct parser ps = {
	    .p = package, .size = size, .want = guid, .fs = fs, .form = -1, .expr_cond = -1};

	fs->form_count = fs->stmt_count = fs->option_count = fs->store_count = 0;
	fs->cond_count = 0;
	fs->package = package;
	fs->size = size;
	if (size < PACKAGE_HEADER_SIZE || !ifr_opcode_count(package, size))
		return "forms package of bad opcodes";
	for (ps.at = PACKAGE_HEADER_SIZE; ps.at < size; ps.at += ps.len) {
		const char *problem = step(&ps);

		if (problem)
			return problem;
	}
	if (ps.depth)
		return "scope not closed";
	if (!ps.found)
		return "no such form set";
	return cross_check(fs);
}

/* The form of an id. */
const struct ifr_form *ifr_form_find(const struct ifr_formset *fs, EFI_FORM_ID id)
{
	for (UINT16 i = 0; i < fs->form_count; i++) {
		if (fs->forms[i].id == id)
			return &fs->forms[i];
	}
	return NULL;
}

/* The varstore of an id. */
const struct ifr_varstore *ifr_varstore_find(const struct ifr_formset *fs, EFI_VARSTORE_ID id)
{
	for (UINT16 i = 0; i < fs->store_count; i++) {
		if (fs->stores[i].id == id)
			return &fs->stores[i];
	}
	return NULL;
}
